package orphans

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/docker/docker/api/types/build"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/docker"
)

// randomSuffix is a suffix no other test run uses.
func randomSuffix(t testing.TB) string {
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

func needDocker(t *testing.T) (*docker.Platform, *client.Client) {
	t.Helper()
	api := acctest.RequireDocker(t)
	p, err := docker.New(context.Background(), docker.Config{Host: os.Getenv("DOCKER_HOST")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p, api
}

// dockerObjects removes what a test made when it ends, whatever is left.
type dockerObjects struct {
	t                              *testing.T
	api                            *client.Client
	containers, images, volumeList []string
}

func (d *dockerObjects) cleanup() {
	ctx := context.Background()
	for _, id := range d.containers {
		_ = d.api.ContainerRemove(ctx, id, container.RemoveOptions{Force: true})
	}
	for _, id := range slices.Backward(d.images) {
		_, _ = d.api.ImageRemove(ctx, id, image.RemoveOptions{Force: true, PruneChildren: true})
	}
	for _, v := range d.volumeList {
		_ = d.api.VolumeRemove(ctx, v, true)
	}
}

func (d *dockerObjects) template(p *docker.Platform, name, owner, data string) *platform.Template {
	d.t.Helper()
	tpl, err := p.Templates().Create(context.Background(), dockerTemplateSpec(d.t, name, owner, data))
	if err != nil {
		d.t.Fatalf("template %s: %v", name, err)
	}
	d.images = append(d.images, tpl.ID, tpl.BuildID)
	return tpl
}

func dockerTemplateSpec(t *testing.T, name, owner, data string) platform.TemplateSpec {
	dir := t.TempDir()
	src := acctest.AgentContextDir(t)
	agent, err := os.ReadFile(src + "/agent")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/agent", agent, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/data.txt", []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return platform.TemplateSpec{
		Name: name, Dockerfile: acctest.AgentDockerfile + "COPY data.txt /data.txt\n", ContextDir: dir,
		StartCmd: `["/agent"]`, Marks: platform.NewMarks(owner),
	}
}

func (d *dockerObjects) sandbox(p *docker.Platform, tpl, owner string, mounts ...platform.VolumeMount) string {
	d.t.Helper()
	sb, err := p.Sandboxes().Create(context.Background(), platform.SandboxSpec{
		TemplateID: tpl, State: platform.StateRunning, Marks: platform.NewMarks(owner), VolumeMounts: mounts,
	})
	if sb != nil {
		d.containers = append(d.containers, sb.ID)
	}
	if err != nil {
		d.t.Fatalf("sandbox of %s: %v", tpl, err)
	}
	return sb.ID
}

func (d *dockerObjects) volume(p *docker.Platform, name, owner string) string {
	d.t.Helper()
	d.volumeList = append(d.volumeList, name)
	v, err := p.Volumes().Create(context.Background(), platform.VolumeSpec{Name: name, Marks: platform.NewMarks(owner)})
	if err != nil {
		d.t.Fatalf("volume %s: %v", name, err)
	}
	return v.ID
}

func (d *dockerObjects) snapshot(p *docker.Platform, spec platform.SnapshotSpec, owner string) string {
	d.t.Helper()
	spec.Marks = platform.NewMarks(owner)
	s, err := p.Snapshots().Create(context.Background(), spec)
	if err != nil {
		d.t.Fatalf("snapshot: %v", err)
	}
	d.images = append(d.images, s.ID)
	return s.ID
}

// derivedImage builds an image FROM ref the way a user would (a step of
// its own, so it is a new image inheriting ref's labels), tagged tag or
// untagged when tag is "".
func (d *dockerObjects) derivedImage(ref, tag string) string {
	d.t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	df := []byte("FROM " + ref + "\nENV DERIVED=" + randomSuffix(d.t) + "\n")
	_ = tw.WriteHeader(&tar.Header{Name: "Dockerfile", Mode: 0o644, Size: int64(len(df)), Typeflag: tar.TypeReg})
	_, _ = tw.Write(df)
	_ = tw.Close()
	// No layer cache: probing it reads every base image of the engine, and
	// one another test removes at that moment fails the build.
	opts := build.ImageBuildOptions{Remove: true, ForceRemove: true, Version: build.BuilderV1, NoCache: true}
	if tag != "" {
		opts.Tags = []string{tag}
	}
	resp, err := d.api.ImageBuild(context.Background(), &buf, opts)
	if err != nil {
		d.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var id string
	dec := json.NewDecoder(resp.Body)
	for {
		var m struct {
			Error string          `json:"error"`
			Aux   json.RawMessage `json:"aux"`
		}
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			d.t.Fatal(err)
		}
		if m.Error != "" {
			d.t.Fatalf("building FROM %s: %s", ref, m.Error)
		}
		var aux struct{ ID string }
		if len(m.Aux) > 0 && json.Unmarshal(m.Aux, &aux) == nil && aux.ID != "" {
			id = aux.ID
		}
	}
	if id == "" {
		d.t.Fatalf("building FROM %s: no image id in the build output", ref)
	}
	d.images = append(d.images, id)
	return id
}

// TestOrphansDocker makes objects through the Docker platform with the
// marks of owner a and owner b, writes a state holding some of a's, and
// runs the command: with --owner a it lists exactly a's objects the state
// does not hold (a sandbox mounting a volume, both kinds of snapshot, an
// unused template, the older build of a template that only the orphan
// sandbox runs), keeps a's template that b's sandbox runs, and ignores
// images users built FROM a template (tagged or not); --delete removes the
// orphans in dependency order and leaves everything else.
func TestOrphansDocker(t *testing.T) {
	t.Parallel() // its objects carry owners of its own: the engine and other runs may hold others
	p, api := needDocker(t)
	ctx := context.Background()
	d := &dockerObjects{t: t, api: api}
	t.Cleanup(d.cleanup)
	sfx := randomSuffix(t)
	ownerA, ownerB := "orphans-a-"+sfx, "orphans-b-"+sfx
	name := func(n string) string { return "tf-acc-orphans-" + sfx + "-" + n }

	// Owner a: held by the state.
	heldTpl := d.template(p, name("held"), ownerA, "v1")
	heldVol := d.volume(p, name("held"), ownerA)
	// An orphan sandbox on the template's first build, mounting an orphan
	// volume; the template is then rebuilt, so the first build is untagged
	// and used only by the orphan box.
	orphanVol := d.volume(p, name("orphan"), ownerA)
	orphanBox := d.sandbox(p, heldTpl.ID, ownerA, platform.VolumeMount{VolumeID: orphanVol, Path: "/data"})
	oldBuild := heldTpl.BuildID
	rebuilt, err := p.Templates().Rebuild(ctx, heldTpl.ID, dockerTemplateSpec(t, name("held"), ownerA, "v2"))
	if err != nil {
		t.Fatalf("rebuild: %v", err)
	}
	d.images = append(d.images, rebuilt.BuildID)
	if rebuilt.BuildID == oldBuild {
		t.Fatal("the rebuild made no new image")
	}
	heldBox := d.sandbox(p, heldTpl.ID, ownerA)
	boxSnap := d.snapshot(p, platform.SnapshotSpec{SandboxID: orphanBox, Name: name("snap")}, ownerA)
	volSnap := d.snapshot(p, platform.SnapshotSpec{VolumeID: heldVol, Name: name("volsnap")}, ownerA)
	unusedTpl := d.template(p, name("unused"), ownerA, "u")
	// a's template that owner b's sandbox runs: no state of a holds it,
	// but it is in use by what stays.
	sharedTpl := d.template(p, name("shared"), ownerA, "s")
	// Owner b.
	boxB := d.sandbox(p, sharedTpl.ID, ownerB)
	volB := d.volume(p, name("b"), ownerB)
	// Images users built FROM a's templates inherit its labels: not the provider's.
	d.derivedImage(heldTpl.ID, "tf-acc-orphans-"+sfx+"/derived:latest")
	untaggedDerived := d.derivedImage(unusedTpl.ID, "")

	dir := t.TempDir()
	state := writeFile(t, dir, "terraform.tfstate", `{"version":4,"resources":[
	  {"mode":"managed","type":"sbx_template","name":"t","instances":[{"attributes":{"id":"`+heldTpl.ID+`"}}]},
	  {"mode":"managed","type":"sbx_volume","name":"v","instances":[{"attributes":{"id":"`+heldVol+`"}}]},
	  {"mode":"managed","type":"sbx_sandbox","name":"s","instances":[{"attributes":{"id":"`+heldBox+`","platform":"docker"}}]}]}`)
	env := map[string]string{"DOCKER_HOST": os.Getenv("DOCKER_HOST")}

	// The untagged derived image is a leaf that shares unusedTpl's token;
	// it keeps unusedTpl in use, so it goes first (users delete theirs).
	r := run(t, env, "", "--owner", ownerA, "--format", "json", state)
	rep := jsonReportOf(t, r)
	kept := map[string]string{}
	for _, k := range rep.Kept {
		kept[k.ID] = k.Reason
	}
	if !strings.Contains(kept[unusedTpl.ID], "in use by "+untaggedDerived[7:19]) {
		t.Errorf("%s kept = %q, want in use by the image built on it (%s)\n%s", unusedTpl.ID, kept[unusedTpl.ID], untaggedDerived, r.stdout)
	}
	if _, err := api.ImageRemove(ctx, untaggedDerived, image.RemoveOptions{}); err != nil {
		t.Fatal(err)
	}

	r = run(t, env, "", "--owner", ownerA, "--format", "json", state)
	if r.code != ExitOrphans {
		t.Fatalf("exit %d, want 2\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	rep = jsonReportOf(t, r)
	type ko struct{ kind, id string }
	var got []ko
	for _, o := range rep.Orphans {
		got = append(got, ko{o.Kind, o.ID})
		if o.Owner != ownerA || o.CreateToken == "" {
			t.Errorf("orphan %s %s: owner %q token %q", o.Kind, o.ID, o.Owner, o.CreateToken)
		}
	}
	// Removal order: sandboxes, snapshots, volumes, templates, the newest
	// first within a kind. The two snapshots may share a second, the
	// engine's resolution, so their order is not checked.
	want := []ko{{"sandbox", orphanBox}, {"snapshot", volSnap}, {"snapshot", boxSnap}, {"volume", orphanVol},
		{"template", unusedTpl.ID}, {"template", oldBuild}}
	if len(got) == len(want) && got[1] == want[2] && got[2] == want[1] {
		got[1], got[2] = got[2], got[1]
	}
	if !slices.Equal(got, want) {
		t.Errorf("orphans\n got %v\nwant %v\n%s", got, want, r.stdout)
	}
	if len(rep.Kept) != 1 || rep.Kept[0].ID != sharedTpl.ID || !strings.Contains(rep.Kept[0].Reason, "in use by "+boxB[:12]) {
		t.Errorf("kept = %+v, want only %s, in use by %s", rep.Kept, sharedTpl.ID, boxB)
	}
	for _, o := range rep.Orphans {
		if o.ID == oldBuild && !strings.Contains(o.Detail, "older build of "+heldTpl.ID) {
			t.Errorf("old build detail = %q", o.Detail)
		}
	}
	if s := rep.Summary; s.Held != 3 || s.Orphans != 6 || s.Kept != 1 || s.OtherOwners < 2 {
		t.Errorf("summary = %+v, want 3 held, 6 orphans, 1 kept, b's 2 objects among the other owners", s)
	}

	// The table: one row per orphan, nothing of b's.
	r = run(t, env, "", "--owner", ownerA, state)
	for _, id := range []string{orphanBox[:12], volSnap[7:19], boxSnap[7:19], orphanVol, unusedTpl.ID, oldBuild[7:19], "6 orphans of 10 objects checked on docker"} {
		if !strings.Contains(r.stdout, id) {
			t.Errorf("table lacks %s:\n%s", id, r.stdout)
		}
	}
	for _, line := range strings.Split(r.stdout, "\n") {
		for _, id := range []string{boxB[:12], volB, heldBox[:12]} {
			// b's box shows only as the reason a's shared template is kept.
			if strings.Contains(line, id) && !strings.Contains(line, "in use by "+id) {
				t.Errorf("table lists %s: %s", id, line)
			}
		}
	}

	// An object is removed only while it carries the marks it was listed
	// with: a template rebuilt since (a new token under the tag) stays.
	stale := platform.ManagedObject{Kind: platform.KindTemplate, ID: unusedTpl.ID, Owner: ownerA, CreateToken: "an-earlier-build"}
	if err := p.RemoveManaged(ctx, stale); !errors.Is(err, platform.ErrConflict) {
		t.Errorf("removing %s listed with another token: %v, want a conflict", unusedTpl.ID, err)
	}
	if _, err := api.ImageInspect(ctx, unusedTpl.ID); err != nil {
		t.Fatalf("%s was removed under a token it does not carry: %v", unusedTpl.ID, err)
	}

	// --delete removes the orphans, sandboxes first, and nothing else.
	r = run(t, env, "", "--owner", ownerA, "--delete", "--all-states", "--format", "json", state)
	rep = jsonReportOf(t, r)
	if r.code != ExitOrphans || rep.Summary.Failed != 0 || rep.Summary.Removed+rep.Summary.AlreadyGone != 6 {
		t.Fatalf("--delete: exit %d, summary %+v\n%s\n%s", r.code, rep.Summary, r.stdout, r.stderr)
	}
	for _, o := range rep.Orphans {
		if o.Result != "removed" && o.Result != "already gone" {
			t.Errorf("%s %s: %s %s", o.Kind, o.ID, o.Result, o.Error)
		}
	}
	if _, err := api.ContainerInspect(ctx, orphanBox); err == nil {
		t.Errorf("sandbox %s is left", orphanBox)
	}
	for _, id := range []string{volSnap, boxSnap, unusedTpl.ID, oldBuild} {
		if _, err := api.ImageInspect(ctx, id); err == nil {
			t.Errorf("image %s is left", id)
		}
	}
	if _, err := api.VolumeInspect(ctx, orphanVol); err == nil {
		t.Errorf("volume %s is left", orphanVol)
	}
	for _, id := range []string{heldBox, boxB} {
		if _, err := api.ContainerInspect(ctx, id); err != nil {
			t.Errorf("sandbox %s was removed: %v", id, err)
		}
	}
	for _, id := range []string{heldTpl.ID, sharedTpl.ID} {
		if _, err := api.ImageInspect(ctx, id); err != nil {
			t.Errorf("template %s was removed: %v", id, err)
		}
	}
	for _, v := range []string{heldVol, volB} {
		if _, err := api.VolumeInspect(ctx, v); err != nil {
			t.Errorf("volume %s was removed: %v", v, err)
		}
	}

	// Nothing is left to find; b's objects are still b's business.
	if r := run(t, env, "", "--owner", ownerA, state); r.code != ExitClean || !strings.Contains(r.stdout, "0 orphans of 4 objects") {
		t.Errorf("after --delete: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = run(t, env, "", "--owner", ownerB, "--format", "json", state)
	rep = jsonReportOf(t, r)
	var gotB []string
	for _, o := range rep.Orphans {
		gotB = append(gotB, o.ID)
	}
	if r.code != ExitOrphans || !slices.Equal(gotB, []string{boxB, volB}) {
		t.Errorf("--owner b: exit %d, orphans %v, want [%s %s]", r.code, gotB, boxB, volB)
	}
}
