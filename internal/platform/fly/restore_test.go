package fly

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
)

// TestRestoreSizeInGB: Fly reports a snapshot's volume_size in bytes; a
// restore without size_gb asks for the source volume's size in GB, never
// the bytes (which Fly refuses: size_gb is 1 to 500).
func TestRestoreSizeInGB(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, flyfake.Options{}, Config{})
	src := f.volume(t, platform.VolumeSpec{Name: "src", SizeGB: 3})
	sn, err := f.p.Snapshots().Create(ctx, platform.SnapshotSpec{VolumeID: src.ID})
	if err != nil {
		t.Fatal(err)
	}
	restored, err := f.p.Volumes().Create(ctx, platform.VolumeSpec{Name: "restored", FromSnapshotID: sn.ID})
	if err != nil {
		t.Fatal(err)
	}
	if fv, _ := f.srv.Volume(restored.ID); fv.SizeGB != 3 {
		t.Fatalf("restored into %d GB, want the source's 3", fv.SizeGB)
	}
}

func TestSnapshotGB(t *testing.T) {
	cases := []struct {
		volumeSize, size, want int64
	}{
		{volumeSize: 3 << 30, size: 1 << 28, want: 3},
		{volumeSize: 3<<30 + 1, size: 0, want: 4},
		{volumeSize: 0, size: 1<<30 + 5, want: 2}, // no volume_size: the bytes, rounded up
		{volumeSize: 0, size: 0, want: 1},
	}
	for _, tc := range cases {
		if got := snapshotGB(&volumeSnapshot{VolumeSize: tc.volumeSize, Size: tc.size}); got != tc.want {
			t.Errorf("volume_size %d, size %d: %d GB, want %d", tc.volumeSize, tc.size, got, tc.want)
		}
	}
}

// TestRestoreWaitsForTheSnapshot: an on-demand snapshot is made after Fly
// answers (waiting, running, created); a restore from one not created yet
// waits for it rather than sending a create Fly refuses.
func TestRestoreWaitsForTheSnapshot(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, flyfake.Options{Polls: 3}, Config{})
	src := f.volume(t, platform.VolumeSpec{Name: "src", SizeGB: 2})
	snapID := f.srv.SnapshotOutOfBand(src.ID)
	restored, err := f.p.Volumes().Create(ctx, platform.VolumeSpec{Name: "restored", FromSnapshotID: snapshotID(src.ID, snapID)})
	if err != nil {
		t.Fatal(err)
	}
	fv, _ := f.srv.Volume(restored.ID)
	if fv.RestoredFrom != snapID || fv.SizeGB != 2 {
		t.Fatalf("restored %+v", fv)
	}
}

func TestVolumeRules(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, flyfake.Options{Instant: true}, Config{}) // Instant: the snapshot is created at once, the rules are the subject
	src := f.volume(t, platform.VolumeSpec{Name: "src", SizeGB: 3})
	snapID := snapshotID(src.ID, f.srv.SnapshotOutOfBand(src.ID))
	rules := f.p.Extensions().VolumeRules
	cases := []struct {
		name string
		spec platform.VolumeSpec
		want string // the attribute of the one problem; "" none
	}{
		{"name with a dash", platform.VolumeSpec{Name: "my-data"}, "name"},
		{"name of 31", platform.VolumeSpec{Name: strings.Repeat("a", 31)}, "name"},
		{"name with a dot", platform.VolumeSpec{Name: "a.b"}, "name"},
		{"name of 30 with capitals", platform.VolumeSpec{Name: "Data_" + strings.Repeat("a", 25)}, ""},
		{"restore below the source", platform.VolumeSpec{Name: "r", FromSnapshotID: snapID, SizeGB: 2}, "size_gb"},
		{"restore at the source's size", platform.VolumeSpec{Name: "r", FromSnapshotID: snapID, SizeGB: 3}, ""},
		{"restore without size", platform.VolumeSpec{Name: "r", FromSnapshotID: snapID}, ""},
		{"unknown values", platform.VolumeSpec{}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := rules.CheckVolume(ctx, tc.spec)
			switch {
			case tc.want == "" && len(got) != 0:
				t.Fatalf("problems %+v, want none", got)
			case tc.want != "" && (len(got) != 1 || got[0].Attribute != tc.want):
				t.Fatalf("problems %+v, want one on %s", got, tc.want)
			}
		})
	}
}

// TestSecondMountOfThisApply: a machine of this apply already mounts the
// volume: the error names it and says both sandboxes are of this apply,
// not that an apply was interrupted.
func TestSecondMountOfThisApply(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, flyfake.Options{}, Config{})
	v := f.volume(t, platform.VolumeSpec{Name: "shared"})
	mount := []platform.VolumeMount{{VolumeID: v.ID, Path: "/data"}}
	first := f.box(t, platform.SandboxSpec{Name: "one", VolumeMounts: mount})
	_, err := f.p.Sandboxes().Create(ctx, platform.SandboxSpec{Name: "two", TemplateID: f.template(t), VolumeMounts: mount, Marks: platform.NewMarks("tester")})
	if !errors.Is(err, platform.ErrConflict) || !strings.Contains(err.Error(), first.ID) || !strings.Contains(err.Error(), "this apply created") ||
		strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("err %v", err)
	}
}
