package e2b

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

func TestVolumeLifecycleOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	vol, err := p.Volumes().Create(ctx, platform.VolumeSpec{Name: "work-data"})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	sb, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: e2bTestTemplate(t, p),
		VolumeMounts: []platform.VolumeMount{{VolumeID: vol.ID, Path: "/data"}}})
	if err != nil {
		t.Fatalf("sandbox with a mount: %v", err)
	}
	if v, _ := fake.Sandbox(sb.ID); len(v.VolumeMounts) != 1 || v.VolumeMounts[0].Name != "work-data" {
		t.Errorf("mounts sent = %+v, want the volume by name", v.VolumeMounts)
	}
	if len(sb.VolumeMounts) != 1 || sb.VolumeMounts[0].VolumeID != vol.ID {
		t.Errorf("mounts read back = %+v, want volume id %s", sb.VolumeMounts, vol.ID)
	}
	got, err := p.Volumes().Get(ctx, vol.ID)
	if err != nil || got.Name != "work-data" || len(got.AttachedTo) != 1 || got.AttachedTo[0] != sb.ID {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	list, err := p.Volumes().List(ctx, platform.VolumeFilter{Name: "work-data"})
	if err != nil || len(list) != 1 {
		t.Errorf("List = %+v, %v", list, err)
	}
	for name, spec := range map[string]platform.VolumeSpec{
		"size":   {Name: "a", SizeGB: 10},
		"labels": {Name: "b", Labels: map[string]string{"x": "y"}},
	} {
		if _, err := p.Volumes().Create(ctx, spec); !errors.Is(err, platform.ErrUnsupported) {
			t.Errorf("%s: %v, want unsupported", name, err)
		}
	}
	if err := p.Volumes().Delete(ctx, vol.ID); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := p.Volumes().Get(ctx, vol.ID); !platform.IsNotFound(err) {
		t.Errorf("Get after delete: %v", err)
	}
}

func TestVolumeCreateAnswerLostOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	fake.Inject("POST /volumes", e2bfake.Fault{DropAfterHandling: true})
	vol, err := p.Volumes().Create(context.Background(), platform.VolumeSpec{Name: "once"})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if all := fake.Volumes(); len(all) != 1 || all[0].ID != vol.ID {
		t.Errorf("fake volumes = %+v, want exactly %s", all, vol.ID)
	}
}

func TestVolumesNotEnabledOnFake(t *testing.T) {
	p, _ := e2bTestPlatform(t, e2bfake.Options{VolumesDisabled: true})
	_, err := p.Volumes().Create(context.Background(), platform.VolumeSpec{Name: "x"})
	if err == nil || !strings.Contains(err.Error(), "private beta") || !strings.Contains(err.Error(), "support") {
		t.Fatalf("err = %v, want the private-beta advice", err)
	}
}

func TestSnapshotsOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	box, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: e2bTestTemplate(t, p)})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := p.Snapshots().Create(ctx, platform.SnapshotSpec{SandboxID: box.ID, Name: "ckpt", IncludeMemory: true})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if snap.ID == "" || snap.Kind != platform.SnapshotMemory || snap.SandboxID != box.ID || snap.Name != "ckpt" {
		t.Errorf("snapshot = %+v", snap)
	}
	got, err := p.Snapshots().Get(ctx, snap.ID)
	if err != nil || got.ID != snap.ID {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	// Restore: a new box from the snapshot, whose own snapshot records lineage.
	child, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{FromSnapshotID: snap.ID})
	if err != nil {
		t.Fatalf("sandbox from snapshot: %v", err)
	}
	if child.FromSnapshotID != snap.ID {
		t.Errorf("child.FromSnapshotID = %q, want %q", child.FromSnapshotID, snap.ID)
	}
	grand, err := p.Snapshots().Create(ctx, platform.SnapshotSpec{SandboxID: child.ID, IncludeMemory: true})
	if err != nil || grand.ParentSnapshotID != snap.ID {
		t.Fatalf("snapshot of the restored box = %+v, %v; want parent %s", grand, err, snap.ID)
	}
	for name, spec := range map[string]platform.SnapshotSpec{
		"filesystem only": {SandboxID: box.ID},
		"volume":          {VolumeID: "v", IncludeMemory: true},
	} {
		if _, err := p.Snapshots().Create(ctx, spec); !errors.Is(err, platform.ErrUnsupported) {
			t.Errorf("%s: %v, want unsupported", name, err)
		}
	}
	if err := p.Snapshots().Delete(ctx, snap.ID); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := p.Snapshots().Get(ctx, snap.ID); !platform.IsNotFound(err) {
		t.Errorf("Get after delete: %v", err)
	}
	if len(fake.Snapshots()) != 1 {
		t.Errorf("fake snapshots = %+v, want only the grandchild", fake.Snapshots())
	}
}

func TestSnapshotsEveryPageOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	box, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: e2bTestTemplate(t, p)})
	if err != nil {
		t.Fatal(err)
	}
	const n = 150
	for i := range n {
		if _, err := p.Snapshots().Create(ctx, platform.SnapshotSpec{SandboxID: box.ID, Name: fmt.Sprintf("s%03d", i), IncludeMemory: true}); err != nil {
			t.Fatalf("snapshot %d: %v", i, err)
		}
	}
	before := fake.Requests("GET /snapshots")
	all, err := p.Snapshots().List(ctx, platform.SnapshotFilter{})
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	seen := map[string]bool{}
	for _, s := range all {
		seen[s.ID] = true
	}
	if len(all) != n || len(seen) != n {
		t.Errorf("List returned %d snapshots (%d distinct), want %d", len(all), len(seen), n)
	}
	if pages := fake.Requests("GET /snapshots") - before; pages < 2 {
		t.Errorf("List read %d pages, want every page (at least 2 for %d snapshots)", pages, n)
	}
}

func TestSandboxListEveryPageOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	tpl := e2bTestTemplate(t, p)
	const n = 120
	for range n {
		if _, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: tpl}); err != nil {
			t.Fatal(err)
		}
	}
	before := fake.Requests("GET /v2/sandboxes")
	all, err := p.Sandboxes().List(ctx, platform.SandboxFilter{})
	if err != nil || len(all) != n {
		t.Fatalf("List = %d sandboxes, %v; want %d", len(all), err, n)
	}
	if pages := fake.Requests("GET /v2/sandboxes") - before; pages < 2 {
		t.Errorf("List read %d pages, want at least 2", pages)
	}
}

// On E2B a second snapshot under a taken name becomes a new build of the
// same snapshot: two resources would share it and destroying one would
// delete the other's. The create is refused, naming the snapshot to import.
func TestSnapshotTakenNameRefusedOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	tpl := e2bTestTemplate(t, p)
	first, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: tpl})
	if err != nil {
		t.Fatal(err)
	}
	second, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: tpl})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := p.Snapshots().Create(ctx, platform.SnapshotSpec{SandboxID: first.ID, Name: "nightly", IncludeMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Snapshots().Create(ctx, platform.SnapshotSpec{SandboxID: second.ID, Name: "nightly", IncludeMemory: true})
	if !errors.Is(err, platform.ErrConflict) || !strings.Contains(err.Error(), snap.ID) {
		t.Fatalf("second snapshot named nightly: %v; want a conflict naming %s", err, snap.ID)
	}
	if n := fake.Requests("POST /sandboxes/{sandboxID}/snapshots"); n != 1 {
		t.Errorf("snapshot creates sent = %d, want 1", n)
	}
	if _, err := p.Snapshots().Create(ctx, platform.SnapshotSpec{SandboxID: second.ID, Name: "nightly-2", IncludeMemory: true}); err != nil {
		t.Errorf("another name: %v", err)
	}
}

// A volume name in use (another state's volume, one made by hand) is never
// taken over: the create fails naming it, sends nothing, and the volume is
// untouched. E2B volumes carry no labels, so only "it was not there before
// this create" proves a volume is this create's.
func TestVolumeTakenNameRefusedOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	theirs, err := p.Volumes().Create(ctx, platform.VolumeSpec{Name: "shared"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Volumes().Create(ctx, platform.VolumeSpec{Name: "shared"})
	var notOwned *platform.NotOwnedError
	if !errors.As(err, &notOwned) || notOwned.ID != theirs.ID || !strings.Contains(err.Error(), "terraform import") {
		t.Fatalf("second create of a taken name: %v; want a NotOwnedError naming %s", err, theirs.ID)
	}
	if n := fake.Requests("POST /volumes"); n != 1 {
		t.Errorf("volume creates sent = %d, want 1", n)
	}
	if all := fake.Volumes(); len(all) != 1 || all[0].ID != theirs.ID {
		t.Errorf("fake volumes = %+v, want only %s", all, theirs.ID)
	}
}
