package docker

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/docker/docker/api/types/build"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/buildctx"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func TestTemplateBuildRebuildDelete(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := templateTestPlatform(t)
	name := templateTestName("tpl")
	dir := templateTestContext(t, "one")
	spec := platform.TemplateSpec{
		Name: name, Dockerfile: templateTestDockerfile, ContextDir: dir,
		StartCmd: `["/agent"]`, ReadyCmd: "/agent cat /ready", CPUCount: 1, MemoryMB: 64,
		// Quotes, dollars, backslashes and line breaks survive the Dockerfile.
		Labels: map[string]string{"team": "infra", "note": `say "hi" to $HOME \ ok`, "multi": "line1\nline2"},
	}
	tmpl := templateTestCreate(t, p, spec)

	if tmpl.ID != "sbx/"+name+":latest" || tmpl.Name != name || tmpl.Status != "ready" || tmpl.Image != "" {
		t.Errorf("created %+v", tmpl)
	}
	if !strings.HasPrefix(tmpl.BuildID, "sha256:") || tmpl.CreatedAt.IsZero() {
		t.Errorf("build id %q, created at %v", tmpl.BuildID, tmpl.CreatedAt)
	}
	if !reflect.DeepEqual(tmpl.Labels, spec.Labels) {
		t.Errorf("labels = %q, want %q", tmpl.Labels, spec.Labels)
	}
	img, err := p.api.ImageInspect(ctx, tmpl.ID)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{
		platform.LabelManaged: "true", platform.LabelKind: "template", platform.LabelName: name,
		labelStartCmd: `["/agent"]`, labelReadyCmd: "/agent cat /ready", labelCPUCount: "1", labelMemoryMB: "64",
	} {
		if got := img.Config.Labels[k]; got != want {
			t.Errorf("image label %s = %q, want %q", k, got, want)
		}
	}

	got, err := p.Templates().Get(ctx, tmpl.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, tmpl) {
		t.Errorf("Get = %+v, want %+v", got, tmpl)
	}
	list, err := p.Templates().List(ctx, platform.TemplateFilter{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != tmpl.ID || list[0].BuildID != tmpl.BuildID {
		t.Errorf("List(name) = %+v, want the one template", list)
	}

	// The same inputs again: builds share no layer cache, so this is a
	// fresh image under the same id, and the previous one is gone.
	again, err := p.Templates().Rebuild(ctx, tmpl.ID, spec)
	if err != nil {
		t.Fatal(err)
	}
	if again.ID != tmpl.ID || again.BuildID == tmpl.BuildID {
		t.Errorf("rebuild of unchanged inputs: id %s build %s; want id %s and a fresh build", again.ID, again.BuildID, tmpl.ID)
	}
	if _, err := p.api.ImageInspect(ctx, tmpl.BuildID); err == nil {
		t.Errorf("the previous build %s was not removed", tmpl.BuildID)
	}
	tmpl = again

	// A changed context file: a new build under the same id, and the old
	// image, which nothing uses, is gone.
	if err := os.WriteFile(filepath.Join(dir, "data.txt"), []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	rebuilt, err := p.Templates().Rebuild(ctx, tmpl.ID, spec)
	if err != nil {
		t.Fatal(err)
	}
	if rebuilt.ID != tmpl.ID || rebuilt.BuildID == tmpl.BuildID {
		t.Errorf("rebuild: id %s build %s; want id %s and a build other than %s", rebuilt.ID, rebuilt.BuildID, tmpl.ID, tmpl.BuildID)
	}
	if _, err := p.api.ImageInspect(ctx, tmpl.BuildID); err == nil {
		t.Errorf("the previous build %s was not removed", tmpl.BuildID)
	}
	if _, err := p.Templates().Rebuild(ctx, tmpl.ID, platform.TemplateSpec{Name: name + "x", Dockerfile: "FROM scratch"}); err == nil {
		t.Error("rebuild under another name accepted")
	}

	if err := p.Templates().Delete(ctx, tmpl.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Templates().Get(ctx, tmpl.ID); !platform.IsNotFound(err) {
		t.Errorf("Get after Delete: %v, want not found", err)
	}
	var nf *platform.NotFoundError
	if _, err := p.Templates().Get(ctx, tmpl.ID); !errors.As(err, &nf) || nf.Kind != "template" || nf.ID != tmpl.ID {
		t.Errorf("Get after Delete: %#v", err)
	}
	if _, err := p.api.ImageInspect(ctx, rebuilt.BuildID); err == nil {
		t.Errorf("Delete left the image %s", rebuilt.BuildID)
	}
	// Nor any intermediate image that carries the template's labels.
	left, err := p.api.ImageList(ctx, image.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("label", platform.LabelName+"="+name))})
	if err != nil || len(left) != 0 {
		t.Errorf("after Delete, %d images labelled %s remain (%v)", len(left), name, err)
	}
	if err := p.Templates().Delete(ctx, tmpl.ID); err != nil {
		t.Errorf("second Delete: %v", err)
	}
	if list, _ := p.Templates().List(ctx, platform.TemplateFilter{Name: name}); len(list) != 0 {
		t.Errorf("List after Delete = %+v", list)
	}
}

func TestTemplateRebuildKeepsImageInUse(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := templateTestPlatform(t)
	name := templateTestName("tpl")
	dir := templateTestContext(t, "one")
	spec := platform.TemplateSpec{Name: name, Dockerfile: templateTestDockerfile, ContextDir: dir}
	tmpl := templateTestCreate(t, p, spec)

	box := templateTestName("box")
	sandboxTestCleanup(t, p.api, box)
	sb, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{Name: box, TemplateID: tmpl.ID, State: platform.StateRunning})
	if err != nil {
		t.Fatal(err)
	}

	if err := os.WriteFile(filepath.Join(dir, "data.txt"), []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	rebuilt, err := p.Templates().Rebuild(ctx, tmpl.ID, spec)
	if err != nil {
		t.Fatalf("rebuild while a sandbox runs the old build: %v", err)
	}
	if rebuilt.BuildID == tmpl.BuildID {
		t.Fatal("rebuild did not make a new image")
	}
	if _, err := p.api.ImageInspect(ctx, tmpl.BuildID); err != nil {
		t.Errorf("the old build, still used by a sandbox, was removed: %v", err)
	}
	if got, err := p.Sandboxes().Get(ctx, sb.ID); err != nil || got.Status != platform.StateRunning {
		t.Errorf("sandbox after rebuild: %+v, %v", got, err)
	}
	// The old build keeps the labels but not the tag: it is not listed.
	if list, _ := p.Templates().List(ctx, platform.TemplateFilter{Name: name}); len(list) != 1 || list[0].BuildID != rebuilt.BuildID {
		t.Errorf("List = %+v, want only the new build", list)
	}

	// A template a sandbox still uses cannot be deleted under it.
	stopped := templateTestName("box")
	sandboxTestCleanup(t, p.api, stopped)
	if _, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{Name: stopped, TemplateID: tmpl.ID, State: platform.StateStopped}); err != nil {
		t.Fatal(err)
	}
	err = p.Templates().Delete(ctx, tmpl.ID)
	if !errors.Is(err, platform.ErrConflict) || !strings.Contains(err.Error(), "delete the sandboxes made from it first") {
		t.Errorf("Delete of a template in use: %v, want a conflict", err)
	}
	if _, err := p.Templates().Get(ctx, tmpl.ID); err != nil {
		t.Errorf("template after refused delete: %v", err)
	}
}

func TestTemplateBrokenDockerfile(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := templateTestPlatform(t)
	name := templateTestName("tpl")
	templateTestCleanup(t, p.api, name)
	missing := "missing-" + name // unique, so this build's containers can be told apart

	_, err := p.Templates().Create(ctx, platform.TemplateSpec{
		Name: name, ContextDir: acctest.AgentContextDir(t),
		Dockerfile: "FROM scratch\nCOPY agent /agent\nCOPY " + missing + " /x\n",
	})
	if err == nil {
		t.Fatal("a Dockerfile copying a missing file built")
	}
	for _, want := range []string{"failed at Step 3/", ": COPY " + missing + " /x: ", "file not found", "last build output:", ": COPY agent /agent"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not contain %q:\n%v", want, err)
		}
	}
	if _, err := p.Templates().Get(ctx, TemplateID(name)); !platform.IsNotFound(err) {
		t.Errorf("Get after a failed build: %v, want not found", err)
	}
	if n := templateTestBuildContainers(t, p, missing); n > 0 {
		t.Errorf("the failed build left %d containers behind", n)
	}

	// A context that does not exist is named in the error.
	_, err = p.Templates().Create(ctx, platform.TemplateSpec{Name: name, Dockerfile: "FROM scratch", ContextDir: "/nonexistent/ctx"})
	if err == nil || !strings.Contains(err.Error(), `"/nonexistent/ctx" does not exist`) {
		t.Errorf("missing context dir: %v", err)
	}
}

