package daytona

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

func TestValidateTemplateSpec(t *testing.T) {
	p := &Platform{}
	cases := []struct {
		name   string
		spec   platform.TemplateSpec
		errHas string
	}{
		{"pinned image", platform.TemplateSpec{Name: "a", Image: "python:3.12-slim"}, ""},
		{"digest", platform.TemplateSpec{Name: "a", Image: "python@sha256:" + strings.Repeat("a", 64)}, ""},
		{"registry with port", platform.TemplateSpec{Name: "a", Image: "reg.example:5000/team/app:1.2"}, ""},
		{"latest", platform.TemplateSpec{Name: "a", Image: "python:latest"}, `image "python:latest" has the tag "latest"`},
		{"lts", platform.TemplateSpec{Name: "a", Image: "node:lts"}, `tag "lts"`},
		{"stable", platform.TemplateSpec{Name: "a", Image: "debian:stable"}, `tag "stable"`},
		{"no tag", platform.TemplateSpec{Name: "a", Image: "reg.example:5000/app"}, "has no tag"},
		{"dockerfile without FROM", platform.TemplateSpec{Name: "a", Dockerfile: "# only a comment"}, "no FROM line"},
		{"dockerfile with RUN before FROM", platform.TemplateSpec{Name: "a", Dockerfile: "RUN true\nFROM alpine:3.20"}, "line 1: RUN comes before FROM"},
		{"dockerfile", platform.TemplateSpec{Name: "a", Dockerfile: "FROM python:3.12\nCOPY . /app"}, ""},
		{"bad name", platform.TemplateSpec{Name: "a b", Image: "python:3.12"}, "template name"},
		{"from_template", platform.TemplateSpec{Name: "a", Dockerfile: "RUN x", FromTemplate: "t"}, "from_template"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := p.ValidateTemplateSpec(c.spec)
			switch {
			case c.errHas == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.errHas != "" && (err == nil || !strings.Contains(err.Error(), c.errHas)):
				t.Fatalf("err %v, want %q", err, c.errHas)
			}
		})
	}
}

func TestContextSources(t *testing.T) {
	df := "FROM golang:1.23 AS build\n# comment\nCOPY go.mod go.sum ./\nCOPY --chown=1:1 src \\\n  /app/src\n" +
		"COPY --from=build /out /bin\nADD https://example.com/x.tgz /x\nADD [\"data dir\", \"/data\"]\nRUN echo hi\n"
	got, err := contextSources(df)
	if err != nil {
		t.Fatal(err)
	}
	var srcs []string
	for _, s := range got {
		srcs = append(srcs, s.src)
	}
	if strings.Join(srcs, "|") != "go.mod|go.sum|src|data dir" {
		t.Errorf("sources %q", srcs)
	}
	// A blank line inside a continuation continues it, and a heredoc is no
	// source, its body no instruction (BuildKit's rules).
	got, err = contextSources("FROM alpine:3.20\nCOPY a \\\n\n  b /dst/\nCOPY <<EOF conf /etc/\nCOPY x /y\nEOF\n")
	if err != nil {
		t.Fatal(err)
	}
	srcs = nil
	for _, s := range got {
		srcs = append(srcs, s.src)
	}
	if strings.Join(srcs, "|") != "a|b|conf" {
		t.Errorf("sources %q, want a, b and conf", srcs)
	}
	if _, err := contextSources("FROM alpine:3.20\nCOPY <<EOF /x\n"); err == nil || !strings.Contains(err.Error(), "line 2: unterminated heredoc") {
		t.Errorf("an unterminated heredoc: err %v", err)
	}
}

// TestWithEntrypoint: start_cmd becomes the last ENTRYPOINT, read back
// from it, also after a Dockerfile that ends inside a line continuation
// (which would otherwise swallow it).
func TestWithEntrypoint(t *testing.T) {
	for _, df := range []string{"FROM alpine:3.20\n", "FROM alpine:3.20", "FROM alpine:3.20\nENV A=1 \\\n\n", "FROM alpine:3.20\nENTRYPOINT [\"x\"]\n"} {
		got := withEntrypoint(df, "serve --port 1")
		if ep := dockerfileEntrypoint(got); startCmdOf(ep) != "serve --port 1" {
			t.Errorf("withEntrypoint(%q) = %q: entrypoint %q", df, got, ep)
		}
	}
}

