package docker

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// A sandbox's env is sensitive. docker commit records the container's
// config, env values included, as the image's ContainerConfig; the
// snapshot image must hold no value anywhere docker image inspect or
// docker history shows, no image left on the engine may hold one, and the
// snapshot must still share its box's image layers and restore.
func TestSnapshotImageKeepsNoSecrets(t *testing.T) {
	api := acctest.DockerClient(t)
	ctx := context.Background()
	img := snapshotTestAgentImage(t, api)
	secret := "sbx-secret-" + randomHex(8)
	interval := "1h-" + randomHex(4)
	ctr := snapshotTestContainer(t, api, img, managedLabels(kindSandbox, "secrets-"+randomHex(3), platform.Marks{}, nil),
		[]string{"API_TOKEN=" + secret, "AGENT_FILES=/work/s.txt=kept", "AGENT_INTERVAL=" + interval}, true)
	snapshotTestWaitFile(t, api, ctr, "/work/s.txt", "kept")

	snap, err := (&snapshots{api: api}).Create(ctx, platform.SnapshotSpec{SandboxID: ctr, Name: "secrets"})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	snapshotTestCleanupImage(t, api, snap.ID)

	for _, value := range []string{secret, interval} {
		snapshotTestNoImageHolds(t, api, value)
	}
	raw, err := api.ImageInspect(ctx, snap.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Parent and Container are deprecated in newer engines, but API 1.41
	// reports them, and they are exactly what must be empty here.
	if parent, ctr := raw.Parent, raw.Container; parent != "" || ctr != "" { //nolint:staticcheck // see above
		t.Errorf("snapshot image has parent %q, container %q; want neither", parent, ctr)
	}
	if !slices.Contains(raw.Config.Env, "API_TOKEN=") {
		t.Errorf("snapshot env = %q, want the key kept blank", raw.Config.Env)
	}
	base, err := api.ImageInspect(ctx, img)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw.RootFS.Layers) != len(base.RootFS.Layers)+1 || !slices.Equal(raw.RootFS.Layers[:len(base.RootFS.Layers)], base.RootFS.Layers) {
		t.Errorf("snapshot layers %v do not extend the box's image layers %v", raw.RootFS.Layers, base.RootFS.Layers)
	}
	// No intermediate commit of this box is left.
	left, err := api.ImageList(ctx, image.ListOptions{All: true, Filters: filters.NewArgs(
		filters.Arg("label", platform.LabelKind+"="+kindSnapshotCommit), filters.Arg("label", labelSandboxID+"="+ctr))})
	if err != nil {
		t.Fatal(err)
	}
	if len(left) > 0 {
		t.Errorf("intermediate commits left on the engine: %v", left)
	}
	// The history reads as the box's image's, plus the snapshot's entry.
	hist, err := api.ImageHistory(ctx, snap.ID)
	if err != nil {
		t.Fatal(err)
	}
	baseHist, err := api.ImageHistory(ctx, img)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != len(baseHist)+1 || !strings.HasPrefix(hist[0].Comment, "sbx snapshot of sandbox "+ctr) {
		t.Fatalf("snapshot history = %+v, want the box image's %+v and the snapshot's entry", hist, baseHist)
	}
	for i, h := range baseHist {
		if got := hist[i+1]; got.CreatedBy != h.CreatedBy || got.Size != h.Size || got.Created != h.Created {
			t.Errorf("history entry %d = %+v, want %+v", i+1, got, h)
		}
	}
	// A box from the snapshot runs and holds what the source wrote.
	restored := snapshotTestContainer(t, api, snap.ID, nil, []string{"AGENT_FILES=/work/r.txt=again", "AGENT_INTERVAL=1h"}, true)
	snapshotTestWaitFile(t, api, restored, "/work/r.txt", "again")
	if got, ok := snapshotTestReadFile(t, api, restored, "/work/s.txt"); !ok || got != "kept" {
		t.Errorf("/work/s.txt in a box from the snapshot = %q (exists %v)", got, ok)
	}
}

