package e2b

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/buildctx"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// layersTestContext writes files (slash paths → content) under a new dir.
func layersTestContext(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	layersTestWrite(t, dir, files)
	return dir
}

func layersTestWrite(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// copySteps returns the COPY steps of a template's newest build.
func copySteps(t *testing.T, v e2bfake.TemplateView) []e2bfake.StepView {
	t.Helper()
	var out []e2bfake.StepView
	for _, st := range v.Builds[len(v.Builds)-1].Steps {
		if st.Type == "COPY" {
			out = append(out, st)
		}
	}
	return out
}

// Every COPY step gets a layer of its own: a gzipped tar of only the files
// it copies (.dockerignore honoured, the Dockerfile never in it), keyed by
// the step's files hash; a rebuild uploads only the layers whose files
// changed, and none when E2B already holds them.
func TestTemplateCopyLayersOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	dir := layersTestContext(t, map[string]string{
		"app/main.py": "print('hi')\n", "app/debug.log": "noise", "etc/agent.conf": "mode=1\n",
		"README.md": "not copied", ".dockerignore": "**/*.log\n",
	})
	spec := platform.TemplateSpec{Name: "layers", ContextDir: dir,
		Dockerfile: "FROM alpine\nCOPY app /app\nRUN true\nCOPY etc/agent.conf /etc/agent.conf\n"}
	tpl, err := p.Templates().Create(ctx, spec)
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	v := fake.Templates()[0]
	steps := copySteps(t, v)
	if len(steps) != 2 || steps[0].FilesHash == steps[1].FilesHash {
		t.Fatalf("COPY steps = %+v, want two with different files hashes", steps)
	}
	appHash, confHash := steps[0].FilesHash, steps[1].FilesHash
	if got := v.LayerFiles[appHash]; !slices.Equal(got, []string{"app", "app/main.py"}) {
		t.Errorf("layer of COPY app = %q, want only app and app/main.py", got)
	}
	if got := v.LayerFiles[confHash]; !slices.Equal(got, []string{"etc/agent.conf"}) {
		t.Errorf("layer of COPY etc/agent.conf = %q, want only etc/agent.conf", got)
	}
	if v.Uploads[appHash] != 1 || v.Uploads[confHash] != 1 || len(v.Uploads) != 2 {
		t.Errorf("uploads = %v, want one per layer", v.Uploads)
	}

	// Nothing changed: E2B holds both layers, nothing is uploaded.
	if _, err := p.Templates().Rebuild(ctx, tpl.ID, spec); err != nil {
		t.Fatalf("Rebuild: %v", err)
	}
	// One file changed: only its step's layer is uploaded again.
	layersTestWrite(t, dir, map[string]string{"etc/agent.conf": "mode=2\n"})
	if _, err := p.Templates().Rebuild(ctx, tpl.ID, spec); err != nil {
		t.Fatalf("Rebuild after a change: %v", err)
	}
	v = fake.Templates()[0]
	steps = copySteps(t, v)
	if steps[0].FilesHash != appHash || steps[1].FilesHash == confHash {
		t.Fatalf("hashes after the change = %s, %s; want app's kept (%s), the conf's new", steps[0].FilesHash, steps[1].FilesHash, appHash)
	}
	want := map[string]int{appHash: 1, confHash: 1, steps[1].FilesHash: 1}
	if len(v.Uploads) != 3 || v.Uploads[appHash] != 1 || v.Uploads[confHash] != 1 || v.Uploads[steps[1].FilesHash] != 1 {
		t.Errorf("uploads = %v, want %v", v.Uploads, want)
	}
	if n := len(v.Builds); n != 3 || v.Builds[2].Status != "ready" {
		t.Errorf("builds = %+v, want 3, the last ready", v.Builds)
	}
}

// The files hash is the SDKs': sha256 over "COPY <src> <dest>" and, per
// file in path order, its relative path, st_mode and size in decimal and
// its content.
func TestCopyFilesHashAsTheSDKs(t *testing.T) {
	dir := layersTestContext(t, map[string]string{"cfg/a.txt": "hi", "cfg/b.txt": "there"})
	if err := os.Chmod(filepath.Join(dir, "cfg"), 0o755); err != nil {
		t.Fatal(err)
	}
	files, err := buildctx.Select(dir, "cfg")
	if err != nil {
		t.Fatal(err)
	}
	got, err := copyFilesHash("cfg", "/etc/cfg", files)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Lstat(filepath.Join(dir, "cfg"))
	if err != nil {
		t.Fatal(err)
	}
	// 16877 = 0o40755 (a directory), 33188 = 0o100644 (a regular file).
	text := "COPY cfg /etc/cfg" +
		"cfg" + "16877" + strconv.FormatInt(info.Size(), 10) +
		"cfg/a.txt" + "33188" + "2" + "hi" +
		"cfg/b.txt" + "33188" + "5" + "there"
	sum := sha256.Sum256([]byte(text))
	if want := hex.EncodeToString(sum[:]); got != want {
		t.Errorf("copyFilesHash = %s, want %s", got, want)
	}
	// The destination is part of it: the same files elsewhere are another layer.
	other, _ := copyFilesHash("cfg", "/opt/cfg", files)
	if other == got {
		t.Error("a different destination gave the same hash")
	}
}

