package modal

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestSnapshotThrottledIsRetried: Modal's throttling of a snapshot (a task
// command router call the SDK does not retry) is waited out as Modal asks,
// and the snapshot is taken once; with no wait allowed it fails, saying so.
func TestSnapshotThrottledIsRetried(t *testing.T) {
	f := newFixture(t, false)
	box := f.box(t, platform.SandboxSpec{TemplateID: f.template(t)})
	var waits []time.Duration
	f.p.throttleSleep = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	f.w.Throttle("TaskSnapshotFilesystem", 2, 1500*time.Millisecond)
	snap, err := f.p.Snapshots().Create(f.ctx, platform.SnapshotSpec{SandboxID: box.ID})
	if err != nil {
		t.Fatalf("throttled snapshot: %v", err)
	}
	if len(waits) != 2 || waits[0] != 1500*time.Millisecond {
		t.Errorf("waited %v, want twice the 1.5 s Modal asked", waits)
	}
	if n := f.w.Calls("TaskSnapshotFilesystem"); n != 3 {
		t.Errorf("TaskSnapshotFilesystem called %d times, want 3 (two throttled)", n)
	}
	if _, ok := f.w.Image(snap.ID); !ok {
		t.Errorf("snapshot image %s not on the fake", snap.ID)
	}

	none := time.Duration(0)
	f.p.maxThrottleWait = &none
	f.w.Throttle("TaskSnapshotFilesystem", 1, time.Second)
	if _, err := f.p.Snapshots().Create(f.ctx, platform.SnapshotSpec{SandboxID: box.ID}); err == nil || !strings.Contains(err.Error(), "ResourceExhausted") {
		t.Fatalf("throttled with no wait allowed: %v, want Modal's throttling", err)
	}
}
