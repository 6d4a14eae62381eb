package modalfake

import (
	"errors"
	"strings"
	"testing"
	"time"

	modal "github.com/modal-labs/modal-client/go"
)

// A filesystem snapshot is an image with the ttl asked for, usable as a
// sandbox's image, gone once the ttl passes.
func TestFilesystemSnapshot(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			f := newFixture(t, b.v1)
			sb := f.create(t, nil)
			img, err := sb.SnapshotFilesystem(f.ctx, &modal.SandboxSnapshotFilesystemParams{TTL: 48 * time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			v, ok := f.w.Image(img.ImageID)
			if !ok || v.FromSandboxID != sb.SandboxID || v.TTL != 48*time.Hour || !v.ExpiresAt.Equal(f.w.Now().Add(48*time.Hour)) {
				t.Fatalf("snapshot image %+v", v)
			}
			keep, err := sb.SnapshotFilesystem(f.ctx, &modal.SandboxSnapshotFilesystemParams{TTL: modal.NoExpiryTTL})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.c.Sandboxes.Create(f.ctx, f.app, img, nil); err != nil {
				t.Fatalf("create from the snapshot: %v", err)
			}
			f.w.Advance(48 * time.Hour)
			if _, ok := f.w.Image(img.ImageID); ok {
				t.Error("snapshot image still there after its ttl")
			}
			if _, err := f.c.Images.FromID(f.ctx, img.ImageID, nil); !errors.As(err, new(modal.NotFoundError)) {
				t.Errorf("FromID after expiry: %v", err)
			}
			if v, ok := f.w.Image(keep.ImageID); !ok || v.TTL != 0 || !v.ExpiresAt.IsZero() {
				t.Errorf("no-expiry snapshot: %+v, %v", v, ok)
			}
		})
	}
}

// A memory snapshot needs enable_snapshot, ends the sandbox, restores into
// a new one, and lasts 7 days.
func TestMemorySnapshot(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			f := newFixture(t, b.v1)
			plain := f.create(t, nil)
			if _, err := plain.ExperimentalSnapshot(f.ctx, nil); err == nil || !strings.Contains(err.Error(), "FailedPrecondition") {
				t.Errorf("snapshot without enable_snapshot: %v", err)
			}
			sb := f.create(t, &modal.SandboxCreateParams{Name: "keeper", ExperimentalEnableSnapshot: true, Timeout: 2 * time.Hour, Tags: map[string]string{"a": "b"}})
			snap, err := sb.ExperimentalSnapshot(f.ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			sv, ok := f.w.MemorySnapshot(snap.SnapshotID)
			if !ok || sv.SandboxID != sb.SandboxID || sv.V2 == b.v1 || !strings.HasPrefix(sv.ID, "sn-") {
				t.Fatalf("snapshot %+v", sv)
			}
			if v := f.view(t, sb.SandboxID); !v.Finished {
				t.Errorf("sandbox still running after a memory snapshot")
			}
			handle, err := f.c.SandboxSnapshots.FromID(f.ctx, snap.SnapshotID, nil)
			if err != nil {
				t.Fatal(err)
			}
			restored, err := f.c.Sandboxes.ExperimentalFromSnapshot(f.ctx, handle, nil)
			if err != nil {
				t.Fatal(err)
			}
			rv := f.view(t, restored.SandboxID)
			if rv.RestoredFrom != snap.SnapshotID || rv.Name != "keeper" || rv.TimeoutSecs != 7200 || rv.V2 == b.v1 || len(rv.Tags) != 0 {
				t.Errorf("restored %+v", rv)
			}
			// The name is taken by the running restore.
			if _, err := f.c.Sandboxes.ExperimentalFromSnapshot(f.ctx, handle, nil); err == nil || !strings.Contains(err.Error(), "AlreadyExists") {
				t.Errorf("second restore under the same name: %v", err)
			}
			none := ""
			if other, err := f.c.Sandboxes.ExperimentalFromSnapshot(f.ctx, handle, &modal.SandboxExperimentalFromSnapshotParams{Name: &none}); err != nil || f.view(t, other.SandboxID).Name != "" {
				t.Errorf("restore without a name: %v", err)
			}
			f.w.Advance(7 * 24 * time.Hour)
			if _, ok := f.w.MemorySnapshot(snap.SnapshotID); ok {
				t.Error("memory snapshot outlived 7 days")
			}
			gone, _ := f.c.SandboxSnapshots.FromID(f.ctx, snap.SnapshotID, nil)
			if _, err := f.c.Sandboxes.ExperimentalFromSnapshot(f.ctx, gone, nil); err == nil || !strings.Contains(err.Error(), "NotFound") {
				t.Errorf("restore of an expired snapshot: %v", err)
			}
		})
	}
}
