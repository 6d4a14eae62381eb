package docker

import (
	"context"
	"crypto/rand"
	"errors"
	"maps"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/volume"
	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// volumeTestFiles is a small tree whose modes and owners a copy must keep.
var volumeTestFiles = map[string]helperTestFile{
	"hello.txt":      {Content: "hello volume\n", Mode: 0o644},
	"secret":         {Content: "s3cr3t", Mode: 0o600, UID: 1234, GID: 2345},
	"sub":            {Dir: true, Mode: 0o750, UID: 1234, GID: 1234},
	"sub/nested.bin": {Content: "\x00\x01\x02binary", Mode: 0o755},
	"sub/empty":      {Content: "", Mode: 0o640},
}

func volumeTestService(t *testing.T) *volumes {
	return &volumes{api: acctest.DockerClient(t)}
}

func volumeTestCreate(t *testing.T, s *volumes, spec platform.VolumeSpec) *platform.Volume {
	t.Helper()
	helperTestCleanupVolume(t, s.api, spec.Name)
	v, err := s.Create(context.Background(), spec)
	if err != nil {
		t.Fatalf("Create(%s): %v", spec.Name, err)
	}
	return v
}

func TestVolumeLifecycle(t *testing.T) {
	s := volumeTestService(t)
	ctx := context.Background()
	name := helperTestName("vol")
	marks := platform.NewMarks("team-a")
	v := volumeTestCreate(t, s, platform.VolumeSpec{Name: name, Labels: map[string]string{"team": "a"}, Marks: marks})

	if v.ID != name || v.Name != name || !v.Managed || v.State != volumeStateAvailable || v.CreatedAt.IsZero() || len(v.AttachedTo) != 0 {
		t.Fatalf("created volume = %+v", v)
	}
	if !maps.Equal(v.Labels, map[string]string{"team": "a"}) {
		t.Fatalf("labels = %v, want only the user's", v.Labels)
	}
	raw, err := s.api.VolumeInspect(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{platform.LabelManaged: "true", platform.LabelKind: kindVolume, platform.LabelName: name} {
		if raw.Labels[k] != want {
			t.Errorf("docker label %s = %q, want %q", k, raw.Labels[k], want)
		}
	}

	for k, want := range map[string]string{platform.LabelOwner: "team-a", platform.LabelCreateToken: marks.CreateToken} {
		if raw.Labels[k] != want {
			t.Errorf("docker label %s = %q, want %q", k, raw.Labels[k], want)
		}
	}

	// The create that made it, retried: the same volume.
	again, err := s.Create(ctx, platform.VolumeSpec{Name: name, Labels: map[string]string{"team": "a"}, Marks: marks})
	if err != nil || again.ID != v.ID || !again.CreatedAt.Equal(v.CreatedAt) {
		t.Fatalf("second Create = %+v, %v; want the same volume found again", again, err)
	}
	// Any other create of the name (same owner, other state): refused.
	_, err = s.Create(ctx, platform.VolumeSpec{Name: name, Labels: map[string]string{"team": "a"}, Marks: platform.NewMarks("team-a")})
	var notOwned *platform.NotOwnedError
	if !errors.As(err, &notOwned) || notOwned.ID != name {
		t.Fatalf("Create by another create = %v, want a NotOwnedError", err)
	}
	list, err := s.api.VolumeList(ctx, volume.ListOptions{Filters: filters.NewArgs(filters.Arg("name", name))})
	if err != nil || len(list.Volumes) != 1 {
		t.Fatalf("volumes named %s after two creates: %d (%v)", name, len(list.Volumes), err)
	}

	for _, tc := range []struct {
		filter platform.VolumeFilter
		want   int
	}{
		{platform.VolumeFilter{Name: name}, 1},
		{platform.VolumeFilter{Name: name, Labels: map[string]string{"team": "a"}}, 1},
		{platform.VolumeFilter{Name: name, Labels: map[string]string{"team": "b"}}, 0},
		{platform.VolumeFilter{Name: name[:len(name)-1]}, 0}, // exact, not substring
	} {
		got, err := s.List(ctx, tc.filter)
		if err != nil || len(got) != tc.want {
			t.Errorf("List(%+v) = %d volumes, %v; want %d", tc.filter, len(got), err, tc.want)
		}
		if tc.want == 1 && err == nil && len(got) == 1 && got[0].ID != name {
			t.Errorf("List(%+v) = %s", tc.filter, got[0].ID)
		}
	}

	if err := s.Delete(ctx, name); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if err := s.Delete(ctx, name); err != nil {
		t.Fatalf("second Delete: %v, want success", err)
	}
	if _, err := s.Get(ctx, name); !platform.IsNotFound(err) {
		t.Fatalf("Get after Delete = %v, want not found", err)
	}
}

func TestVolumeListIncludesUnmanaged(t *testing.T) {
	s := volumeTestService(t)
	ctx := context.Background()
	name := helperTestName("vol-unmanaged")
	helperTestCleanupVolume(t, s.api, name)
	if _, err := s.api.VolumeCreate(ctx, volume.CreateOptions{Name: name, Labels: map[string]string{"owner": "ops"}}); err != nil {
		t.Fatal(err)
	}
	got, err := s.List(ctx, platform.VolumeFilter{Name: name})
	if err != nil || len(got) != 1 || got[0].Managed || got[0].Labels["owner"] != "ops" {
		t.Fatalf("List = %+v, %v; want the unmanaged volume", got, err)
	}

	_, err = s.Create(ctx, platform.VolumeSpec{Name: name})
	var notOwned *platform.NotOwnedError
	if !errors.As(err, &notOwned) || !errors.Is(err, platform.ErrConflict) {
		t.Fatalf("Create over an unmanaged volume = %v, want a NotOwnedError", err)
	}
	for _, want := range []string{`a volume named "` + name + `" already exists`, "not made by this provider", "terraform import <this resource's address> " + name} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if v, err := s.Get(ctx, name); err != nil || v.Managed {
		t.Fatalf("the unmanaged volume changed: %+v, %v", v, err)
	}
}

func TestVolumeCreateUnsupported(t *testing.T) {
	s := &volumes{}
	for name, spec := range map[string]platform.VolumeSpec{
		"size":   {Name: "v", SizeGB: 10},
		"region": {Name: "v", Region: "ord"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := s.Create(context.Background(), spec)
			var unsupported *platform.UnsupportedError
			if !errors.As(err, &unsupported) {
				t.Fatalf("Create(%+v) = %v, want UnsupportedError", spec, err)
			}
		})
	}
	if _, err := s.Update(context.Background(), "v", platform.VolumeUpdate{SizeGB: ptrInt64(20)}); !errors.Is(err, platform.ErrUnsupported) {
		t.Fatalf("Resize = %v, want unsupported", err)
	}
}

func TestVolumeSetLabelsKeepsData(t *testing.T) {
	s := volumeTestService(t)
	ctx := context.Background()
	name := helperTestName("vol-relabel")
	volumeTestCreate(t, s, platform.VolumeSpec{Name: name, Labels: map[string]string{"a": "1"}})
	helperTestWriteVolume(t, s.api, name, volumeTestFiles)
	before := helperTestReadVolume(t, s.api, name)
	orig, err := s.Get(ctx, name)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	volumeTestAfterSecond(t, s.api, orig.CreatedAt)

	got, err := s.Update(ctx, name, platform.VolumeUpdate{Labels: &map[string]string{"b": "2"}})
	if err != nil {
		t.Fatalf("SetLabels: %v", err)
	}
	if got.ID != name || !got.Managed || !maps.Equal(got.Labels, map[string]string{"b": "2"}) {
		t.Fatalf("after SetLabels: %+v", got)
	}
	if !got.CreatedAt.Equal(orig.CreatedAt) {
		t.Fatalf("relabelling moved created_at from %s to %s", orig.CreatedAt, got.CreatedAt)
	}
	raw, _ := s.api.VolumeInspect(ctx, name)
	if raw.Labels[platform.LabelName] != name || raw.Labels[platform.LabelKind] != kindVolume {
		t.Fatalf("reserved labels lost: %v", raw.Labels)
	}
	// The volume was made again, and the engine stamped it later: the
	// first time is kept by the provider, not by chance.
	if stamped, err := time.Parse(time.RFC3339Nano, raw.CreatedAt); err != nil || !stamped.After(orig.CreatedAt) {
		t.Fatalf("the engine stamps the relabelled volume %q, not after %s (%v)", raw.CreatedAt, orig.CreatedAt, err)
	}
	after := helperTestReadVolume(t, s.api, name)
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("data changed by SetLabels:\nbefore %+v\nafter  %+v", before, after)
	}
	for path, want := range volumeTestFiles {
		if after[path] != want {
			t.Errorf("%s = %+v, want %+v", path, after[path], want)
		}
	}
	temps, err := s.api.VolumeList(ctx, volume.ListOptions{Filters: filters.NewArgs(filters.Arg("label", labelVolumeID+"="+name))})
	if err != nil || len(temps.Volumes) != 0 {
		t.Fatalf("temporary volumes left: %d (%v)", len(temps.Volumes), err)
	}
	helperTestAssertNoHelpers(t, s.api, name)

	// Mounted by a sandbox: refused, naming it, and nothing changes.
	user := helperTestMountingContainer(t, s.api, name)
	v, err := s.Get(ctx, name)
	if err != nil || v.State != volumeStateAttached || !reflect.DeepEqual(v.AttachedTo, []string{user}) {
		t.Fatalf("Get while mounted = %+v, %v; want attached to %s", v, err, user)
	}
	_, err = s.Update(ctx, name, platform.VolumeUpdate{Labels: &map[string]string{"c": "3"}})
	if !errors.Is(err, platform.ErrConflict) || !strings.Contains(err.Error(), user) {
		t.Fatalf("SetLabels while mounted = %v, want a conflict naming %s", err, user)
	}
	err = s.Delete(ctx, name)
	if !errors.Is(err, platform.ErrConflict) || !strings.Contains(err.Error(), user) {
		t.Fatalf("Delete while mounted = %v, want a conflict naming %s", err, user)
	}
	if v, _ := s.Get(ctx, name); !maps.Equal(v.Labels, map[string]string{"b": "2"}) {
		t.Fatalf("labels changed by a refused SetLabels: %v", v.Labels)
	}
	helperTestAssertNoHelpers(t, s.api, name)
}

