package modal

import (
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func TestTemplateCreate(t *testing.T) {
	tests := []struct {
		name       string
		spec       platform.TemplateSpec
		wantStatus string
		wantErr    string
		wantCmd    string // a command the final image was built with
	}{
		{name: "image", spec: platform.TemplateSpec{Name: "py", Image: "python:3.12", Marks: platform.NewMarks("team")}, wantStatus: templateReady, wantCmd: "FROM base"},
		{name: "dockerfile", spec: platform.TemplateSpec{Name: "tools", Dockerfile: "FROM alpine:3.21\nRUN apk add git\n", Marks: platform.NewMarks("team")},
			wantStatus: templateReady, wantCmd: "RUN apk add git"},
		{name: "failed build keeps its image", spec: platform.TemplateSpec{Name: "bad", Dockerfile: "FROM alpine:3.21\nRUN false\n"},
			wantStatus: templateFailed, wantErr: `the command "RUN false" exited with status 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, false)
			tpl, err := f.p.Templates().Create(f.ctx, tt.spec)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if tpl == nil || !strings.HasPrefix(tpl.ID, "im-") || tpl.Status != tt.wantStatus {
				t.Fatalf("template = %+v, want an im- id with status %s", tpl, tt.wantStatus)
			}
			img, ok := f.w.Image(tpl.ID)
			if !ok {
				t.Fatalf("image %s not in the fake", tpl.ID)
			}
			if tt.wantStatus == templateFailed {
				if img.Status != "failed" {
					t.Fatalf("fake image status = %s, want failed", img.Status)
				}
				return
			}
			if !containsCommand(img.DockerfileCommands, tt.wantCmd) {
				t.Fatalf("image commands = %q, want %q", img.DockerfileCommands, tt.wantCmd)
			}
			// The last layer carries the create's marks, so the image is
			// this template's own.
			if last := img.DockerfileCommands[len(img.DockerfileCommands)-1]; !strings.Contains(last, `sbx.terraform.create-token="`+tt.spec.Marks.CreateToken) ||
				!strings.HasPrefix(last, "LABEL ") {
				t.Fatalf("last command = %q, want the LABEL of the create's marks", last)
			}
			got, err := f.p.Templates().Get(f.ctx, tpl.ID)
			if err != nil || got.ID != tpl.ID || got.Status != templateReady {
				t.Fatalf("Get = %+v, %v", got, err)
			}
		})
	}
}

func containsCommand(cmds []string, want string) bool {
	for _, c := range cmds {
		if c == want {
			return true
		}
	}
	return false
}

func TestTemplateFromTemplate(t *testing.T) {
	f := newFixture(t, false)
	base, err := f.p.Templates().Create(f.ctx, platform.TemplateSpec{Name: "base", Image: "alpine:3.21"})
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := f.p.Templates().Create(f.ctx, platform.TemplateSpec{Name: "child", FromTemplate: base.ID, Dockerfile: "RUN apk add curl\n"})
	if err != nil {
		t.Fatal(err)
	}
	img, _ := f.w.Image(tpl.ID)
	if tpl.ID == base.ID || img.BaseImageID != base.ID || !containsCommand(img.DockerfileCommands, "RUN apk add curl") {
		t.Fatalf("child %s = %+v, want built on %s", tpl.ID, img, base.ID)
	}
	_, err = f.p.Templates().Create(f.ctx, platform.TemplateSpec{Name: "orphan", FromTemplate: "im-missing0000000000000000", Dockerfile: "RUN true\n"})
	if !platform.IsNotFound(err) {
		t.Fatalf("missing base: %v, want not found", err)
	}
}

func TestTemplateDelete(t *testing.T) {
	f := newFixture(t, false)
	tpl, err := f.p.Templates().Create(f.ctx, platform.TemplateSpec{Name: "gone", Image: "busybox"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // the second delete finds it gone
		if err := f.p.Templates().Delete(f.ctx, tpl.ID); err != nil {
			t.Fatalf("delete %d: %v", i, err)
		}
	}
	if _, err := f.p.Templates().Get(f.ctx, tpl.ID); !platform.IsNotFound(err) {
		t.Fatalf("Get after delete: %v, want not found", err)
	}
	if list, err := f.p.Templates().List(f.ctx, platform.TemplateFilter{}); err != nil || len(list) != 0 {
		t.Fatalf("List = %v, %v; Modal lists no images", list, err)
	}
}

// TestTemplateSameContentOwnImages: two templates of one content are two
// images, so destroying one leaves the other's.
func TestTemplateSameContentOwnImages(t *testing.T) {
	f := newFixture(t, false)
	spec := platform.TemplateSpec{Name: "same", Dockerfile: "FROM alpine:3.21\nRUN apk add git\n"}
	a, err := f.p.Templates().Create(f.ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.p.Templates().Create(f.ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if a.ID == b.ID {
		t.Fatalf("both templates are image %s: destroying one would delete the other's", a.ID)
	}
	if err := f.p.Templates().Delete(f.ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.p.Templates().Get(f.ctx, b.ID); err != nil {
		t.Fatalf("the other template after the first was deleted: %v", err)
	}
}
