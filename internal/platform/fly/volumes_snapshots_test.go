package fly

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
)

func TestVolumeCreateGrowRetention(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, flyfake.Options{}, Config{Region: "ams"})
	v := f.volume(t, platform.VolumeSpec{Name: "data"})
	// Fly's defaults (1 GB, 5 days) read as unset: the volume reads as made
	// without them (toVolume); Fly holds them.
	if v.SizeGB != 0 || v.Region != "ams" || v.SnapshotRetentionDays != 0 {
		t.Fatalf("created %+v", v)
	}
	if fv, _ := f.srv.Volume(v.ID); fv.SizeGB != 1 || fv.SnapshotRetention != 5 {
		t.Fatalf("on Fly: %+v", fv)
	}
	sb := f.box(t, platform.SandboxSpec{VolumeMounts: []platform.VolumeMount{{VolumeID: v.ID, Path: "/data"}}})
	before, _ := f.srv.Machine(sb.ID)
	size, days := int64(3), int64(30)
	got, err := f.p.Volumes().Update(ctx, v.ID, platform.VolumeUpdate{SizeGB: &size, SnapshotRetentionDays: &days})
	if err != nil || got.SizeGB != 3 || got.SnapshotRetentionDays != 30 || len(got.AttachedTo) != 1 {
		t.Fatalf("updated %+v, %v", got, err)
	}
	after, _ := f.srv.Machine(sb.ID)
	if after.State != "started" || len(after.Events) <= len(before.Events) {
		t.Fatalf("machine not restarted: %+v", after)
	}
	small := int64(2)
	if _, err := f.p.Volumes().Update(ctx, v.ID, platform.VolumeUpdate{SizeGB: &small}); err == nil {
		t.Fatal("shrink accepted")
	}
	// Deleting a mounted volume is a clear conflict.
	err = f.p.Volumes().Delete(ctx, v.ID)
	if !errors.Is(err, platform.ErrConflict) {
		t.Fatalf("delete while mounted: %v", err)
	}
	if err := f.p.Sandboxes().Delete(ctx, sb.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.p.Sandboxes().Get(ctx, sb.ID); !platform.IsNotFound(err) {
		t.Fatalf("machine still there: %v", err)
	}
	if err := f.p.Volumes().Delete(ctx, v.ID); err != nil {
		t.Fatal(err)
	}
	if err := f.p.Volumes().Delete(ctx, v.ID); err != nil {
		t.Fatal("second delete:", err)
	}
}

func TestSnapshotCreateFindsItsOwn(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, flyfake.Options{}, Config{})
	v := f.volume(t, platform.VolumeSpec{Name: "data", SizeGB: 2})
	// A day passes: Fly takes its automatic snapshot, which the create
	// must not adopt.
	f.clock.Advance(25 * time.Hour)
	auto := f.srv.Snapshots(v.ID)
	if len(auto) != 1 || !auto[0].Automatic {
		t.Fatalf("automatic snapshots %+v", auto)
	}
	f.clock.Advance(time.Hour)
	sn, err := f.p.Snapshots().Create(ctx, platform.SnapshotSpec{VolumeID: v.ID})
	if err != nil {
		t.Fatal(err)
	}
	if sn.ID == snapshotID(v.ID, auto[0].ID) || sn.VolumeID != v.ID || sn.Kind != platform.SnapshotVolume {
		t.Fatalf("adopted %+v", sn)
	}
	if want := sn.CreatedAt.Add(5 * day); !sn.ExpiresAt.Equal(want) {
		t.Fatalf("expires %s, want %s", sn.ExpiresAt, want)
	}
	list, err := f.p.Snapshots().List(ctx, platform.SnapshotFilter{VolumeID: v.ID})
	if err != nil || len(list) != 2 || list[0].ID != sn.ID {
		t.Fatalf("list %+v, %v", list, err)
	}
	got, err := f.p.Snapshots().Get(ctx, sn.ID)
	if err != nil || got.ID != sn.ID {
		t.Fatalf("get %+v, %v", got, err)
	}
	if err := f.p.Snapshots().Delete(ctx, sn.ID); !errors.Is(err, platform.ErrUnsupported) {
		t.Fatalf("delete: %v", err)
	}
	// Restore into a new volume: at least the snapshot's size.
	if _, err := f.p.Volumes().Create(ctx, platform.VolumeSpec{Name: "small", SizeGB: 1, FromSnapshotID: sn.ID}); err == nil {
		t.Fatal("restore into a smaller volume accepted")
	}
	restored := f.volume(t, platform.VolumeSpec{Name: "restored", FromSnapshotID: sn.ID})
	if restored.SizeGB != 2 {
		t.Fatalf("restored %+v", restored)
	}
	view, _ := f.srv.Volume(restored.ID)
	if _, raw := parseSnapshotID(sn.ID); view.RestoredFrom != raw {
		t.Fatalf("restored from %q", view.RestoredFrom)
	}
	// Refused: a sandbox source.
	if _, err := f.p.Snapshots().Create(ctx, platform.SnapshotSpec{SandboxID: "m"}); !errors.Is(err, platform.ErrUnsupported) {
		t.Fatalf("sandbox snapshot: %v", err)
	}
}

func TestTemplateBuildIDIsItsImage(t *testing.T) {
	ctx := context.Background()
	tpl, err := templates{}.Create(ctx, platform.TemplateSpec{Name: "agent", Image: "registry.fly.io/agent:1"})
	if err != nil || tpl.BuildID != "registry.fly.io/agent:1" {
		t.Fatalf("created %+v, %v", tpl, err)
	}
	got, err := templates{}.Get(ctx, tpl.ID)
	if err != nil || got.BuildID != tpl.BuildID {
		t.Fatalf("read %+v, %v", got, err)
	}
}
