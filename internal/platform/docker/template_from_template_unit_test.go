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
	// Parser directives stay at the top, where they are directives.
	if got := dockerfileOnImage("sha256:abc", "# escape=`\nRUN a `\n  b\n"); got != "# escape=`\nFROM sha256:abc\nRUN a `\n  b\n" {
		t.Errorf("dockerfileOnImage with a directive = %q", got)
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

// A built template records the context_hash it was built from, and an
// import reads it back; an adopted image records none, and neither does a
// build of an image that inherits the label from its base.
func TestTemplateContextHashRecorded(t *testing.T) {
	built := templateLabels(platform.TemplateSpec{Name: "b", Dockerfile: "FROM scratch\n", ContextHash: "c0ffee"})
	if got := templateFromImage(TemplateID("b"), "sha256:1", "", built, nil); got.ContextHash != "c0ffee" {
		t.Errorf("built: read back context_hash = %q, want c0ffee", got.ContextHash)
	}
	adopted := templateLabels(platform.TemplateSpec{Name: "a", Image: "team/agent:1", ContextHash: "ignored"})
	if v, ok := adopted[labelContextHash]; !ok || v != "" {
		t.Errorf("adopted: %s = %q (set: %v), want set to \"\" so a base's value is not inherited", labelContextHash, v, ok)
	}
	if got := templateFromImage(TemplateID("a"), "sha256:2", "", adopted, nil); got.ContextHash != "" {
		t.Errorf("adopted: read back context_hash = %q, want none", got.ContextHash)
	}
}
