package daytona

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
)

func TestVolumes(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	ctx := context.Background()
	vol, err := f.p.Volumes().Create(ctx, platform.VolumeSpec{Name: "data"})
	if err != nil {
		t.Fatal(err)
	}
	if vol.State != "ready" || vol.Name != "data" || vol.CreatedAt.IsZero() {
		t.Errorf("volume %+v", vol)
	}
	// A taken name names the volume to import.
	_, err = f.p.Volumes().Create(ctx, platform.VolumeSpec{Name: "data"})
	var no *platform.NotOwnedError
	if !errors.As(err, &no) || no.ID != vol.ID || !strings.Contains(err.Error(), "terraform import") {
		t.Fatalf("taken name: %v", err)
	}
	sb := f.box(t, "", platform.SandboxSpec{VolumeMounts: []platform.VolumeMount{{VolumeID: vol.ID, Path: "/data", Subpath: "a/b"}}})
	if len(sb.VolumeMounts) != 1 || sb.VolumeMounts[0].Subpath != "a/b" || sb.VolumeMounts[0].VolumeID != vol.ID {
		t.Errorf("mounts %+v", sb.VolumeMounts)
	}
	// attached_to comes from the sandbox list, which may miss a box made a
	// moment ago (one list, in the fake): a later read has it.
	var got *platform.Volume
	for reads := 0; reads < 2 && (got == nil || len(got.AttachedTo) == 0); reads++ {
		if got, err = f.p.Volumes().Get(ctx, vol.ID); err != nil {
			t.Fatal(err)
		}
	}
	if len(got.AttachedTo) != 1 || got.AttachedTo[0] != sb.ID {
		t.Fatalf("attached: %+v", got)
	}
	// Mounted: the delete waits (bounded) and then names the box.
	err = f.p.Volumes().Delete(ctx, vol.ID)
	if err == nil || !strings.Contains(err.Error(), sb.ID) {
		t.Fatalf("delete of a mounted volume: %v", err)
	}
	if n := f.srv.Requests("DELETE /volumes/{volumeId}"); n < 2 {
		t.Errorf("%d delete requests: the 409 was not retried", n)
	}
	if err := f.p.Sandboxes().Delete(ctx, sb.ID); err != nil {
		t.Fatal(err)
	}
	if err := f.p.Volumes().Delete(ctx, vol.ID); err != nil {
		t.Fatalf("delete after the box went: %v", err)
	}
	if err := f.p.Volumes().Delete(ctx, vol.ID); err != nil {
		t.Fatalf("second delete: %v", err)
	}
}

func TestLostVolumeCreate(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	f.srv.Inject("POST /volumes", daytonafake.Fault{DropAfterHandling: true})
	vol, err := f.p.Volumes().Create(context.Background(), platform.VolumeSpec{Name: "lost"})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.srv.Volumes()); n != 1 || vol.Name != "lost" {
		t.Errorf("%d volumes, %+v", n, vol)
	}
}

// TestSnapshotStateRules: Daytona snapshots only started or stopped
// boxes, Windows ones by kind; the box ends in the state it had.
func TestSnapshotStateRules(t *testing.T) {
	cases := []struct {
		name    string
		class   string
		state   platform.SandboxState
		memory  bool
		moves   int // lifecycle requests (start, stop, pause, archive) made
		errHas  string
		archive bool
	}{
		{name: "started container", state: platform.StateRunning},
		{name: "stopped container", state: platform.StateStopped},
		{name: "paused vm: resumed, paused again", class: "linux-vm", state: platform.StatePaused, moves: 2},
		{name: "archived container: started, stopped and archived again", state: platform.StateStopped, archive: true, moves: 3},
		{name: "windows filesystem of a started box: stopped, started again", class: classWindows, state: platform.StateRunning, moves: 2},
		{name: "windows memory of a stopped box: started, stopped again", class: classWindows, state: platform.StateStopped, memory: true, moves: 2},
		{name: "memory of a container refused", state: platform.StateRunning, memory: true, errHas: "windows class"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, daytonafake.Options{})
			ctx := context.Background()
			tpl := ""
			if c.class != "" {
				tpl = f.seedClass("cls", c.class)
			}
			sb := f.box(t, tpl, platform.SandboxSpec{State: c.state})
			if c.archive {
				f.srv.ArchiveOutOfBand(sb.ID)
				f.srv.SettleAll()
				sb, _ = f.p.Sandboxes().Get(ctx, sb.ID)
			}
			moves := func() int {
				n := 0
				for _, a := range []string{"start", "stop", "pause", "archive"} {
					n += f.srv.Requests("POST /sandbox/{sandboxIdOrName}/" + a)
				}
				return n
			}
			before := moves()
			snap, err := f.p.Snapshots().Create(ctx, platform.SnapshotSpec{SandboxID: sb.ID, Name: "snap-1", IncludeMemory: c.memory})
			if c.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), c.errHas) {
					t.Fatalf("err %v, want %q", err, c.errHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if snap.ID == "" || snap.SandboxID != sb.ID || snap.CreatedAt.IsZero() {
				t.Errorf("snapshot %+v", snap)
			}
			if n := moves() - before; n != c.moves {
				t.Errorf("%d lifecycle requests, want %d", n, c.moves)
			}
			after, err := f.p.Sandboxes().Get(ctx, sb.ID)
			if err != nil || after.PlatformStatus != sb.PlatformStatus {
				t.Errorf("box left %s, was %s (%v)", after.PlatformStatus, sb.PlatformStatus, err)
			}
			// The snapshot starts a new box.
			nb := f.box(t, "", platform.SandboxSpec{})
			_ = nb
			restored, err := f.p.Sandboxes().Create(ctx, platform.SandboxSpec{FromSnapshotID: snap.ID})
			if err != nil || restored.FromSnapshotID != snap.ID {
				t.Fatalf("restore: %+v %v", restored, err)
			}
			if err := f.p.Snapshots().Delete(ctx, snap.ID); err != nil {
				t.Errorf("delete: %v", err)
			}
		})
	}
}

