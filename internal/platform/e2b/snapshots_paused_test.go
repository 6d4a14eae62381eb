package e2b

import (
	"context"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// TestSnapshotOfPausedSandboxOnFake: E2B snapshots only running boxes (a
// paused one is "not found"), so a snapshot of a paused or stopped box
// resumes it, snapshots it and pauses it again the way it was (a stopped
// box without its memory), and the box is paused again when the snapshot
// fails too.
func TestSnapshotOfPausedSandboxOnFake(t *testing.T) {
	for _, tc := range []struct {
		name       string
		state      platform.SandboxState
		recorded   platform.SandboxState
		wantMemory bool
	}{
		{name: "paused", state: platform.StatePaused, recorded: platform.StatePaused, wantMemory: true},
		{name: "stopped", state: platform.StateStopped, recorded: platform.StateStopped, wantMemory: false},
		{name: "paused, nothing recorded", state: platform.StatePaused, wantMemory: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, fake := e2bTestPlatform(t, e2bfake.Options{})
			ctx := context.Background()
			box, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: e2bTestTemplate(t, p), State: tc.state})
			if err != nil {
				t.Fatal(err)
			}
			pausesBefore := fake.Requests("POST /sandboxes/{sandboxID}/pause")
			snap, err := p.Snapshots().Create(ctx, platform.SnapshotSpec{SandboxID: box.ID, Name: "cp", IncludeMemory: true, SandboxState: tc.recorded})
			if err != nil {
				t.Fatalf("snapshot of a %s box: %v", tc.state, err)
			}
			if snap.ID == "" || len(fake.Snapshots()) != 1 || fake.Snapshots()[0].SandboxID != box.ID {
				t.Fatalf("snapshot = %+v, fake holds %+v", snap, fake.Snapshots())
			}
			v, _ := fake.Sandbox(box.ID)
			if v.State != "paused" || v.PausedWithMemory != tc.wantMemory {
				t.Errorf("box after the snapshot: state %s, memory kept %v; want paused, memory kept %v", v.State, v.PausedWithMemory, tc.wantMemory)
			}
			if got := fake.Requests("POST /sandboxes/{sandboxID}/pause") - pausesBefore; got != 1 {
				t.Errorf("%d pauses after the snapshot, want 1", got)
			}
		})
	}

	t.Run("paused again when the snapshot fails", func(t *testing.T) {
		p, fake := e2bTestPlatform(t, e2bfake.Options{})
		ctx := context.Background()
		box, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: e2bTestTemplate(t, p), State: platform.StatePaused})
		if err != nil {
			t.Fatal(err)
		}
		fake.Inject("POST /sandboxes/{sandboxID}/snapshots", e2bfake.Fault{Status: 400})
		_, err = p.Snapshots().Create(ctx, platform.SnapshotSpec{SandboxID: box.ID, IncludeMemory: true, SandboxState: platform.StatePaused})
		if err == nil {
			t.Fatal("a failed snapshot reported no error")
		}
		if strings.Contains(err.Error(), "not found") {
			t.Errorf("error names the box as missing: %v", err)
		}
		if v, _ := fake.Sandbox(box.ID); v.State != "paused" || !v.PausedWithMemory {
			t.Errorf("box after the failed snapshot: state %s, memory kept %v; want paused with memory", v.State, v.PausedWithMemory)
		}
	})
}

// TestFakeRefusesSnapshotOfPausedSandbox: the fake answers a snapshot of a
// paused box as E2B does, 404 with its "doesn't exist" message.
func TestFakeRefusesSnapshotOfPausedSandbox(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	box, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: e2bTestTemplate(t, p), State: platform.StatePaused})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.do(ctx, "POST", "/sandboxes/"+pathID(box.ID)+"/snapshots", nil, snapshotRequest{}, nil)
	if err == nil || !strings.Contains(err.Error(), "doesn't exist") {
		t.Fatalf("snapshot of a paused box: %v, want E2B's 404", err)
	}
	if len(fake.Snapshots()) != 0 {
		t.Errorf("the fake made a snapshot of a paused box: %+v", fake.Snapshots())
	}
}

// TestSnapshotsOfPausedSandboxInParallelOnFake: two snapshots of one
// paused box taken at once (two resources in one apply) both succeed, one
// after the other, and the box ends paused.
func TestSnapshotsOfPausedSandboxInParallelOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	box, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: e2bTestTemplate(t, p), State: platform.StatePaused})
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 2)
	for _, name := range []string{"one", "two"} {
		go func() {
			_, err := p.Snapshots().Create(ctx, platform.SnapshotSpec{SandboxID: box.ID, Name: name, IncludeMemory: true})
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Errorf("snapshot: %v", err)
		}
	}
	if n := len(fake.Snapshots()); n != 2 {
		t.Errorf("the fake holds %d snapshots, want 2", n)
	}
	if v, _ := fake.Sandbox(box.ID); v.State != "paused" {
		t.Errorf("box %s after both snapshots, want paused", v.State)
	}
}