// volumeTestAfterSecond returns once the engine's clock has passed the
// second of stamp, so that a volume the engine makes from then on is stamped
// later (it stamps creation times to the second). It waits on the engine's
// clock, not the test's, and mostly not at all: the writes and reads of a
// test take longer. Its bound, clock.Patience, is for an engine whose clock
// stands still.
func volumeTestAfterSecond(t *testing.T, api *client.Client, stamp time.Time) {
	t.Helper()
	next := stamp.Truncate(time.Second).Add(time.Second)
	var now time.Time
	if !clock.Eventually(func() bool {
		info, err := api.Info(t.Context())
		if err != nil {
			t.Fatalf("reading the engine's clock: %v", err)
		}
		if now, err = time.Parse(time.RFC3339Nano, info.SystemTime); err != nil {
			t.Fatalf("the engine's clock: %v", err)
		}
		return !now.Before(next)
	}) {
		t.Fatalf("the engine's clock stands at %s, before %s", now, next)
	}
}

// A label change copies the volume's data out and back. A volume bigger
// than the engine's socket buffers must come through whole, and within a
// bound: copied through a single helper container the engine deadlocks on
// it (an archive read out of a container holds its lock until read to the
// end; one written into it waits for that lock) until the caller gives up.
func TestVolumeSetLabelsBigVolume(t *testing.T) {
	s := volumeTestService(t)
	name := helperTestName("vol-relabel-big")
	volumeTestCreate(t, s, platform.VolumeSpec{Name: name})
	big := make([]byte, 8<<20)
	_, _ = rand.Read(big)
	helperTestWriteVolume(t, s.api, name, map[string]helperTestFile{"big.bin": {Content: string(big), Mode: 0o644}})

	// A deadlock shows only as a call that never ends, so this wait is
	// real and bounded: clock.Patience, far more than 8 MiB needs on an
	// idle engine (under a second) or on one ten times slower. The bound
	// is a deadline of the call's own (not a clock.Deadline, which reports
	// none), as Terraform's timeouts give a relabel.
	ctx, cancel := context.WithTimeout(context.Background(), clock.Patience)
	defer cancel()
	if _, err := s.Update(ctx, name, platform.VolumeUpdate{Labels: &map[string]string{"size": "big"}}); err != nil {
		t.Fatalf("changing the labels of a volume holding 8 MiB: %v", err)
	}
	after := helperTestReadVolume(t, s.api, name)
	if got := after["big.bin"].Content; got != string(big) {
		t.Fatalf("big.bin after the label change: %d bytes that differ from the 8 MiB written", len(got))
	}
	helperTestAssertNoHelpers(t, s.api, name)
}

