package docker

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// A sandbox snapshot holds the box's files; a box made from it (which
// records labelFromSnapshotID) snapshots with that parent; Delete refuses
// while boxes or later snapshots use the image, and is idempotent.
func TestSnapshotOfSandboxLineage(t *testing.T) {
	api := acctest.DockerClient(t)
	s := &snapshots{api: api}
	vols := &volumes{api: api}
	ctx := context.Background()
	img := snapshotTestAgentImage(t, api)
	run := randomHex(4)

	srcLabels := managedLabels(kindSandbox, "box-a-"+run, platform.Marks{}, map[string]string{"team": "sandbox-label"})
	srcLabels[labelTemplateID] = img
	a := snapshotTestContainer(t, api, img, srcLabels, []string{"AGENT_FILES=/work/a.txt=alpha", "AGENT_INTERVAL=1h"}, true)
	snapshotTestWaitFile(t, api, a, "/work/a.txt", "alpha")

	s1, err := s.Create(ctx, platform.SnapshotSpec{SandboxID: a, Name: "first-" + run, Labels: map[string]string{"run": run, "step": "1"}})
	if err != nil {
		t.Fatalf("snapshot of a running sandbox: %v", err)
	}
	snapshotTestCleanupImage(t, api, s1.ID)
	if !strings.HasPrefix(s1.ID, "sha256:") || s1.Kind != platform.SnapshotFilesystem || s1.SandboxID != a || s1.VolumeID != "" ||
		s1.ParentSnapshotID != "" || s1.Name != "first-"+run || s1.SizeBytes <= 0 || s1.CreatedAt.IsZero() || !s1.ExpiresAt.IsZero() {
		t.Fatalf("snapshot = %+v", s1)
	}
	if !maps.Equal(s1.Labels, map[string]string{"run": run, "step": "1"}) {
		t.Fatalf("snapshot labels = %v; the sandbox's own labels must not leak", s1.Labels)
	}
	raw, _ := api.ImageInspect(ctx, s1.ID)
	for k, want := range map[string]string{platform.LabelManaged: "true", platform.LabelKind: kindSnapshot, platform.LabelName: "first-" + run, labelSandboxID: a} {
		if raw.Config.Labels[k] != want {
			t.Errorf("image label %s = %q, want %q", k, raw.Config.Labels[k], want)
		}
	}
	if len(raw.RepoTags) != 1 || !strings.HasPrefix(raw.RepoTags[0], snapshotRepo+":") {
		t.Errorf("snapshot tags = %v", raw.RepoTags)
	}
	if st, _ := api.ContainerInspect(ctx, a); !st.State.Running || st.State.Paused {
		t.Errorf("source sandbox after snapshot: %+v, want still running", st.State)
	}

	// B: a box restored from S1 writes another file and is paused; S2 of it.
	bLabels := managedLabels(kindSandbox, "box-b-"+run, platform.Marks{}, nil)
	bLabels[labelFromSnapshotID] = s1.ID
	b := snapshotTestContainer(t, api, s1.ID, bLabels, []string{"AGENT_FILES=/work/b.txt=beta", "AGENT_INTERVAL=1h"}, true)
	snapshotTestWaitFile(t, api, b, "/work/b.txt", "beta")
	if err := api.ContainerPause(ctx, b); err != nil {
		t.Fatal(err)
	}
	s2, err := s.Create(ctx, platform.SnapshotSpec{SandboxID: b, Name: "second-" + run, Labels: map[string]string{"run": run, "step": "2"}})
	if err != nil {
		t.Fatalf("snapshot of a paused sandbox: %v", err)
	}
	snapshotTestCleanupImage(t, api, s2.ID)
	if s2.ParentSnapshotID != s1.ID || s2.SandboxID != b || s2.Name != "second-"+run {
		t.Fatalf("second snapshot = %+v, want parent %s", s2, s1.ID)
	}
	if st, _ := api.ContainerInspect(ctx, b); !st.State.Paused {
		t.Errorf("paused sandbox was not left paused: %+v", st.State)
	}

	// C: a new box from S2 (never started) holds both files.
	c := snapshotTestContainer(t, api, s2.ID, managedLabels(kindSandbox, "box-c-"+run, platform.Marks{}, nil), nil, false)
	for path, want := range map[string]string{"/work/a.txt": "alpha", "/work/b.txt": "beta"} {
		if got, ok := snapshotTestReadFile(t, api, c, path); !ok || got != want {
			t.Errorf("%s in a box from the snapshot = %q (exists %v), want %q", path, got, ok, want)
		}
	}

	// List: filters and newest-first order.
	for _, tc := range []struct {
		name   string
		filter platform.SnapshotFilter
		want   []string
	}{
		{"by run label", platform.SnapshotFilter{Labels: map[string]string{"run": run}}, []string{s2.ID, s1.ID}},
		{"by name", platform.SnapshotFilter{Name: "first-" + run}, []string{s1.ID}},
		{"by sandbox", platform.SnapshotFilter{SandboxID: b}, []string{s2.ID}},
		{"by two labels", platform.SnapshotFilter{Labels: map[string]string{"run": run, "step": "1"}}, []string{s1.ID}},
		{"sandbox labels are not snapshot labels", platform.SnapshotFilter{Labels: map[string]string{"team": "sandbox-label"}, SandboxID: a}, nil},
		{"by volume", platform.SnapshotFilter{VolumeID: "nope", Labels: map[string]string{"run": run}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.List(ctx, tc.filter)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, g := range got {
				ids = append(ids, g.ID)
			}
			if strings.Join(ids, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("List(%+v) = %v, want %v", tc.filter, ids, tc.want)
			}
		})
	}

	// A sandbox snapshot is not a volume snapshot.
	vol := helperTestName("vol-from-sandbox-snap")
	helperTestCleanupVolume(t, api, vol)
	_, err = vols.Create(ctx, platform.VolumeSpec{Name: vol, FromSnapshotID: s1.ID})
	if !errors.Is(err, platform.ErrConflict) || !strings.Contains(err.Error(), "is a sandbox snapshot; restore it with sbx_sandbox.from_snapshot_id") {
		t.Fatalf("volume from a sandbox snapshot = %v", err)
	}
	if _, err := vols.Get(ctx, vol); !platform.IsNotFound(err) {
		t.Fatalf("a volume was left behind: %v", err)
	}

	// Delete in use: S1 is used by box B. S2 shares S1's layers but has
	// no parent link, so it does not keep S1.
	err = s.Delete(ctx, s1.ID)
	if !errors.Is(err, platform.ErrConflict) || !strings.Contains(err.Error(), b) || strings.Contains(err.Error(), s2.ID) {
		t.Fatalf("Delete of a snapshot in use = %v; want a conflict naming box %s (and not snapshot %s)", err, b, s2.ID)
	}
	if _, err := s.Get(ctx, s1.ID); err != nil {
		t.Fatalf("a refused Delete removed the snapshot: %v", err)
	}
	for _, id := range []string{c, b} {
		if err := api.ContainerRemove(ctx, id, container.RemoveOptions{Force: true}); err != nil {
			t.Fatal(err)
		}
	}
	// S1 goes first: S2 keeps the layers they share, and still restores.
	for _, id := range []string{s1.ID, s1.ID} {
		if err := s.Delete(ctx, id); err != nil {
			t.Fatalf("Delete(%s): %v", id, err)
		}
	}
	d := snapshotTestContainer(t, api, s2.ID, managedLabels(kindSandbox, "box-d-"+run, platform.Marks{}, nil), nil, false)
	for path, want := range map[string]string{"/work/a.txt": "alpha", "/work/b.txt": "beta"} {
		if got, ok := snapshotTestReadFile(t, api, d, path); !ok || got != want {
			t.Errorf("%s in a box from the second snapshot after the first was deleted = %q (exists %v), want %q", path, got, ok, want)
		}
	}
	if err := api.ContainerRemove(ctx, d, container.RemoveOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{s2.ID, s2.ID} {
		if err := s.Delete(ctx, id); err != nil {
			t.Fatalf("Delete(%s): %v", id, err)
		}
	}
	for _, id := range []string{s1.ID, s2.ID} {
		if _, err := s.Get(ctx, id); !platform.IsNotFound(err) {
			t.Fatalf("Get(%s) after Delete = %v", id, err)
		}
	}
}

func TestSnapshotCreateRefusals(t *testing.T) {
	api := acctest.DockerClient(t)
	s := &snapshots{api: api}
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		spec platform.SnapshotSpec
		is   error
	}{
		// The refusals that need no engine: TestSnapshotCreateRefusesSpec.
		{"missing sandbox", platform.SnapshotSpec{SandboxID: "sbx-no-such-" + randomHex(4)}, platform.ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Create(ctx, tc.spec)
			if err == nil || (tc.is != nil && !errors.Is(err, tc.is)) {
				t.Fatalf("Create(%+v) = %v, want %v", tc.spec, err, tc.is)
			}
		})
	}
}

