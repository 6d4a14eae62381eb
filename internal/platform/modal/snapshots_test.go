package modal

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func TestFilesystemSnapshot(t *testing.T) {
	tests := []struct {
		name    string
		ttl     time.Duration
		wantTTL time.Duration
	}{
		{name: "ttl given", ttl: time.Hour, wantTTL: time.Hour},
		{name: "default ttl sent", wantTTL: 30 * 24 * time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, false)
			sb := f.box(t, platform.SandboxSpec{})
			snap, err := f.p.Snapshots().Create(f.ctx, platform.SnapshotSpec{SandboxID: sb.ID, TTL: tt.ttl})
			if err != nil {
				t.Fatal(err)
			}
			now := f.w.Now()
			if !strings.HasPrefix(snap.ID, "im-") || snap.Kind != platform.SnapshotFilesystem || snap.SandboxID != sb.ID ||
				!snap.CreatedAt.Equal(now) || !snap.ExpiresAt.Equal(now.Add(tt.wantTTL)) {
				t.Fatalf("snapshot = %+v (now %s)", snap, now)
			}
			if img, ok := f.w.Image(snap.ID); !ok || img.TTL != tt.wantTTL || img.FromSandboxID != sb.ID {
				t.Fatalf("fake image = %+v, %v", img, ok)
			}
			got, err := f.p.Snapshots().Get(f.ctx, snap.ID)
			if err != nil || !reflect.DeepEqual(got, snap) {
				t.Fatalf("Get = %+v, %v; want %+v", got, err, snap)
			}
			if err := f.p.Snapshots().Delete(f.ctx, snap.ID); err != nil {
				t.Fatal(err)
			}
			if _, err := f.p.Snapshots().Get(f.ctx, snap.ID); !platform.IsNotFound(err) {
				t.Fatalf("Get after delete: %v", err)
			}
			if list, _ := f.p.Snapshots().List(f.ctx, platform.SnapshotFilter{SandboxID: sb.ID}); len(list) != 0 {
				t.Fatalf("List after delete = %+v: the record stays", list)
			}
			if err := f.p.Snapshots().Delete(f.ctx, snap.ID); err != nil {
				t.Fatalf("second delete: %v", err)
			}
		})
	}
}