// recordingTransport keeps every request it carries.
type recordingTransport struct {
	mu   sync.Mutex
	reqs []*http.Request
}

func (r *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, req)
	r.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

// Uploads carry the provider's User-Agent and an exact Content-Length
// (signed storage URLs refuse chunked bodies), and never the API key.
func TestTemplateUploadHeadersOnFake(t *testing.T) {
	fake := e2bfake.New(t, e2bfake.Options{APIKey: e2bTestKey})
	rt := &recordingTransport{}
	p, err := New(Config{APIKey: e2bTestKey, APIURL: fake.URL(), UserAgent: "terraform-provider-sbx/test",
		HTTPClient: &http.Client{Transport: rt}, PollInterval: time.Millisecond,
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
	if err != nil {
		t.Fatal(err)
	}
	dir := layersTestContext(t, map[string]string{"agent.py": "print(1)\n"})
	if _, err := p.Templates().Create(context.Background(), platform.TemplateSpec{Name: "ua", ContextDir: dir,
		Dockerfile: "FROM alpine\nCOPY agent.py /app/agent.py\n"}); err != nil {
		t.Fatalf("Create: %v", err)
	}
	uploads := 0
	for _, req := range rt.reqs {
		if req.Method != http.MethodPut {
			continue
		}
		uploads++
		if ua := req.Header.Get("User-Agent"); ua != "terraform-provider-sbx/test" {
			t.Errorf("upload User-Agent = %q", ua)
		}
		if req.ContentLength <= 0 || len(req.TransferEncoding) > 0 {
			t.Errorf("upload Content-Length = %d, Transfer-Encoding = %v; want an exact length", req.ContentLength, req.TransferEncoding)
		}
		if req.Header.Get("X-API-Key") != "" {
			t.Error("the upload carried the API key")
		}
	}
	if uploads != 1 {
		t.Errorf("uploads = %d, want 1", uploads)
	}
}

// E2B answers 404 to GET and DELETE /templates/{templateID} of a template
// that is gone (its spec lists no 404 there): Get is a NotFoundError, and
// Delete of a gone template succeeds.
func TestTemplateGoneOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	tpl, err := p.Templates().Create(ctx, platform.TemplateSpec{Name: "gone", Image: "alpine:3.20"})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	fake.DeleteTemplateOutOfBand(tpl.ID)
	gets := fake.Requests("GET /templates/{templateID}")
	_, err = p.Templates().Get(ctx, tpl.ID)
	var nf *platform.NotFoundError
	if !errors.As(err, &nf) || nf.ID != tpl.ID || nf.Kind != "template" {
		t.Errorf("Get of a gone template = %v, want a NotFoundError for template %s", err, tpl.ID)
	}
	if err := p.Templates().Delete(ctx, tpl.ID); err != nil {
		t.Errorf("Delete of a gone template = %v, want nil", err)
	}
	if n := fake.Requests("DELETE /templates/{templateID}"); n != 1 {
		t.Errorf("DELETE requests = %d, want 1 (a 404 is not retried)", n)
	}
	if n := fake.Requests("GET /templates/{templateID}") - gets; n != 1 {
		t.Errorf("GET requests = %d, want 1 (a 404 is not retried)", n)
	}
}

// public is set after the build (PATCH /v2/templates/{id}) when it differs
// from what E2B reports, read back by Get, and left alone when not set.
func TestTemplatePublicOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	yes, no := true, false
	spec := platform.TemplateSpec{Name: "shared", Image: "alpine:3.20", Public: &yes}
	tpl, err := p.Templates().Create(ctx, spec)
	if err != nil || !tpl.Public || !fake.Templates()[0].Public {
		t.Fatalf("Create public = %+v, %v; fake public = %v", tpl, err, fake.Templates()[0].Public)
	}
	if got, err := p.Templates().Get(ctx, tpl.ID); err != nil || !got.Public {
		t.Errorf("Get = %+v, %v; want public", got, err)
	}
	patches := fake.Requests("PATCH /v2/templates/{templateID}")
	spec.Public = nil
	if _, err := p.Templates().Rebuild(ctx, tpl.ID, spec); err != nil {
		t.Fatal(err)
	}
	if n := fake.Requests("PATCH /v2/templates/{templateID}"); n != patches || !fake.Templates()[0].Public {
		t.Errorf("a rebuild without public sent %d PATCHes, public = %v; want none, still public", n-patches, fake.Templates()[0].Public)
	}
	spec.Public = &no
	if re, err := p.Templates().Rebuild(ctx, tpl.ID, spec); err != nil || re.Public || fake.Templates()[0].Public {
		t.Errorf("Rebuild private = %+v, %v; fake public = %v", re, err, fake.Templates()[0].Public)
	}
}
