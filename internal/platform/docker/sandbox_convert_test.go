package docker

import (
	"maps"
	"reflect"
	"testing"

	"github.com/docker/docker/api/types/container"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestSandboxFromContainerMaker: a container started by hand from one of
// the provider's images inherits the image's labels (the engine copies
// them); it is a box made by someone else, named as the container, from
// its image, with the user's labels it was given, not the template's.
func TestSandboxFromContainerMaker(t *testing.T) {
	tplMarks := platform.NewMarks("team")
	template := map[string]string{platform.LabelManaged: "true", platform.LabelKind: kindTemplate,
		platform.LabelName: "base", labelUserLabelKeys: `["tier"]`, "tier": "gold"}
	maps.Copy(template, tplMarks.Labels())
	boxMarks := platform.NewMarks("team")
	own := map[string]string{platform.LabelManaged: "true", platform.LabelKind: kindSandbox, platform.LabelName: "worker",
		labelTemplateID: "sbx-template/base:latest", labelUserLabelKeys: `["team"]`, "team": "a", "tier": "gold"}
	maps.Copy(own, boxMarks.Labels())
	byHand := maps.Clone(template)
	byHand["team"] = "a"
	for _, tc := range []struct {
		name      string
		labels    map[string]string
		image     string
		want      platform.Sandbox
		wantOwned bool
	}{
		{"made by the provider", own, "sbx-template/base:latest", platform.Sandbox{Name: "worker", TemplateID: "sbx-template/base:latest",
			Labels: map[string]string{"team": "a"}, MadeWith: boxMarks, Managed: true}, true},
		{"docker run of a template", byHand, "sbx-template/base:latest", platform.Sandbox{Name: "by-hand", TemplateID: "sbx-template/base:latest",
			Labels: map[string]string{"team": "a", "tier": "gold"}}, false},
		{"docker run of any image", map[string]string{"team": "a"}, "alpine:3.20", platform.Sandbox{Name: "by-hand", TemplateID: "alpine:3.20",
			Labels: map[string]string{"team": "a"}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := container.InspectResponse{ContainerJSONBase: &container.ContainerJSONBase{ID: "c1", Name: "/by-hand"},
				Config: &container.Config{Image: tc.image, Labels: tc.labels}}
			got := sandboxFromContainer(c)
			if got.Name != tc.want.Name || got.TemplateID != tc.want.TemplateID || !reflect.DeepEqual(got.Labels, tc.want.Labels) ||
				got.MadeWith != tc.want.MadeWith || got.Managed != tc.want.Managed {
				t.Errorf("got name %q, template %q, labels %v, made with %+v, managed %v; want %q, %q, %v, %+v, %v",
					got.Name, got.TemplateID, got.Labels, got.MadeWith, got.Managed,
					tc.want.Name, tc.want.TemplateID, tc.want.Labels, tc.want.MadeWith, tc.want.Managed)
			}
		})
	}
}
