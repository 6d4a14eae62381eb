package modal

import (
	"errors"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestSandboxV1 runs a box's life on Modal's V1 sandbox calls
// (MODAL_SANDBOX_V2=false), which the SDK picks when its client is made.
func TestSandboxV1(t *testing.T) {
	f := newFixture(t, true)
	marks := platform.NewMarks("o")
	sb := f.box(t, platform.SandboxSpec{Marks: marks, Env: map[string]string{"A": "1"}, Labels: map[string]string{"x": "1"},
		MemorySnapshots: true, Lifecycle: platform.Lifecycle{Timeout: time.Hour}})
	v, _ := f.w.Sandbox(sb.ID)
	if v.V2 || v.Env["A"] != "1" || v.Tags[platform.LabelCreateToken] != marks.CreateToken {
		t.Fatalf("fake sandbox = %+v, want a V1 box with env and marks", v)
	}
	labels := map[string]string{"x": "2"}
	if got, err := f.p.Sandboxes().Update(f.ctx, sb.ID, platform.SandboxUpdate{Labels: &labels}); err != nil || got.Labels["x"] != "2" {
		t.Fatalf("Update = %+v, %v", got, err)
	}
	if list, err := f.p.Sandboxes().List(f.ctx, platform.SandboxFilter{Labels: map[string]string{platform.LabelCreateToken: marks.CreateToken}}); err != nil || len(list) != 1 {
		t.Fatalf("List by token = %+v, %v", list, err)
	}
	fs, err := f.p.Snapshots().Create(f.ctx, platform.SnapshotSpec{SandboxID: sb.ID})
	if err != nil || !isImageID(fs.ID) {
		t.Fatalf("filesystem snapshot = %+v, %v", fs, err)
	}
	mem, err := f.p.Snapshots().Create(f.ctx, platform.SnapshotSpec{SandboxID: sb.ID, IncludeMemory: true})
	if err != nil || mem.Kind != platform.SnapshotMemory {
		t.Fatalf("memory snapshot = %+v, %v", mem, err)
	}
	list, err := f.p.Snapshots().List(f.ctx, platform.SnapshotFilter{SandboxID: sb.ID})
	if err != nil || len(list) != 2 {
		t.Fatalf("List by source = %+v, %v", list, err)
	}
	var nf *platform.NotFoundError
	if _, err := f.p.Sandboxes().Get(f.ctx, sb.ID); !errors.As(err, &nf) || nf.Reason == "" {
		t.Fatalf("Get after the memory snapshot: %v, want finished", err)
	}
	restored := f.box(t, platform.SandboxSpec{FromSnapshotID: mem.ID})
	if v, _ := f.w.Sandbox(restored.ID); v.V2 || v.RestoredFrom != mem.ID {
		t.Fatalf("restored = %+v", v)
	}
	if err := f.p.Sandboxes().Delete(f.ctx, restored.ID); err != nil {
		t.Fatal(err)
	}
}
