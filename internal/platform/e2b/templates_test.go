package e2b

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

func TestTemplateLifecycleOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	dir := e2bTestContext(t, map[string]string{"agent.py": "print('hi')\n"})
	spec := platform.TemplateSpec{
		Name:       "agent-tpl",
		Dockerfile: "FROM python:3.12\nRUN pip install \\\n  requests\nCOPY --chown=user agent.py /app/\nENV MODE=test\n",
		ContextDir: dir, StartCmd: "python /app/agent.py", ReadyCmd: "true", CPUCount: 2, MemoryMB: 1024,
	}
	tpl, err := p.Templates().Create(ctx, spec)
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if tpl.ID == "" || tpl.BuildID == "" || tpl.Status != "ready" || tpl.Name != "agent-tpl" || tpl.CPUCount != 2 || tpl.MemoryMB != 1024 {
		t.Fatalf("created template = %+v", tpl)
	}
	views := fake.Templates()
	if len(views) != 1 || len(views[0].Builds) != 1 {
		t.Fatalf("fake templates = %+v", views)
	}
	b := views[0].Builds[0]
	if b.FromImage != "python:3.12" || b.StartCmd != spec.StartCmd || b.ReadyCmd != "true" {
		t.Errorf("build = %+v", b)
	}
	var copyStep *e2bfake.StepView
	for i := range b.Steps {
		if b.Steps[i].Type == "COPY" {
			copyStep = &b.Steps[i]
		}
	}
	if copyStep == nil || copyStep.FilesHash == "" || copyStep.Args[0] != "agent.py" || copyStep.Args[2] != "user" {
		t.Fatalf("COPY step = %+v", copyStep)
	}
	if views[0].Files[copyStep.FilesHash] == 0 {
		t.Errorf("the context was not uploaded under %s: %v", copyStep.FilesHash, views[0].Files)
	}

	// A rebuild is a new build of the same template.
	spec.Dockerfile += "RUN echo again\n"
	re, err := p.Templates().Rebuild(ctx, tpl.ID, spec)
	if err != nil {
		t.Fatalf("Rebuild: %v", err)
	}
	if re.ID != tpl.ID || re.BuildID == tpl.BuildID {
		t.Errorf("rebuild: id %s→%s, build %s→%s; want same id, new build", tpl.ID, re.ID, tpl.BuildID, re.BuildID)
	}
	if n := len(fake.Templates()[0].Builds); n != 2 {
		t.Errorf("builds after rebuild = %d, want 2", n)
	}

	got, err := p.Templates().Get(ctx, tpl.ID)
	if err != nil || got.BuildID != re.BuildID {
		t.Fatalf("Get = %+v, %v; want build %s", got, err, re.BuildID)
	}
	list, err := p.Templates().List(ctx, platform.TemplateFilter{Name: "agent-tpl"})
	if err != nil || len(list) != 1 || list[0].ID != tpl.ID {
		t.Fatalf("List = %+v, %v", list, err)
	}
	if err := p.Templates().Delete(ctx, tpl.ID); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if err := p.Templates().Delete(ctx, tpl.ID); err != nil {
		t.Errorf("second Delete: %v", err)
	}
	if _, err := p.Templates().Get(ctx, tpl.ID); !platform.IsNotFound(err) {
		t.Errorf("Get after delete: %v, want not found", err)
	}
}

func TestTemplateFailedBuildOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	fake.FailNextBuild("broken", "step 2 exited with 1")
	_, err := p.Templates().Create(context.Background(), platform.TemplateSpec{Name: "broken", Dockerfile: "FROM alpine\nRUN make\n"})
	if err == nil || !strings.Contains(err.Error(), "step 2 exited with 1") {
		t.Fatalf("err = %v, want the build's failure reason", err)
	}
}

func TestTemplateFromImageOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	tpl, err := p.Templates().Create(context.Background(), platform.TemplateSpec{Name: "prebuilt", Image: "ghcr.io/acme/agent:1"})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	b := fake.Templates()[0].Builds[0]
	if b.FromImage != "ghcr.io/acme/agent:1" || len(b.Steps) != 0 || tpl.Status != "ready" {
		t.Errorf("build = %+v, template = %+v", b, tpl)
	}
}

func TestValidateTemplateSpec(t *testing.T) {
	p, _ := e2bTestPlatform(t, e2bfake.Options{})
	tests := []struct {
		name string
		spec platform.TemplateSpec
		want string
	}{
		{"good", platform.TemplateSpec{Dockerfile: "FROM alpine\nRUN true"}, ""},
		{"image", platform.TemplateSpec{Image: "alpine"}, ""},
		{"bad line", platform.TemplateSpec{Dockerfile: "FROM alpine\nEXPOSE 80"}, "line 2: EXPOSE"},
		// Labels are the capability matrix's (TemplateLabels), checked by the
		// resource; reporting them here too would say it twice.
		{"labels are left to the matrix", platform.TemplateSpec{Image: "alpine", Labels: map[string]string{"a": "b"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := p.ValidateTemplateSpec(tt.spec)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			var de *DockerfileError
			if strings.Contains(tt.want, "line") && !errors.As(err, &de) {
				t.Errorf("err %T is not a *DockerfileError", err)
			}
		})
	}
}

func TestTemplateLabelsRefusedOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	_, err := p.Templates().Create(context.Background(), platform.TemplateSpec{Name: "l", Image: "alpine", Labels: map[string]string{"a": "b"}})
	if !errors.Is(err, platform.ErrUnsupported) || !strings.Contains(err.Error(), "template labels") {
		t.Errorf("Create with labels: %v, want unsupported template labels", err)
	}
	if n := len(fake.Templates()); n != 0 {
		t.Errorf("a refused create made %d templates", n)
	}
	if p.Capabilities().Accepts(platform.AttrTemplateLabels) {
		t.Error("capabilities claim template labels")
	}
}

// E2B adds a build to the template already holding a name, so a create
// under a taken name would take another state's template over: it fails
// naming the template, and no build is requested.
func TestTemplateTakenNameRefusedOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	spec := platform.TemplateSpec{Name: "team-base", Image: "alpine:3"}
	theirs, err := p.Templates().Create(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Templates().Create(ctx, spec)
	var notOwned *platform.NotOwnedError
	if !errors.As(err, &notOwned) || notOwned.ID != theirs.ID || !strings.Contains(err.Error(), "E2B would add this build to the existing template") {
		t.Fatalf("create under a taken name: %v; want a NotOwnedError naming %s", err, theirs.ID)
	}
	if n := fake.Requests("POST /v3/templates"); n != 1 {
		t.Errorf("build requests = %d, want 1", n)
	}
	if views := fake.Templates(); len(views) != 1 || len(views[0].Builds) != 1 {
		t.Errorf("fake templates = %+v, want the one template with its one build", views)
	}
}

// The first create of a template whose answer is lost finds the template
// it made by name (the name was free before it) and follows its build.
func TestTemplateFirstCreateAnswerLostOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	fake.Inject("POST /v3/templates", e2bfake.Fault{DropAfterHandling: true})
	tpl, err := p.Templates().Create(context.Background(), platform.TemplateSpec{Name: "lost", Image: "alpine:3"})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if n := fake.Requests("POST /v3/templates"); n != 1 {
		t.Errorf("build requests = %d, want 1 (the lost one found, not repeated)", n)
	}
	if views := fake.Templates(); len(views) != 1 || views[0].ID != tpl.ID || tpl.Status != "ready" {
		t.Errorf("fake templates = %+v, created %+v", views, tpl)
	}
}