// TestTemplateFromDockerfile: the context goes where the SDK puts it,
// keyed by its hash, the start command becomes the Dockerfile's
// ENTRYPOINT, and a second build of the same files uploads nothing.
func TestTemplateFromDockerfile(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	ctx := context.Background()
	dir := t.TempDir()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "app"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "app", "main.py"), []byte("print(1)\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "app", "secret.env"), []byte("X=1\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, ".dockerignore"), []byte("app/secret.env\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "unused.txt"), []byte("no\n"), 0o644))
	spec := platform.TemplateSpec{Name: "py", Dockerfile: "FROM python:3.12-slim\nCOPY app /app\n", ContextDir: dir,
		StartCmd: "python /app/main.py", CPUCount: 2, MemoryMB: 2048, DiskMB: 4096}
	tpl, err := f.p.Templates().Create(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if tpl.Status != statusReady || tpl.CPUCount != 2 || tpl.MemoryMB != 2048 || tpl.DiskMB != 4096 {
		t.Errorf("template %+v", tpl)
	}
	view, ok := f.srv.Snapshot(tpl.ID)
	if !ok {
		t.Fatal("no snapshot on the fake")
	}
	if !strings.Contains(view.Dockerfile, `ENTRYPOINT ["sh","-c","python /app/main.py"]`) || len(view.ContextHashes) != 1 {
		t.Errorf("dockerfile %q, hashes %v", view.Dockerfile, view.ContextHashes)
	}
	files := f.srv.ContextFiles(view.ContextHashes[0])
	if files["app/main.py"] != "print(1)\n" {
		t.Errorf("context files %v", files)
	}
	if _, ok := files["app/secret.env"]; ok {
		t.Error(".dockerignore not honoured")
	}
	if _, ok := files["unused.txt"]; ok {
		t.Error("a file no COPY reads was uploaded")
	}
	uploads := f.srv.Uploads()
	spec.Name = "py2"
	if _, err := f.p.Templates().Create(ctx, spec); err != nil {
		t.Fatal(err)
	}
	if f.srv.Uploads() != uploads {
		t.Error("the same context was uploaded twice")
	}
	// A taken name is not taken over.
	_, err = f.p.Templates().Create(ctx, spec)
	var no *platform.NotOwnedError
	if !errors.As(err, &no) {
		t.Errorf("taken name: %v", err)
	}
	list, err := f.p.Templates().List(ctx, platform.TemplateFilter{Name: "py"})
	if err != nil || len(list) != 1 || list[0].ID != tpl.ID {
		t.Errorf("list: %v %v", list, err)
	}
	if err := f.p.Templates().Delete(ctx, tpl.ID); err != nil {
		t.Fatal(err)
	}
}

func TestTemplateFromImage(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	tpl, err := f.p.Templates().Create(context.Background(), platform.TemplateSpec{Name: "img", Image: "nginx:1.27", StartCmd: "nginx -g 'daemon off;'"})
	if err != nil {
		t.Fatal(err)
	}
	if tpl.Image != "nginx:1.27" || tpl.StartCmd != "nginx -g 'daemon off;'" {
		t.Errorf("template %+v", tpl)
	}
}

// TestBuildFailure: a failed build returns the template, with Daytona's
// reason and the build log's tail.
func TestBuildFailure(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	f.srv.FailNextBuild("exit code 127", "sh: nosuchcmd: not found")
	tpl, err := f.p.Templates().Create(context.Background(), platform.TemplateSpec{Name: "bad", Dockerfile: "FROM alpine:3.20\nRUN nosuchcmd\n"})
	if tpl == nil || tpl.ID == "" {
		t.Fatalf("no template returned (err %v)", err)
	}
	if err == nil || !strings.Contains(err.Error(), "exit code 127") || !strings.Contains(err.Error(), "nosuchcmd: not found") {
		t.Fatalf("err %v", err)
	}
}

// TestActivation: a template Daytona deactivated reads inactive and is
// activated in place.
func TestActivation(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	ctx := context.Background()
	tpl, err := f.p.Templates().Create(ctx, platform.TemplateSpec{Name: "act", Image: "alpine:3.20"})
	if err != nil {
		t.Fatal(err)
	}
	f.srv.DeactivateSnapshotOutOfBand(tpl.ID)
	f.srv.SettleAll()
	f.clock.Advance(11 * time.Minute) // past Daytona's activation cooldown
	got, err := f.p.Templates().Get(ctx, tpl.ID)
	if err != nil || got.Status != platform.TemplateInactive {
		t.Fatalf("after deactivation: %+v %v", got, err)
	}
	act := f.p.Extensions().TemplateActivation
	got, err = act.Activate(ctx, tpl.ID)
	if err != nil || got.Status != statusReady {
		t.Fatalf("activate: %+v %v", got, err)
	}
	if _, err := act.Activate(ctx, tpl.ID); err != nil {
		t.Errorf("activating an active template: %v", err)
	}
}

// TestLostTemplateCreate: one snapshot, found by name.
func TestLostTemplateCreate(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	f.srv.Inject("POST /snapshots", daytonafake.Fault{DropAfterHandling: true})
	tpl, err := f.p.Templates().Create(context.Background(), platform.TemplateSpec{Name: "lost", Image: "alpine:3.20"})
	if err != nil {
		t.Fatal(err)
	}
	if n := f.srv.Requests("POST /snapshots"); n != 1 {
		t.Errorf("%d creates, want 1", n)
	}
	if tpl.Status != statusReady {
		t.Errorf("status %s", tpl.Status)
	}
	f.srv.Inject("POST /snapshots", daytonafake.Fault{DropBeforeHandling: true})
	if _, err := f.p.Templates().Create(context.Background(), platform.TemplateSpec{Name: "lost2", Image: "alpine:3.20"}); err != nil {
		t.Errorf("a create lost before the server acted, sent again: %v", err)
	}
	f.srv.Inject("POST /snapshots", daytonafake.Fault{DropBeforeHandling: true, Times: 2})
	if _, err := f.p.Templates().Create(context.Background(), platform.TemplateSpec{Name: "lost3", Image: "alpine:3.20"}); !errors.Is(err, rest.ErrMaybeApplied) {
		t.Errorf("err %v", err)
	}
	if n := f.srv.Requests("POST /snapshots"); n != 5 {
		t.Errorf("%d creates, want 5", n)
	}
}

// TestTemplatePaging: a list reads every page of GET /snapshots.
func TestTemplatePaging(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	for i := range 230 {
		f.srv.SeedSnapshot(daytonafake.SnapshotSeed{Name: "s" + strings.Repeat("x", i%3) + string(rune('a'+i%26)) + strings.Repeat("0", i/26), ImageName: "alpine:3.20"})
	}
	list, err := f.p.Templates().List(context.Background(), platform.TemplateFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 230 {
		t.Errorf("%d templates, want 230 (the general default one left out)", len(list))
	}
	if n := f.srv.Requests("GET /snapshots"); n != 3 {
		t.Errorf("%d pages read, want 3", n)
	}
}