func TestVolumeSnapshotRestore(t *testing.T) {
	vols := volumeTestService(t)
	snaps := &snapshots{api: vols.api}
	ctx := context.Background()
	src := helperTestName("vol-src")
	volumeTestCreate(t, vols, platform.VolumeSpec{Name: src})
	helperTestWriteVolume(t, vols.api, src, volumeTestFiles)
	want := helperTestReadVolume(t, vols.api, src)

	labels := map[string]string{"purpose": `nightly "backup" $HOME`, "multi": "line1\nline2"}
	snap, err := snaps.Create(ctx, platform.SnapshotSpec{VolumeID: src, Name: "nightly", Labels: labels})
	if err != nil {
		t.Fatalf("snapshot of a volume: %v", err)
	}
	snapshotTestCleanupImage(t, snaps.api, snap.ID)
	helperTestAssertNoHelpers(t, vols.api, src)
	if !strings.HasPrefix(snap.ID, "sha256:") || snap.Kind != platform.SnapshotVolume || snap.VolumeID != src || snap.Name != "nightly" ||
		snap.SandboxID != "" || snap.SizeBytes <= 0 || snap.CreatedAt.IsZero() || !snap.ExpiresAt.IsZero() || !maps.Equal(snap.Labels, labels) {
		t.Fatalf("volume snapshot = %+v", snap)
	}
	img, _ := snaps.api.ImageInspect(ctx, snap.ID)
	if len(img.RepoTags) != 1 || !strings.HasPrefix(img.RepoTags[0], volumeSnapshotRepo+":") {
		t.Fatalf("volume snapshot tags = %v", img.RepoTags)
	}

	dst := helperTestName("vol-dst")
	marks := platform.NewMarks("")
	restored := volumeTestCreate(t, vols, platform.VolumeSpec{Name: dst, FromSnapshotID: snap.ID, Marks: marks})
	if restored.FromSnapshotID != snap.ID {
		t.Fatalf("restored volume from_snapshot_id = %q", restored.FromSnapshotID)
	}
	helperTestAssertNoHelpers(t, vols.api, dst)
	if got := helperTestReadVolume(t, vols.api, dst); !reflect.DeepEqual(got, want) {
		t.Fatalf("restored volume holds\n%+v\nwant\n%+v", got, want)
	}

	// Found again by the create that made it (retried); any other create of
	// the name is refused, with or without the snapshot.
	if again, err := vols.Create(ctx, platform.VolumeSpec{Name: dst, FromSnapshotID: snap.ID, Marks: marks}); err != nil || again.ID != dst {
		t.Fatalf("Create again = %+v, %v", again, err)
	}
	for _, from := range []string{snap.ID, ""} {
		if _, err := vols.Create(ctx, platform.VolumeSpec{Name: dst, FromSnapshotID: from}); !errors.Is(err, platform.ErrConflict) {
			t.Fatalf("another Create of %s (from %q) = %v, want a conflict", dst, from, err)
		}
	}

	// A snapshot id that does not exist leaves no volume behind.
	missing := helperTestName("vol-missing")
	helperTestCleanupVolume(t, vols.api, missing)
	_, err = vols.Create(ctx, platform.VolumeSpec{Name: missing, FromSnapshotID: "sha256:" + strings.Repeat("0", 64)})
	if !platform.IsNotFound(err) {
		t.Fatalf("restore from a missing snapshot = %v, want not found", err)
	}
	if _, err := vols.Get(ctx, missing); !platform.IsNotFound(err) {
		t.Fatalf("a volume was left behind by a failed restore: %v", err)
	}

	// Deleting a volume snapshot no container uses works, twice.
	if err := snaps.Delete(ctx, snap.ID); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if err := snaps.Delete(ctx, snap.ID); err != nil {
		t.Fatalf("second Delete: %v", err)
	}
	if _, err := snaps.Get(ctx, snap.ID); !platform.IsNotFound(err) {
		t.Fatalf("Get after Delete = %v", err)
	}
}

func TestVolumeSnapshotOfEmptyVolume(t *testing.T) {
	vols := volumeTestService(t)
	snaps := &snapshots{api: vols.api}
	ctx := context.Background()
	src := helperTestName("vol-empty")
	volumeTestCreate(t, vols, platform.VolumeSpec{Name: src})
	snap, err := snaps.Create(ctx, platform.SnapshotSpec{VolumeID: src})
	if err != nil {
		t.Fatalf("snapshot of an empty volume: %v", err)
	}
	snapshotTestCleanupImage(t, snaps.api, snap.ID)
	dst := helperTestName("vol-empty-dst")
	volumeTestCreate(t, vols, platform.VolumeSpec{Name: dst, FromSnapshotID: snap.ID})
	if got := helperTestReadVolume(t, vols.api, dst); len(got) != 0 {
		t.Fatalf("restored empty volume holds %v", got)
	}
	if _, err := snaps.Create(ctx, platform.SnapshotSpec{VolumeID: helperTestName("no-such-volume")}); !platform.IsNotFound(err) {
		t.Fatalf("snapshot of a missing volume = %v, want not found", err)
	}
}
