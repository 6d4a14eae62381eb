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
	"github.com/docker/docker/api/types/image"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/buildctx"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// The images a build committed are collected from its output: one per step
// that produced one, never the base image a FROM step names, but the
// results of the base's build triggers (ONBUILD), which the build made.
func TestBuildLogCollectsStepImages(t *testing.T) {
	stream := `{"stream":"Step 1/5 : FROM base:1"}
{"stream":"\n"}
{"stream":" ---\u003e 1111aaaa2222\n"}
{"stream":"# Executing 1 build trigger\n"}
{"stream":" ---\u003e Running in 9999ffff0000\n"}
{"stream":"Removing intermediate container 9999ffff0000\n"}
{"stream":" ---\u003e 3333bbbb4444\n"}
{"stream":"Step 2/5 : COPY a /a"}
{"stream":"\n"}
{"stream":" ---\u003e 5555cccc6666\n"}
{"stream":"Step 3/5 : from scratch AS second\n"}
{"stream":" ---\u003e \n"}
{"stream":"Step 4/5 : ENV X=1\n"}
{"stream":" ---\u003e Running in 7777dddd8888\n"}
{"stream":"Removing intermediate container 7777dddd8888\n"}
{"stream":" ---\u003e 8888eeee9999\n"}
{"stream":"Step 5/5 : RUN [\"/nonexistent\"]\n"}
{"stream":" ---\u003e Running in aaaa1111bbbb\n"}
{"errorDetail":{"message":"exec: \"/nonexistent\": no such file"},"error":"exec failed"}
`
	var log buildLog
	if err := log.read(strings.NewReader(stream), func(string) {}); err != nil {
		t.Fatal(err)
	}
	if log.err("web") == nil {
		t.Fatal("no error for a failed build")
	}
	want := []string{"3333bbbb4444", "5555cccc6666", "8888eeee9999"}
	if !reflect.DeepEqual(log.made, want) {
		t.Errorf("made = %q, want %q (never the base image 1111aaaa2222)", log.made, want)
	}
	for line, want := range map[string]string{
		"Step 1/2 : FROM x": "FROM", "Step 2/2 : copy a b": "COPY", "Step 3/3 :": "", "Step x": "",
	} {
		if got := stepInstruction(line); got != want {
			t.Errorf("stepInstruction(%q) = %q, want %q", line, got, want)
		}
	}
}

func TestForeignTemplateName(t *testing.T) {
	const id = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	for _, tc := range []struct {
		ref  string
		tags []string
		want string
	}{
		{"agent:1.2", nil, "agent"},
		{"agent", nil, "agent"},
		{"registry.example.com:5000/team/my-agent:1.2", nil, "my-agent"},
		{"team/agent@sha256:abcd", nil, "agent"},
		{"localhost:5000/agent", nil, "agent"},
		{"Bad_Name:1", nil, ""},
		{"a__b:1", nil, ""},
		{id, []string{"zeta:1", "alpha/beta:2"}, "beta"},
		{"0123456789ab", []string{"gamma:1"}, "gamma"},
		{id, nil, ""},
	} {
		if got := foreignTemplateName(tc.ref, id, tc.tags); got != tc.want {
			t.Errorf("foreignTemplateName(%q, %q) = %q, want %q", tc.ref, tc.tags, got, tc.want)
		}
	}
}

// An image the provider made as another kind of object is no template;
// an image without the provider's labels may be one.
func TestCheckTemplateKind(t *testing.T) {
	managed := func(kind string) map[string]string {
		return map[string]string{platform.LabelManaged: "true", platform.LabelKind: kind}
	}
	for _, ok := range []map[string]string{nil, {"maintainer": "x"}, managed(kindTemplate), {platform.LabelKind: kindSnapshot}} {
		if err := checkTemplateKind(ok); err != nil {
			t.Errorf("checkTemplateKind(%v) = %v, want nil", ok, err)
		}
	}
	for kind, want := range map[string]string{
		kindSnapshot:       "a snapshot of a sandbox made by this provider (label sbx.terraform.kind=snapshot), not a template; import it as sbx_snapshot instead",
		kindVolumeSnapshot: "a snapshot of a volume made by this provider (label sbx.terraform.kind=volume-snapshot), not a template; import it as sbx_snapshot instead",
		kindHelper:         "not a template; it cannot be imported",
	} {
		err := checkTemplateKind(managed(kind))
		if err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, platform.ErrConflict) {
			t.Errorf("checkTemplateKind(%s) = %v, want a conflict saying %q", kind, err, want)
		}
	}
}

// ownTestImage builds, outside the provider, an image of the agent with a
// file of its own (so it shares no image with any other test) tagged ref,
// and removes it when the test ends. It returns the image id.
func ownTestImage(t *testing.T, p *Platform, ref string) string {
	t.Helper()
	return buildTestImage(t, p, ref, acctest.AgentDockerfile+"COPY data.txt /data.txt\n", nil)
}

