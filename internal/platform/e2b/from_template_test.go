package e2b

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// A template on another template is a build with fromTemplate and the
// Dockerfile's steps, no fromImage, and no USER/WORKDIR of its own.
func TestBuildStartRequestFromTemplate(t *testing.T) {
	start, err := buildStartRequest(platform.TemplateSpec{Name: "derived", FromTemplate: "tpl-base",
		Dockerfile: "# steps only\nRUN pip install requests\nENV MODE=x\n", StartCmd: "python app.py"})
	if err != nil {
		t.Fatal(err)
	}
	if start.FromTemplate != "tpl-base" || start.FromImage != "" || start.StartCmd != "python app.py" {
		t.Errorf("start = %+v", start)
	}
	var types []string
	for _, st := range start.Steps {
		types = append(types, st.Type)
	}
	if got := strings.Join(types, ","); got != "RUN,ENV" {
		t.Errorf("steps = %s, want RUN,ENV", got)
	}
}

// A FROM line in a Dockerfile on another template is refused, naming it.
func TestValidateTemplateSpecFromTemplateRefusesFrom(t *testing.T) {
	p := &Platform{}
	err := p.ValidateTemplateSpec(platform.TemplateSpec{Name: "d", FromTemplate: "base", Dockerfile: "RUN true\nFROM alpine\n"})
	var de *DockerfileError
	if !errors.As(err, &de) || de.Line != 2 || de.Instruction != "FROM" || !strings.Contains(err.Error(), "from_template") {
		t.Fatalf("err = %v, want a DockerfileError naming line 2", err)
	}
	if err := p.ValidateTemplateSpec(platform.TemplateSpec{Name: "d", FromTemplate: "base", Dockerfile: "RUN true\n"}); err != nil {
		t.Fatalf("steps only: %v", err)
	}
}

// On the fake: the derived build names its base; a base that does not
// exist fails the build at its "base" step, saved as the template.
func TestTemplateFromTemplateOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	base, err := p.Templates().Create(ctx, platform.TemplateSpec{Name: "base", Dockerfile: "FROM python:3.12\nRUN true\n"})
	if err != nil {
		t.Fatal(err)
	}
	derived, err := p.Templates().Create(ctx, platform.TemplateSpec{Name: "derived", FromTemplate: base.ID, Dockerfile: "RUN echo hi\n"})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range fake.Templates() {
		if v.ID == derived.ID {
			b := v.Builds[len(v.Builds)-1]
			if b.FromTemplate != base.ID || b.FromImage != "" {
				t.Errorf("derived build = %+v", b)
			}
		}
	}
	tpl, err := p.Templates().Create(ctx, platform.TemplateSpec{Name: "orphan", FromTemplate: "missing", Dockerfile: "RUN true\n"})
	if err == nil || tpl == nil || !strings.Contains(err.Error(), "base template 'missing' not found") {
		t.Fatalf("build on a missing template: tpl = %+v, err = %v", tpl, err)
	}
}