func TestLostSnapshotCreate(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	sb := f.box(t, "", platform.SandboxSpec{})
	f.srv.Inject("POST /sandbox/{sandboxIdOrName}/snapshot", daytonafake.Fault{DropAfterHandling: true})
	snap, err := f.p.Snapshots().Create(context.Background(), platform.SnapshotSpec{SandboxID: sb.ID, Name: "lost-snap"})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range f.srv.Snapshots() {
		if s.Name == "lost-snap" {
			n++
		}
	}
	if n != 1 || snap.Name != "lost-snap" {
		t.Errorf("%d snapshots named lost-snap", n)
	}
	if r := f.srv.Requests("POST /sandbox/{sandboxIdOrName}/snapshot"); r != 1 {
		t.Errorf("%d snapshot requests", r)
	}
}

func TestSnapshotRules(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	ctx := context.Background()
	box := f.box(t, "", platform.SandboxSpec{})
	win := f.box(t, f.seedClass("win", classWindows), platform.SandboxSpec{})
	rules := f.p.Extensions().SnapshotRules
	if p := rules.CheckSnapshot(ctx, platform.SnapshotSpec{SandboxID: box.ID, IncludeMemory: true}); len(p) != 1 || p[0].Attribute != "include_memory" {
		t.Errorf("container with memory: %+v", p)
	}
	if p := rules.CheckSnapshot(ctx, platform.SnapshotSpec{SandboxID: win.ID, IncludeMemory: true}); len(p) != 0 {
		t.Errorf("windows with memory: %+v", p)
	}
	if p := rules.CheckSnapshot(ctx, platform.SnapshotSpec{SandboxID: box.ID}); len(p) != 0 {
		t.Errorf("filesystem: %+v", p)
	}
}

// TestLostVolumeCreateNotListed: the first send made the volume but the
// lookups miss it; the second send is refused as a taken name and the
// volume is found by it: one volume.
func TestLostVolumeCreateNotListed(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	f.srv.Inject("POST /volumes", daytonafake.Fault{DropAfterHandling: true})
	// The name check before the create, then every lookup, miss it.
	f.srv.Inject("GET /volumes/by-name/{name}", daytonafake.Fault{Status: 404, Times: 6})
	vol, err := f.p.Volumes().Create(context.Background(), platform.VolumeSpec{Name: "lagging"})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.srv.Volumes()); n != 1 || vol.Name != "lagging" {
		t.Errorf("%d volumes, %+v", n, vol)
	}
	if n := f.srv.Requests("POST /volumes"); n != 2 {
		t.Errorf("%d creates, want 2", n)
	}
}

// TestSnapshotList: every page, newest first; a filter on labels matches
// nothing (Daytona snapshots carry none) and one on the source is refused.
func TestSnapshotList(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	ctx := context.Background()
	sb := f.box(t, "", platform.SandboxSpec{})
	for _, n := range []string{"s1", "s2"} {
		if _, err := f.p.Snapshots().Create(ctx, platform.SnapshotSpec{SandboxID: sb.ID, Name: n}); err != nil {
			t.Fatal(err)
		}
		f.clock.Advance(time.Minute)
	}
	all, err := f.p.Snapshots().List(ctx, platform.SnapshotFilter{})
	if err != nil || len(all) != 2 || all[0].Name != "s2" {
		t.Fatalf("list: %+v %v", all, err)
	}
	// Daytona records no source: a source filter is refused, never an
	// empty answer that would read as "no snapshots".
	if by, err := f.p.Snapshots().List(ctx, platform.SnapshotFilter{SandboxID: sb.ID}); !errors.Is(err, platform.ErrUnsupported) {
		t.Errorf("by source: %+v %v, want an unsupported error", by, err)
	}
	if by, err := f.p.Snapshots().List(ctx, platform.SnapshotFilter{Labels: map[string]string{"a": "b"}}); err != nil || len(by) != 0 {
		t.Errorf("by labels: %+v %v, want none", by, err)
	}
	one, err := f.p.Snapshots().List(ctx, platform.SnapshotFilter{Name: "s1"})
	if err != nil || len(one) != 1 || one[0].Name != "s1" {
		t.Errorf("by name: %+v %v", one, err)
	}
}