// snapshotTestNoImageHolds fails when value appears in the inspect JSON or
// the history of any image on the engine.
func snapshotTestNoImageHolds(t *testing.T, api *client.Client, value string) {
	t.Helper()
	ctx := context.Background()
	list, err := api.ImageList(ctx, image.ListOptions{All: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, summary := range list {
		var raw bytes.Buffer
		if _, err := api.ImageInspect(ctx, summary.ID, client.ImageInspectWithRawResponse(&raw)); err != nil {
			continue // removed meanwhile by another test
		}
		if strings.Contains(raw.String(), value) {
			t.Errorf("image %s %v holds %q in docker image inspect:\n%s", summary.ID, summary.RepoTags, value, raw.String())
		}
		hist, err := api.ImageHistory(ctx, summary.ID)
		if err != nil {
			continue
		}
		b, _ := json.Marshal(hist)
		if strings.Contains(string(b), value) {
			t.Errorf("image %s holds %q in docker history: %s", summary.ID, value, b)
		}
	}
}

// A docker commit inherits every label of the box. A snapshot image must
// carry none of the box's reserved labels but those a restore reads: its
// kind, name, owner and create token are the snapshot's own, so it is
// never taken for a sandbox or template, nor for the create that made the
// box; and it is never listed as a template.
func TestSnapshotLabelsOwnNothingOfTheBox(t *testing.T) {
	api := acctest.DockerClient(t)
	ctx := context.Background()
	img := snapshotTestAgentImage(t, api)
	box := managedLabels(kindSandbox, "box-"+randomHex(3), platform.Marks{Owner: "team-a", CreateToken: "box-token"}, map[string]string{"team": "a"})
	box[labelTemplateID] = TemplateID("labels")
	box[labelUserLabelKeys] = `["team"]`
	box[labelStartCmd] = `["/agent"]`
	box[labelCPUCount] = "2"
	ctr := snapshotTestContainer(t, api, img, box, nil, false)

	marks := platform.Marks{Owner: "team-b", CreateToken: "snap-" + randomHex(4)}
	snap, err := (&snapshots{api: api}).Create(ctx, platform.SnapshotSpec{SandboxID: ctr, Marks: marks})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	snapshotTestCleanupImage(t, api, snap.ID)
	raw, err := api.ImageInspect(ctx, snap.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := raw.Config.Labels
	for k, want := range map[string]string{
		platform.LabelManaged: "true", platform.LabelKind: kindSnapshot, platform.LabelName: "",
		platform.LabelOwner: "team-b", platform.LabelCreateToken: marks.CreateToken,
		labelSandboxID: ctr, labelStartCmd: `["/agent"]`, labelCPUCount: "2", "team": "a",
	} {
		if v, ok := got[k]; !ok || v != want {
			t.Errorf("label %s = %q (set %v), want %q", k, v, ok, want)
		}
	}
	for _, k := range []string{labelTemplateID, labelUserLabelKeys} {
		if v, ok := got[k]; ok {
			t.Errorf("label %s = %q inherited from the box", k, v)
		}
	}
	if marks.MadeBy(box) || (platform.Marks{CreateToken: "box-token"}).MadeBy(got) {
		t.Errorf("the snapshot image carries the box's create token")
	}
	tpls, err := (&templates{api: api}).List(ctx, platform.TemplateFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tpl := range tpls {
		if tpl.BuildID == snap.ID {
			t.Errorf("the snapshot image is listed as template %+v", tpl)
		}
	}
}

// Get of an id that is not a snapshot is not found, saying what it is, so
// an import of the wrong id says so.
func TestSnapshotGetSaysWhatAnIDIs(t *testing.T) {
	api := acctest.DockerClient(t)
	ctx := context.Background()
	s := &snapshots{api: api}
	img := snapshotTestAgentImage(t, api)
	ctr := snapshotTestContainer(t, api, img, managedLabels(kindSandbox, "what-"+randomHex(3), platform.Marks{}, nil), nil, false)
	helper, err := ensureHelperImage(ctx, api, helperImageRef)
	if err != nil {
		t.Fatal(err)
	}
	vol := helperTestName("what")
	helperTestCleanupVolume(t, api, vol)
	if _, err := (&volumes{api: api}).Create(ctx, platform.VolumeSpec{Name: vol}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ id, want string }{
		{img, "which the provider did not make"},
		{helper, "helper image"},
		{ctr, "sandbox " + ctr},
		{vol, "volume " + vol},
		{"sbx-no-such-" + randomHex(4), "not found"},
	} {
		_, err := s.Get(ctx, tc.id)
		if !platform.IsNotFound(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Get(%s) = %v, want not found saying %q", tc.id, err, tc.want)
		}
	}
}