func TestSnapshotExpiry(t *testing.T) {
	f := newFixture(t, false)
	sb := f.box(t, platform.SandboxSpec{Lifecycle: platform.Lifecycle{Timeout: 24 * time.Hour}})
	snap, err := f.p.Snapshots().Create(f.ctx, platform.SnapshotSpec{SandboxID: sb.ID, TTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	f.w.Advance(2 * time.Hour)
	if _, err := f.p.Snapshots().Get(f.ctx, snap.ID); !platform.IsNotFound(err) {
		t.Fatalf("Get after the ttl: %v", err)
	}
	if list, _ := f.p.Snapshots().List(f.ctx, platform.SnapshotFilter{}); len(list) != 0 {
		t.Fatalf("List after the ttl = %+v", list)
	}
}

func TestMemorySnapshot(t *testing.T) {
	f := newFixture(t, false)
	sb := f.box(t, platform.SandboxSpec{MemorySnapshots: true, Labels: map[string]string{"k": "v"}})
	snap, err := f.p.Snapshots().Create(f.ctx, platform.SnapshotSpec{SandboxID: sb.ID, IncludeMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	now := f.w.Now()
	if snap.Kind != platform.SnapshotMemory || isImageID(snap.ID) || !snap.ExpiresAt.Equal(now.Add(7*24*time.Hour)) {
		t.Fatalf("snapshot = %+v", snap)
	}
	if v, _ := f.w.Sandbox(sb.ID); !v.Finished {
		t.Fatalf("the source still runs: %+v; Modal ends it", v)
	}
	list, err := f.p.Snapshots().List(f.ctx, platform.SnapshotFilter{SandboxID: sb.ID})
	if err != nil || len(list) != 1 || list[0].ID != snap.ID {
		t.Fatalf("List by source = %+v, %v", list, err)
	}
	got, err := f.p.Snapshots().Get(f.ctx, snap.ID)
	if err != nil || got.Kind != platform.SnapshotMemory {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	if err := f.p.Snapshots().Delete(f.ctx, snap.ID); !errors.Is(err, platform.ErrUnsupported) {
		t.Fatalf("Delete = %v, want unsupported", err)
	}
	marks := platform.NewMarks("o")
	restored, err := f.p.Sandboxes().Create(f.ctx, platform.SandboxSpec{FromSnapshotID: snap.ID, Marks: marks, Name: "again",
		Labels: map[string]string{"k": "w"}})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := f.w.Sandbox(restored.ID)
	if v.RestoredFrom != snap.ID || v.Name != "again" || v.Tags["k"] != "w" || v.Tags[platform.LabelCreateToken] != marks.CreateToken {
		t.Fatalf("restored = %+v", v)
	}
	if restored.FromSnapshotID != snap.ID || restored.TemplateID != "" {
		t.Fatalf("restored reads as from %q, template %q", restored.FromSnapshotID, restored.TemplateID)
	}
	child, err := f.p.Snapshots().Create(f.ctx, platform.SnapshotSpec{SandboxID: restored.ID})
	if err != nil || child.ParentSnapshotID != snap.ID {
		t.Fatalf("snapshot of the restored box = %+v, %v; want parent %s", child, err, snap.ID)
	}
}

func TestSnapshotListNewestFirst(t *testing.T) {
	f := newFixture(t, false)
	tpl := f.template(t)
	a := f.box(t, platform.SandboxSpec{TemplateID: tpl, Lifecycle: platform.Lifecycle{Timeout: time.Hour}})
	b := f.box(t, platform.SandboxSpec{TemplateID: tpl, Lifecycle: platform.Lifecycle{Timeout: time.Hour}})
	var ids []string
	for _, src := range []string{a.ID, b.ID, a.ID} {
		s, err := f.p.Snapshots().Create(f.ctx, platform.SnapshotSpec{SandboxID: src})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID)
		f.w.Advance(time.Minute)
	}
	all, err := f.p.Snapshots().List(f.ctx, platform.SnapshotFilter{})
	if err != nil || len(all) != 3 || all[0].ID != ids[2] || all[1].ID != ids[1] || all[2].ID != ids[0] {
		t.Fatalf("List = %+v, %v; want %v reversed", all, err, ids)
	}
	ofA, err := f.p.Snapshots().List(f.ctx, platform.SnapshotFilter{SandboxID: a.ID})
	if err != nil || len(ofA) != 2 || ofA[0].ID != ids[2] || ofA[1].SandboxID != a.ID {
		t.Fatalf("List of a = %+v, %v", ofA, err)
	}
	if named, _ := f.p.Snapshots().List(f.ctx, platform.SnapshotFilter{Name: "x"}); len(named) != 0 {
		t.Fatalf("List by name = %+v: Modal snapshots have no names", named)
	}
}

// TestSnapshotGetRefusesOtherIDs: an id that is neither an Image (im-) nor
// a memory snapshot (sn-) is no snapshot, so importing one fails instead of
// taking any string as a memory snapshot Modal cannot look up.
func TestSnapshotGetRefusesOtherIDs(t *testing.T) {
	f := newFixture(t, false)
	for _, id := range []string{"not-a-snapshot", "sb-01ARZ3NDEKTSV4RRFFQ69G5FAV", "data"} {
		if _, err := f.p.Snapshots().Get(f.ctx, id); !platform.IsNotFound(err) {
			t.Errorf("Get(%q) = %v, want not found", id, err)
		}
	}
}

// A restore under a name another box holds fails naming that box and the
// import command, instead of Modal's bare AlreadyExists.
func TestMemoryRestoreNameTaken(t *testing.T) {
	f := newFixture(t, false)
	sb := f.box(t, platform.SandboxSpec{MemorySnapshots: true})
	snap, err := f.p.Snapshots().Create(f.ctx, platform.SnapshotSpec{SandboxID: sb.ID, IncludeMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	first, err := f.p.Sandboxes().Create(f.ctx, platform.SandboxSpec{FromSnapshotID: snap.ID, Marks: platform.NewMarks("o"), Name: "held"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.p.Sandboxes().Create(f.ctx, platform.SandboxSpec{FromSnapshotID: snap.ID, Marks: platform.NewMarks("o"), Name: "held"})
	var notOwned *platform.NotOwnedError
	if !errors.As(err, &notOwned) || notOwned.ID != first.ID || !strings.Contains(err.Error(), "terraform import") {
		t.Fatalf("second restore under the name: %v, want a NotOwnedError naming %s and the import command", err, first.ID)
	}
}
