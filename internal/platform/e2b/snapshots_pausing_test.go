package e2b

import (
	"context"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// TestSnapshotOfABoxThatBeginsToPause: a running box that begins to pause
// on its own (its timeout, or a dashboard user) just as the snapshot is
// sent is answered 409 by E2B ("cannot be snapshotted while in 'pausing'
// state"). The snapshot is not lost for that: the box reads paused, so it
// is resumed for the snapshot (E2B's connect waits out the pause), taken,
// and paused again, as any paused box is.
func TestSnapshotOfABoxThatBeginsToPause(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	box, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: e2bTestTemplate(t, p), State: platform.StateRunning})
	if err != nil {
		t.Fatal(err)
	}
	fake.Inject("POST /sandboxes/{sandboxID}/snapshots", e2bfake.Fault{Before: func() { fake.PauseOutOfBand(box.ID) }})
	snap, err := p.Snapshots().Create(ctx, platform.SnapshotSpec{SandboxID: box.ID, Name: "cp", IncludeMemory: true, SandboxState: platform.StateRunning})
	if err != nil {
		t.Fatalf("snapshot of a box that began to pause: %v", err)
	}
	if got := fake.Snapshots(); snap.ID == "" || len(got) != 1 || got[0].SandboxID != box.ID {
		t.Fatalf("snapshot = %+v, fake holds %+v", snap, got)
	}
	if got := fake.Requests("POST /sandboxes/{sandboxID}/snapshots"); got != 2 {
		t.Errorf("%d snapshot requests, want 2 (the refused one, then the one after the resume)", got)
	}
	// Someone paused it: it is left paused, as it was found.
	if v, _ := fake.Sandbox(box.ID); v.State != "paused" || !v.PausedWithMemory {
		t.Errorf("box after the snapshot: state %s (memory kept %v), want paused with memory", v.State, v.PausedWithMemory)
	}
}
