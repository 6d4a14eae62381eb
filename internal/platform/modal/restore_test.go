package modal

import (
	"errors"
	"strings"
	"testing"

	modal "github.com/modal-labs/modal-client/go"
	"google.golang.org/grpc/codes"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/lostcreate"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
)

// memorySnapshot is a memory snapshot of a fresh box made able to take one.
func (f *fixture) memorySnapshot(t *testing.T) string {
	t.Helper()
	src := f.box(t, platform.SandboxSpec{MemorySnapshots: true})
	snap, err := f.p.Snapshots().Create(f.ctx, platform.SnapshotSpec{SandboxID: src.ID, IncludeMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	return snap.ID
}

// restoredBoxes are the fake's running boxes restored from snapID.
func (f *fixture) restoredBoxes(snapID string) []modalfake.SandboxView {
	var out []modalfake.SandboxView
	for _, sb := range f.w.Sandboxes() {
		if sb.RestoredFrom == snapID && !sb.Finished {
			out = append(out, sb)
		}
	}
	return out
}

// A restore whose answers are lost, or whose retry finds the name taken by
// its own first attempt (a server that does not replay an answer by its
// idempotency key), is found under the name it was sent with and tagged:
// exactly one box, this create's, whether a name was configured or not
// (the token's name then, while the box reads back unnamed).
func TestMemoryRestoreAnswerLost(t *testing.T) {
	for _, tc := range []struct {
		name  string
		box   string // configured name
		steps []modalfake.Step
		v1    bool // the SDK's V1 sandbox calls (SandboxRestore)
	}{
		// The SDK's first attempt and its three retries all lose their answer.
		{name: "answers lost, unnamed", steps: []modalfake.Step{{DropAnswer: true}, {DropAnswer: true}, {DropAnswer: true}, {DropAnswer: true}}},
		{name: "answers lost, named", box: "again", steps: []modalfake.Step{{DropAnswer: true}, {DropAnswer: true}, {DropAnswer: true}, {DropAnswer: true}}},
		{name: "retry finds the name taken, unnamed", steps: []modalfake.Step{{DropAnswer: true}, {Code: codes.AlreadyExists}}},
		{name: "retry finds the name taken, named", box: "again", steps: []modalfake.Step{{DropAnswer: true}, {Code: codes.AlreadyExists}}},
		{name: "answers lost, V1", steps: []modalfake.Step{{DropAnswer: true}, {DropAnswer: true}, {DropAnswer: true}, {DropAnswer: true}}, v1: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.v1)
			snapID := f.memorySnapshot(t)
			method := "SandboxRestoreV2"
			if tc.v1 {
				method = "SandboxRestore"
			}
			f.w.Sequence(method, tc.steps...)
			marks := platform.NewMarks("o")
			sb, err := f.p.Sandboxes().Create(f.ctx, platform.SandboxSpec{FromSnapshotID: snapID, Marks: marks, Name: tc.box})
			if err != nil {
				t.Fatalf("Create: %v", err)
			}
			restored := f.restoredBoxes(snapID)
			if len(restored) != 1 || restored[0].ID != sb.ID {
				t.Fatalf("the fake runs %+v restored from %s, want exactly one, %s", restored, snapID, sb.ID)
			}
			wantModalName := tc.box
			if wantModalName == "" {
				wantModalName = restoreNamePrefix + marks.CreateToken
			}
			if v := restored[0]; v.Tags[platform.LabelCreateToken] != marks.CreateToken || v.Name != wantModalName {
				t.Fatalf("restored box tags %v, Modal name %q; want this create's token and the name %q", v.Tags, v.Name, wantModalName)
			}
			if sb.Name != tc.box || sb.FromSnapshotID != snapID {
				t.Fatalf("restored box reads as name %q from %q, want %q from %s", sb.Name, sb.FromSnapshotID, tc.box, snapID)
			}
		})
	}
}

// A restore that never reached Modal, its answers lost all the same, finds
// nothing under its name: it fails saying the box may exist, under which
// name, and that the restore was not sent again.
func TestMemoryRestoreAnswerLostNothingMade(t *testing.T) {
	f := newFixture(t, false)
	snapID := f.memorySnapshot(t)
	f.w.Fail("SandboxRestoreV2", codes.Unavailable, 4)
	marks := platform.NewMarks("o")
	sb, err := f.p.Sandboxes().Create(f.ctx, platform.SandboxSpec{FromSnapshotID: snapID, Marks: marks})
	var lost *lostcreate.Error
	if sb != nil || !errors.As(err, &lost) || !strings.Contains(err.Error(), `"`+restoreNamePrefix+marks.CreateToken+`"`) ||
		!strings.Contains(err.Error(), "terraform import") {
		t.Fatalf("Create = %+v, %v; want a lostcreate.Error naming %s and the import", sb, err, restoreNamePrefix+marks.CreateToken)
	}
	if n := f.w.Calls("SandboxRestoreV2"); n != 4 {
		t.Fatalf("SandboxRestoreV2 calls = %d, want 4 (the SDK's, none sent again)", n)
	}
	if restored := f.restoredBoxes(snapID); len(restored) != 0 {
		t.Fatalf("the fake runs %+v, want nothing restored", restored)
	}
}

// A configured name held by a box made outside the provider fails before
// anything is restored, naming that box and its import: the restore, whose
// answers would be lost, is never sent, so the untagged box holding the
// name is never taken for this restore's.
func TestMemoryRestoreNameHeldOutsideProvider(t *testing.T) {
	f := newFixture(t, false)
	snapID := f.memorySnapshot(t)
	app, err := f.p.appFor(f.ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	img, err := f.p.client.Images.FromID(f.ctx, f.template(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	byHand, err := f.p.client.Sandboxes.Create(f.ctx, app, img, &modal.SandboxCreateParams{Name: "held"})
	if err != nil {
		t.Fatal(err)
	}
	defer release(byHand)
	f.w.DropAnswer("SandboxRestoreV2", 4)
	_, err = f.p.Sandboxes().Create(f.ctx, platform.SandboxSpec{FromSnapshotID: snapID, Marks: platform.NewMarks("o"), Name: "held"})
	var notOwned *platform.NotOwnedError
	if !errors.As(err, &notOwned) || notOwned.ID != byHand.SandboxID || !strings.Contains(err.Error(), "terraform import <this resource's address> "+byHand.SandboxID) ||
		!strings.Contains(err.Error(), "made outside the provider") {
		t.Fatalf("restore under a held name: %v, want a NotOwnedError naming %s and its import", err, byHand.SandboxID)
	}
	if n := f.w.Calls("SandboxRestoreV2"); n != 0 {
		t.Fatalf("SandboxRestoreV2 calls = %d, want none: the name was held before the restore", n)
	}
}

// A restored box whose tagging fails is returned with the error, so the
// provider keeps it in state instead of losing it.
func TestMemoryRestoreTaggingFails(t *testing.T) {
	f := newFixture(t, false)
	snapID := f.memorySnapshot(t)
	f.w.Fail("SandboxTagsSetV2", codes.Internal, 4)
	sb, err := f.p.Sandboxes().Create(f.ctx, platform.SandboxSpec{FromSnapshotID: snapID, Marks: platform.NewMarks("o")})
	restored := f.restoredBoxes(snapID)
	if err == nil || sb == nil || len(restored) != 1 || sb.ID != restored[0].ID || !strings.Contains(err.Error(), sb.ID) {
		t.Fatalf("Create = %+v, %v; the fake runs %+v: want the restored box returned with the tagging error", sb, err, restored)
	}
}