// Images that are not the provider's snapshots are invisible to Get and
// left alone by Delete.
func TestSnapshotIgnoresForeignImages(t *testing.T) {
	api := acctest.DockerClient(t)
	s := &snapshots{api: api}
	ctx := context.Background()
	helper, err := ensureHelperImage(ctx, api, helperImageRef)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, helper); !platform.IsNotFound(err) {
		t.Fatalf("Get(helper image) = %v, want not found", err)
	}
	if err := s.Delete(ctx, helper); err != nil {
		t.Fatalf("Delete(helper image) = %v, want a no-op", err)
	}
	if _, err := api.ImageInspect(ctx, helper); err != nil {
		t.Fatalf("Delete removed an image that is not a snapshot: %v", err)
	}
	if err := s.Delete(ctx, "sha256:"+strings.Repeat("0", 64)); err != nil {
		t.Fatalf("Delete of a missing snapshot = %v", err)
	}
}

func TestSortAndMatchSnapshots(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	list := []platform.Snapshot{
		{ID: "sha256:b", CreatedAt: t0},
		{ID: "sha256:c", CreatedAt: t0.Add(time.Second)},
		{ID: "sha256:a", CreatedAt: t0},
	}
	sortSnapshots(list)
	if got := list[0].ID + list[1].ID + list[2].ID; got != "sha256:csha256:asha256:b" {
		t.Fatalf("order = %s", got)
	}
	snap := platform.Snapshot{Name: "n", SandboxID: "s", Labels: map[string]string{"k": "v"}}
	for _, tc := range []struct {
		f    platform.SnapshotFilter
		want bool
	}{
		{platform.SnapshotFilter{}, true},
		{platform.SnapshotFilter{Name: "n", SandboxID: "s", Labels: map[string]string{"k": "v"}}, true},
		{platform.SnapshotFilter{Name: "m"}, false},
		{platform.SnapshotFilter{VolumeID: "v"}, false},
		{platform.SnapshotFilter{Labels: map[string]string{"k": "w"}}, false},
	} {
		if got := matchSnapshot(snap, tc.f); got != tc.want {
			t.Errorf("matchSnapshot(%+v) = %v", tc.f, got)
		}
	}
}

func TestSnapshotUserLabels(t *testing.T) {
	withJSON := snapshotLabels(kindSnapshot, "n", "s", "", "", platform.Marks{}, map[string]string{"a": "1"})
	withJSON["inherited"] = "from the sandbox"
	if got := snapshotUserLabels(withJSON); !maps.Equal(got, map[string]string{"a": "1"}) {
		t.Errorf("with the JSON label: %v", got)
	}
	if got := snapshotUserLabels(map[string]string{"a": "1", platform.LabelKind: kindSnapshot}); !maps.Equal(got, map[string]string{"a": "1"}) {
		t.Errorf("without the JSON label: %v", got)
	}
	if got := snapshotUserLabels(snapshotLabels(kindSnapshot, "", "", "", "", platform.Marks{}, nil)); got == nil || len(got) != 0 {
		t.Errorf("no user labels: %v", got)
	}
}
