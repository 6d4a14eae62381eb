package docker

import (
	"strings"
	"testing"

	"github.com/docker/docker/api/types/image"
	dockerspec "github.com/moby/docker-image-spec/specs-go/v1"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func TestCheckSource(t *testing.T) {
	made := func(kind string) map[string]string {
		return map[string]string{platform.LabelManaged: "true", platform.LabelKind: kind, platform.LabelName: "agent"}
	}
	tests := []struct {
		name         string
		ref          string // the id the box names
		labels       map[string]string
		fromSnapshot bool
		want         string // a part of the error; "" for none
	}{
		{"template as template", "sha256:abc", made(kindTemplate), false, ""},
		{"any image as template", "sha256:abc", map[string]string{"maintainer": "x"}, false, ""},
		{"snapshot as template", "sha256:abc", made(kindSnapshot), false, "template_id names image sha256:abc, a snapshot of a sandbox made by this provider, not a template; to start a box from it, set from_snapshot_id instead"},
		{"volume snapshot as template", "sha256:abc", made(kindVolumeSnapshot), false, "a snapshot of a volume made by this provider, not a template"},
		{"helper image as template", "sha256:abc", made(kindHelper), false, "the helper image the provider runs its own short-lived containers from"},
		{"snapshot as snapshot", "sha256:abc", made(kindSnapshot), true, ""},
		{"template as snapshot", "sha256:abc", made(kindTemplate), true, `from_snapshot_id: "sha256:abc" is not a snapshot made by this provider: it is image sha256:abc (tagged sbx/agent:latest) of template "agent"; to start a box from it, set template_id instead`},
		{"volume snapshot as snapshot", "sha256:abc", made(kindVolumeSnapshot), true, "it is image sha256:abc, a snapshot of a volume; it restores a volume (sbx_volume.from_snapshot_id), not a box"},
		{"template's own build under its id", "sbx/agent:latest", made(kindTemplate), false, ""},
		{"image tagged by hand under a template's id", "sbx/agent:latest", map[string]string{"maintainer": "x"}, false,
			`template_id "sbx/agent:latest" names image sha256:abc, which the provider did not build for template "agent" (tagged there by hand or by another tool)`},
		{"another template's build under a template's id", "sbx/other:latest", made(kindTemplate), false, "which the provider did not build for template \"other\""},
		{"foreign image as snapshot", "sha256:abc", map[string]string{}, true, "which the provider did not make"},
		// docker commit copies a box's labels into the image.
		{"box committed by hand as snapshot", "sha256:abc", made(kindSandbox), true, "a commit of one of its sandboxes made outside the provider"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			img := image.InspectResponse{ID: "sha256:abc", RepoTags: []string{"sbx/agent:latest"}, Config: &dockerspec.DockerOCIImageConfig{ImageConfig: ocispec.ImageConfig{Labels: tt.labels}}}
			err := checkSource(tt.ref, img, tt.fromSnapshot)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}
