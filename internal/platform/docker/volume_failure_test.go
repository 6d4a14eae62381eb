package docker

import (
	"context"
	"errors"
	"maps"
	"reflect"
	"strings"
	"testing"

	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/api/types/volume"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// volumeTestFailRelabelAt makes the relabel fail after step for this test.
func volumeTestFailRelabelAt(t *testing.T, step string) {
	old := relabelStepHook
	relabelStepHook = func(s string) error {
		if s == step {
			return errors.New("injected failure after " + s)
		}
		return nil
	}
	t.Cleanup(func() { relabelStepHook = old })
}

func volumeTestRelabelTemps(t *testing.T, s *volumes, name string) []string {
	t.Helper()
	temps, err := relabelLeftovers(context.Background(), s.api, name)
	if err != nil {
		t.Fatal(err)
	}
	return temps
}

// A failure before the original is removed changes nothing and leaves no
// temporary volume.
func TestVolumeSetLabelsFailureBeforeRemoveChangesNothing(t *testing.T) {
	s := volumeTestService(t)
	name := helperTestName("vol-relabel-early")
	volumeTestCreate(t, s, platform.VolumeSpec{Name: name, Labels: map[string]string{"a": "1"}})
	helperTestWriteVolume(t, s.api, name, volumeTestFiles)
	volumeTestFailRelabelAt(t, "copied-aside")

	_, err := s.Update(context.Background(), name, platform.VolumeUpdate{Labels: &map[string]string{"b": "2"}})
	if err == nil || !strings.Contains(err.Error(), "the volume is unchanged") {
		t.Fatalf("SetLabels = %v, want a failure saying the volume is unchanged", err)
	}
	v, err := s.Get(context.Background(), name)
	if err != nil || !maps.Equal(v.Labels, map[string]string{"a": "1"}) {
		t.Fatalf("volume after a failed relabel: %+v, %v", v, err)
	}
	if temps := volumeTestRelabelTemps(t, s, name); len(temps) != 0 {
		t.Fatalf("temporary volumes left: %v", temps)
	}
	helperTestAssertNoHelpers(t, s.api, name)
}

// A failure after the original is removed names the temporary volume, which
// holds all the data; a later SetLabels refuses until it is dealt with.
func TestVolumeSetLabelsFailureAfterRemoveKeepsDataAndSaysWhere(t *testing.T) {
	s := volumeTestService(t)
	ctx := context.Background()
	name := helperTestName("vol-relabel-late")
	volumeTestCreate(t, s, platform.VolumeSpec{Name: name, Labels: map[string]string{"a": "1"}})
	helperTestWriteVolume(t, s.api, name, volumeTestFiles)
	want := helperTestReadVolume(t, s.api, name)
	volumeTestFailRelabelAt(t, "copied-back")

	_, err := s.Update(ctx, name, platform.VolumeUpdate{Labels: &map[string]string{"b": "2"}})
	temps := volumeTestRelabelTemps(t, s, name)
	for _, tmp := range temps {
		helperTestCleanupVolume(t, s.api, tmp)
	}
	if len(temps) != 1 {
		t.Fatalf("temporary volumes = %v, want one holding the data (err %v)", temps, err)
	}
	if err == nil || !strings.Contains(err.Error(), temps[0]) {
		t.Fatalf("SetLabels = %v, want an error naming %s", err, temps[0])
	}
	if got := helperTestReadVolume(t, s.api, temps[0]); !reflect.DeepEqual(got, want) {
		t.Fatalf("temporary volume holds %+v, want %+v", got, want)
	}

	relabelStepHook = func(string) error { return nil }
	for _, labels := range []map[string]string{{"b": "2"}, {"c": "3"}} {
		_, err = s.Update(ctx, name, platform.VolumeUpdate{Labels: &labels})
		if !errors.Is(err, platform.ErrConflict) || !strings.Contains(err.Error(), temps[0]) {
			t.Fatalf("SetLabels(%v) with a leftover copy = %v, want a conflict naming %s", labels, err, temps[0])
		}
	}
	helperTestAssertNoHelpers(t, s.api, name)
}

// A restore that fails part way removes the volume it made.
func TestVolumeRestoreFailureRemovesVolume(t *testing.T) {
	vols := volumeTestService(t)
	ctx := context.Background()
	// A volume snapshot image without /vol: reading it fails mid-restore.
	layer, err := helperImageTar()
	if err != nil {
		t.Fatal(err)
	}
	var changes []string
	for k, v := range snapshotLabels(kindVolumeSnapshot, "broken", "", "nowhere", "", platform.Marks{}, nil) {
		changes = append(changes, labelChange(k, v))
	}
	id, err := importImage(ctx, vols.api, layer, volumeSnapshotRepo+":broken-"+randomHex(4), changes)
	if err != nil {
		t.Fatal(err)
	}
	snapshotTestCleanupImage(t, vols.api, id)

	name := helperTestName("vol-restore-fails")
	helperTestCleanupVolume(t, vols.api, name)
	_, err = vols.Create(ctx, platform.VolumeSpec{Name: name, FromSnapshotID: id})
	if err == nil || !strings.Contains(err.Error(), "restoring snapshot") {
		t.Fatalf("Create from a broken snapshot = %v, want a restore error", err)
	}
	if _, err := vols.Get(ctx, name); !platform.IsNotFound(err) {
		t.Fatalf("the half-made volume is still there: %v", err)
	}
	helperTestAssertNoHelpers(t, vols.api, name)
}

// A helper container is removed even when the operation's context is
// cancelled while it works.
func TestHelperContainerRemovedAfterCancel(t *testing.T) {
	s := volumeTestService(t)
	name := helperTestName("vol-cancel")
	volumeTestCreate(t, s, platform.VolumeSpec{Name: name})
	ctx, cancel := context.WithCancel(context.Background())
	created := ""
	err := withVolumeHelper(ctx, s.api, name, []mount.Mount{helperMount(name, volumeMountDir, true)}, func(id string) error {
		created = id
		cancel()
		return ctx.Err()
	})
	if !errors.Is(err, context.Canceled) || created == "" {
		t.Fatalf("withVolumeHelper = %v (container %q)", err, created)
	}
	if _, err := s.api.ContainerInspect(context.Background(), created); err == nil {
		t.Fatalf("helper container %s outlived a cancelled operation", created)
	}
	helperTestAssertNoHelpers(t, s.api, name)
	left, err := s.api.VolumeList(context.Background(), volume.ListOptions{Filters: filters.NewArgs(filters.Arg("name", name))})
	if err != nil || len(left.Volumes) != 1 {
		t.Fatalf("the volume itself must stay: %v, %v", left.Volumes, err)
	}
}
