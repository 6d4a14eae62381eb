package docker

import (
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// A template on another template is built FROM the base's image id, then
// the steps; the base is recorded on the image and read back.
func TestTemplateFromTemplateMapping(t *testing.T) {
	if got := dockerfileOnImage("sha256:abc", "RUN true\n"); got != "FROM sha256:abc\nRUN true\n" {
		t.Errorf("dockerfileOnImage = %q", got)
	}
	spec := platform.TemplateSpec{Name: "derived", FromTemplate: TemplateID("base"), Dockerfile: "RUN true\n"}
	if err := checkTemplateSpec(spec); err != nil {
		t.Fatalf("checkTemplateSpec: %v", err)
	}
	labels := templateLabels(spec)
	if labels[labelFromTemplate] != TemplateID("base") {
		t.Errorf("labels = %v", labels)
	}
	if got := templateFromImage(TemplateID("derived"), "sha256:def", "", labels, nil); got.FromTemplate != TemplateID("base") {
		t.Errorf("read back from_template = %q", got.FromTemplate)
	}
	// A template built on none records "" (never its base image's value).
	if l := templateLabels(platform.TemplateSpec{Name: "plain", Dockerfile: "FROM alpine\n"}); l[labelFromTemplate] != "" {
		t.Errorf("plain labels = %v", l)
	}
}

func TestCheckTemplateSpecFromTemplate(t *testing.T) {
	err := checkTemplateSpec(platform.TemplateSpec{Name: "d", FromTemplate: "sbx/base:latest", Dockerfile: "# x\nFROM alpine\nRUN true\n"})
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("FROM line: err = %v", err)
	}
	err = checkTemplateSpec(platform.TemplateSpec{Name: "d", FromTemplate: "sbx/base:latest", Image: "alpine"})
	if err == nil {
		t.Error("from_template with image: no error")
	}
}