// buildTestImage builds dockerfile with the agent and a data.txt holding
// ref as its context, tagged ref and labelled labels, without the
// provider, and removes the image when the test ends. It returns its id.
func buildTestImage(t *testing.T, p *Platform, ref, dockerfile string, labels map[string]string) string {
	t.Helper()
	ctx := t.Context()
	dir := templateTestContext(t, ref) // data.txt holds the ref: a layer no other image has
	tarball, err := buildctx.Tar(dir, map[string][]byte{buildctx.DockerfileName: []byte(dockerfile)})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := p.api.ImageBuild(ctx, tarball, build.ImageBuildOptions{
		Tags: []string{ref}, Dockerfile: buildctx.DockerfileName, Version: build.BuilderV1,
		Remove: true, ForceRemove: true, Labels: labels,
		// No layer cache, as the provider's own builds: probing it reads
		// every base image of the engine, and one another test removes
		// at that moment fails the build ("unable to find image").
		NoCache: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	var log buildLog
	if err := log.read(resp.Body, func(string) {}); err != nil || log.err(ref) != nil {
		t.Fatalf("building %s: %v %v", ref, err, log.err(ref))
	}
	_ = resp.Body.Close() // read to its end above; closing only frees the connection
	img, err := p.api.ImageInspect(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = p.api.ImageRemove(context.Background(), ref, image.RemoveOptions{Force: true, PruneChildren: true})
		_, _ = p.api.ImageRemove(context.Background(), img.ID, image.RemoveOptions{Force: true, PruneChildren: true})
	})
	return img.ID
}

// A create finds its tag taken: it adopts the image only when this very
// create made it (its token); any other image there is a NotOwnedError and
// stays as it is.
func TestTemplateCreateRefusesATakenTag(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := templateTestPlatform(t)
	dir := templateTestContext(t, "one")

	// A user's image under the tag a template would have.
	name := templateTestName("taken")
	userImage := ownTestImage(t, p, TemplateID(name))
	_, err := p.Templates().Create(ctx, platform.TemplateSpec{Name: name, Dockerfile: templateTestDockerfile,
		ContextDir: dir, Marks: platform.NewMarks("me")})
	var notOwned *platform.NotOwnedError
	if !errors.As(err, &notOwned) || notOwned.Kind != "template" || notOwned.Name != name || notOwned.ID != TemplateID(name) ||
		!strings.Contains(notOwned.Detail, "not built by this provider") {
		t.Fatalf("create over a user's image: %#v, want a NotOwnedError with the import id", err)
	}
	if img, err := p.api.ImageInspect(ctx, TemplateID(name)); err != nil || img.ID != userImage {
		t.Errorf("the user's image under %s: %s, %v; want %s untouched", TemplateID(name), img.ID, err, userImage)
	}

	// Another create's template (another state, or a killed apply).
	name = templateTestName("other")
	first := platform.TemplateSpec{Name: name, Dockerfile: templateTestDockerfile, ContextDir: dir,
		Marks: platform.NewMarks("team-a")}
	made := templateTestCreate(t, p, first)
	second := first
	second.Marks = platform.NewMarks("team-b")
	_, err = p.Templates().Create(ctx, second)
	if !errors.As(err, &notOwned) || notOwned.ID != TemplateID(name) ||
		!strings.Contains(notOwned.Detail, "another Terraform state") || !strings.Contains(notOwned.Detail, `owner "team-a"`) {
		t.Fatalf("create over another create's template: %#v", err)
	}
	if got, err := p.Templates().Get(ctx, made.ID); err != nil || got.BuildID != made.BuildID {
		t.Errorf("the first create's template after the refused create: %+v, %v", got, err)
	}
	// The create that made it, asked again (a retried request), adopts it.
	again, err := p.Templates().Create(ctx, first)
	if err != nil || again.BuildID != made.BuildID {
		t.Errorf("the same create again: %+v, %v; want build %s adopted", again, err, made.BuildID)
	}
}

// A rebuild removes the build its tag leaves only when the provider made it
// for this template; a user's image found under the tag stays.
func TestTemplateRebuildKeepsAnImageItDidNotBuild(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := templateTestPlatform(t)
	name := templateTestName("tpl")
	dir := templateTestContext(t, "one")
	spec := platform.TemplateSpec{Name: name, Dockerfile: templateTestDockerfile, ContextDir: dir}
	made := templateTestCreate(t, p, spec)

	// The user builds their own image under the template's tag.
	userImage := ownTestImage(t, p, TemplateID(name))
	t.Cleanup(func() {
		_, _ = p.api.ImageRemove(context.Background(), made.BuildID, image.RemoveOptions{Force: true, PruneChildren: true})
	})
	rebuilt, err := p.Templates().Rebuild(ctx, made.ID, spec)
	if err != nil {
		t.Fatal(err)
	}
	if rebuilt.BuildID == userImage {
		t.Fatal("the rebuild did not move the tag")
	}
	if _, err := p.api.ImageInspect(ctx, userImage); err != nil {
		t.Errorf("the rebuild removed the user's image %s that held the tag: %v", userImage, err)
	}
	// The next rebuild removes the provider's own previous build as before.
	if err := os.WriteFile(filepath.Join(dir, "data.txt"), []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := p.Templates().Rebuild(ctx, made.ID, spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.api.ImageInspect(ctx, rebuilt.BuildID); err == nil || again.BuildID == rebuilt.BuildID {
		t.Errorf("the provider's previous build %s was kept (%v)", rebuilt.BuildID, err)
	}
}

// Get and Delete of images that are not templates the provider built.
func TestTemplateForeignImages(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := templateTestPlatform(t)

	// A user's image read by its own reference is that image as it is.
	base := templateTestName("user")
	ref := base + ":1"
	userImage := ownTestImage(t, p, ref)
	got, err := p.Templates().Get(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != ref || got.Image != ref || got.Name != base || got.BuildID != userImage {
		t.Errorf("Get(%s) = %+v", ref, got)
	}
	if byID, err := p.Templates().Get(ctx, userImage); err != nil || byID.Name != base || byID.Image != userImage {
		t.Errorf("Get(its id) = %+v, %v; want the name of its tag", byID, err)
	}
	// Its delete leaves it, saying why.
	var notOwned *platform.NotOwnedError
	if err := p.Templates().Delete(ctx, ref); !errors.As(err, &notOwned) || notOwned.ID != ref ||
		!strings.Contains(notOwned.Detail, "not built by this provider") {
		t.Errorf("Delete(%s) = %v, want a NotOwnedError", ref, err)
	}
	if _, err := p.api.ImageInspect(ctx, ref); err != nil {
		t.Errorf("Delete removed the user's image: %v", err)
	}
	// So does the delete of a user's image under a template's tag.
	name := templateTestName("tag")
	ownTestImage(t, p, TemplateID(name))
	if err := p.Templates().Delete(ctx, TemplateID(name)); !errors.As(err, &notOwned) {
		t.Errorf("Delete(%s) of a user's image = %v, want a NotOwnedError", TemplateID(name), err)
	}
	if _, err := p.api.ImageInspect(ctx, TemplateID(name)); err != nil {
		t.Errorf("Delete removed the user's image under %s: %v", TemplateID(name), err)
	}

	// An image the provider made as a snapshot is not a template.
	snapRef := templateTestName("snap") + ":1"
	buildTestImage(t, p, snapRef, acctest.AgentDockerfile+"COPY data.txt /d\n",
		map[string]string{platform.LabelManaged: "true", platform.LabelKind: kindSnapshot})
	if _, err := p.Templates().Get(ctx, snapRef); err == nil || !strings.Contains(err.Error(), "import it as sbx_snapshot") {
		t.Errorf("Get of a snapshot image = %v, want an error naming sbx_snapshot", err)
	}
}

// A failed build removes the images it committed, newest first, and never
// its base image, even an untagged one.
func TestTemplateFailedBuildCleansUp(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := templateTestPlatform(t)
	baseRef := templateTestName("base") + ":1"
	baseID := ownTestImage(t, p, baseRef)
	name := templateTestName("tpl")
	templateTestCleanup(t, p.api, name)
	dir := templateTestContext(t, "one")

	var keep []string // the base's children that are not the failed builds'
	for i, from := range []string{baseRef, baseID} {
		if i == 1 {
			// The base loses its tag and stays on the engine, untagged,
			// as the parent of another image (like a user's base, or an
			// old build of another template).
			childRef := templateTestName("child") + ":1"
			keep = append(keep, buildTestImage(t, p, childRef, "FROM "+baseRef+"\nCOPY data.txt /child\n", nil))
			if _, err := p.api.ImageRemove(ctx, baseRef, image.RemoveOptions{}); err != nil {
				t.Fatal(err)
			}
			if img, err := p.api.ImageInspect(ctx, baseID); err != nil || len(img.RepoTags) != 0 {
				t.Fatalf("the base image is not kept untagged: %v %v", img.RepoTags, err)
			}
		}
		_, err := p.Templates().Create(ctx, platform.TemplateSpec{Name: name, ContextDir: dir,
			Dockerfile: "FROM " + from + "\nCOPY data.txt /one\nCOPY data.txt /two\nRUN [\"/nonexistent\"]\n"})
		if err == nil || !strings.Contains(err.Error(), "failed at Step 4/") {
			t.Fatalf("build FROM %s: %v, want a failure at step 4", from, err)
		}
		if kids := templateTestChildren(t, p, baseID); !reflect.DeepEqual(kids, keep) {
			t.Errorf("after the failed build FROM %s the base's children are %v, want %v", from, kids, keep)
		}
		if _, err := p.api.ImageInspect(ctx, baseID); err != nil {
			t.Fatalf("the failed build removed its base image: %v", err)
		}
	}
}

// templateTestChildren lists the images whose parent is id.
func templateTestChildren(t *testing.T, p *Platform, id string) []string {
	t.Helper()
	list, err := p.api.ImageList(t.Context(), image.ListOptions{All: true})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, img := range list {
		if img.ParentID == id {
			out = append(out, img.ID)
		}
	}
	return out
}