// templateTestBuildContainers counts containers whose command mentions
// marker: the build's intermediate containers run the step as "#(nop) ...".
func templateTestBuildContainers(t *testing.T, p *Platform, marker string) int {
	t.Helper()
	list, err := p.api.ContainerList(t.Context(), templateTestListAll())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range list {
		if strings.Contains(c.Command, marker) {
			n++
		}
	}
	return n
}

func TestTemplateAdopt(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := templateTestPlatform(t)

	// An image made outside the provider, as a user would have it.
	src := templateTestName("src") + ":v1"
	tarball, err := buildctx.Tar(acctest.AgentContextDir(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := p.api.ImageBuild(ctx, tarball, build.ImageBuildOptions{
		Tags: []string{src}, Version: build.BuilderV1, Remove: true, ForceRemove: true,
		Labels:  map[string]string{"maintainer": "someone"},
		NoCache: true, // as in buildTestImage
	})
	if err != nil {
		t.Fatal(err)
	}
	var srcLog buildLog
	if err := srcLog.read(resp.Body, func(string) {}); err != nil || srcLog.err("src") != nil {
		t.Fatalf("building the source image: %v %v", err, srcLog.err("src"))
	}
	_ = resp.Body.Close() // read to its end above; closing only frees the connection
	t.Cleanup(func() {
		_, _ = p.api.ImageRemove(context.Background(), src, image.RemoveOptions{Force: true, PruneChildren: true})
	})
	srcImg, err := p.api.ImageInspect(ctx, src)
	if err != nil {
		t.Fatal(err)
	}

	name := templateTestName("tpl")
	tmpl := templateTestCreate(t, p, platform.TemplateSpec{
		Name: name, Image: src, StartCmd: "/agent", CPUCount: 1,
		Labels: map[string]string{"team": "infra"},
	})
	if tmpl.ID != TemplateID(name) || tmpl.Image != src || tmpl.Status != "ready" {
		t.Errorf("adopted %+v", tmpl)
	}
	if want := map[string]string{"team": "infra"}; !reflect.DeepEqual(tmpl.Labels, want) {
		t.Errorf("labels = %v, want the user's %v (not the source image's)", tmpl.Labels, want)
	}
	img, err := p.api.ImageInspect(ctx, tmpl.ID)
	if err != nil {
		t.Fatal(err)
	}
	if img.Config.Labels[labelStartCmd] != "/agent" || img.Config.Labels[labelCPUCount] != "1" {
		t.Errorf("adopted image labels %v lack the template settings", img.Config.Labels)
	}
	// The image list reports the parent; ImageInspect's Parent is deprecated.
	listed, err := p.api.ImageList(ctx, image.ListOptions{Filters: filters.NewArgs(filters.Arg("reference", tmpl.ID))})
	if err != nil {
		t.Fatal(err)
	}
	if len(listed) != 1 || listed[0].ID != img.ID {
		t.Fatalf("listing %s gave %+v, want only image %s", tmpl.ID, listed, img.ID)
	}
	if listed[0].ParentID != srcImg.ID {
		t.Errorf("adopted image's parent is %s, want the source %s directly (no intermediate images)", listed[0].ParentID, srcImg.ID)
	}
	if len(img.RootFS.Layers) != len(srcImg.RootFS.Layers) || img.RootFS.Layers[0] != srcImg.RootFS.Layers[0] {
		t.Errorf("adopted image layers %v differ from the source's %v", img.RootFS.Layers, srcImg.RootFS.Layers)
	}
	if list, _ := p.Templates().List(ctx, platform.TemplateFilter{Name: name}); len(list) != 1 || list[0].Image != src {
		t.Errorf("List = %+v, want the adopted template", list)
	}

	if err := p.Templates().Delete(ctx, tmpl.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := p.api.ImageInspect(ctx, src); err != nil {
		t.Errorf("deleting the template removed the adopted image: %v", err)
	}
	left, err := p.api.ImageList(ctx, image.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("label", platform.LabelName+"="+name))})
	if err != nil || len(left) != 0 {
		t.Errorf("after Delete, %d images labelled %s remain (%v)", len(left), name, err)
	}

	// An image the engine does not have, and no registry to pull it from.
	missing := templateTestName("nope") + ":v1"
	_, err = p.Templates().Create(ctx, platform.TemplateSpec{Name: templateTestName("tpl"), Image: missing})
	if err == nil || !strings.Contains(err.Error(), "is not on the Docker engine, and pulling it failed") || !strings.Contains(err.Error(), missing) {
		t.Errorf("adopting a missing image: %v", err)
	}
}

// Two templates built from the same Dockerfile share no layers. Were they
// to share intermediate images (the legacy builder's cache), deleting one
// template, which prunes its build's untagged parents, could remove a layer
// the other build is standing on at that moment ("unknown parent image
// ID"), and would at best leave the other template's history dangling.
func TestTemplatesShareNoIntermediateImages(t *testing.T) {
	t.Parallel()
	p := templateTestPlatform(t)
	ctx := t.Context()
	dir := templateTestContext(t, "shared")
	first := platform.TemplateSpec{Name: templateTestName("tpl-own"), Dockerfile: templateTestDockerfile, ContextDir: dir}
	second := first
	second.Name = templateTestName("tpl-own")
	a := templateTestCreate(t, p, first)
	b := templateTestCreate(t, p, second)

	layersOf := func(id string) map[string]bool {
		hist, err := p.api.ImageHistory(ctx, id)
		if err != nil {
			t.Fatalf("history of %s: %v", id, err)
		}
		out := map[string]bool{}
		for _, h := range hist {
			if h.ID != "<missing>" && h.ID != id {
				out[h.ID] = true
			}
		}
		return out
	}
	aLayers, bLayers := layersOf(a.BuildID), layersOf(b.BuildID)
	if len(aLayers) == 0 {
		t.Fatal("the build left no intermediate images to compare")
	}
	for id := range aLayers {
		if bLayers[id] {
			t.Fatalf("templates %s and %s share the intermediate image %s", first.Name, second.Name, id)
		}
	}

	if err := p.Templates().Delete(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	for id := range bLayers {
		if _, err := p.api.ImageInspect(ctx, id); err != nil {
			t.Fatalf("deleting %s removed %s, a layer of %s: %v", first.Name, id, second.Name, err)
		}
	}
}
