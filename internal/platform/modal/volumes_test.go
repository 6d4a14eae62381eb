package modal

import (
	"errors"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
)

func TestVolumeLifecycle(t *testing.T) {
	f := newFixture(t, false)
	vols := f.p.Volumes()
	vol, err := vols.Create(f.ctx, platform.VolumeSpec{Name: "data"})
	if err != nil || vol.ID != "data" || vol.Name != "data" || !vol.Managed {
		t.Fatalf("Create = %+v, %v", vol, err)
	}
	if v, ok := f.w.Volume("data"); !ok || v.Version != 2 {
		t.Fatalf("fake volume = %+v, %v; want a v2 volume", v, ok)
	}
	if id, ok := f.p.Extensions().IDs.PlannedID(platform.KindVolume, "data"); !ok || id != vol.ID {
		t.Fatalf("PlannedID = %q, %v", id, ok)
	}
	if got, err := vols.Get(f.ctx, "data"); err != nil || got.ID != "data" {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	if got, err := vols.List(f.ctx, platform.VolumeFilter{Name: "data"}); err != nil || len(got) != 1 {
		t.Fatalf("List by name = %+v, %v", got, err)
	}
	for i := range 2 { // the second finds it gone
		if err := vols.Delete(f.ctx, "data"); err != nil {
			t.Fatalf("delete %d: %v", i, err)
		}
	}
	if _, err := vols.Get(f.ctx, "data"); !platform.IsNotFound(err) {
		t.Fatalf("Get after delete: %v", err)
	}
	if got, err := vols.List(f.ctx, platform.VolumeFilter{Name: "data"}); err != nil || len(got) != 0 {
		t.Fatalf("List after delete = %+v, %v", got, err)
	}
}

func TestVolumeTakenName(t *testing.T) {
	tests := []struct {
		name  string
		taken func(f *fixture)
	}{
		{name: "made by hand", taken: func(f *fixture) { f.w.CreateVolume("shared") }},
		{name: "made by another create", taken: func(f *fixture) {
			if _, err := f.p.Volumes().Create(f.ctx, platform.VolumeSpec{Name: "shared"}); err != nil {
				panic(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, false)
			tt.taken(f)
			_, err := f.p.Volumes().Create(f.ctx, platform.VolumeSpec{Name: "shared"})
			var no *platform.NotOwnedError
			if !errors.As(err, &no) || no.ID != "shared" {
				t.Fatalf("Create = %v, want not owned", err)
			}
		})
	}
}

func TestVolumeMounts(t *testing.T) {
	f := newFixture(t, false)
	for _, name := range []string{"ro", "rw"} {
		if _, err := f.p.Volumes().Create(f.ctx, platform.VolumeSpec{Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	sb := f.box(t, platform.SandboxSpec{VolumeMounts: []platform.VolumeMount{
		{VolumeID: "ro", Path: "/ro", ReadOnly: true, Subpath: "cache"},
		{VolumeID: "rw", Path: "/rw"},
	}})
	v, _ := f.w.Sandbox(sb.ID)
	roID, rwID := volumeID(t, f.w, "ro"), volumeID(t, f.w, "rw")
	want := map[string]modalfake.MountView{
		"/ro": {VolumeID: roID, Path: "/ro", ReadOnly: true, SubPath: "cache"},
		"/rw": {VolumeID: rwID, Path: "/rw"},
	}
	if len(v.Mounts) != 2 {
		t.Fatalf("mounts = %+v", v.Mounts)
	}
	for _, m := range v.Mounts {
		if m != want[m.Path] {
			t.Fatalf("mount %s = %+v, want %+v", m.Path, m, want[m.Path])
		}
	}
	_, err := f.p.Sandboxes().Create(f.ctx, platform.SandboxSpec{TemplateID: f.template(t),
		VolumeMounts: []platform.VolumeMount{{VolumeID: "nope", Path: "/x"}}})
	if !platform.IsNotFound(err) {
		t.Fatalf("mount of a missing volume: %v", err)
	}
}

func volumeID(t *testing.T, w *modalfake.Workspace, name string) string {
	t.Helper()
	v, ok := w.Volume(name)
	if !ok {
		t.Fatalf("no volume %s", name)
	}
	return v.ID
}

// TestVolumeBadName: a name Modal would refuse is an error naming the rule
// before Modal is asked anything.
func TestVolumeBadName(t *testing.T) {
	f := newFixture(t, false)
	for _, name := range []string{"has space", strings.Repeat("v", 65)} {
		_, err := f.p.Volumes().Create(f.ctx, platform.VolumeSpec{Name: name})
		if err == nil || !strings.Contains(err.Error(), "name = ") {
			t.Errorf("Create(%q) = %v, want the name refused", name, err)
		}
	}
	if n := f.w.Calls("VolumeGetOrCreate"); n != 0 {
		t.Errorf("Modal was asked %d times; a bad name is refused before", n)
	}
}

// TestVolumeCreateAnswerLost: a create whose every answer is lost after
// Modal made the volume keeps it (the name was free just before); one
// refused outright, or lost before Modal acted, makes nothing and says
// applying again is safe.
func TestVolumeCreateAnswerLost(t *testing.T) {
	lost := modalfake.Step{DropAnswer: true}
	cut := modalfake.Step{Code: codes.Unavailable}
	tests := []struct {
		name string
		// steps follow the name lookup's call, which goes through.
		steps    []modalfake.Step
		wantErr  string
		wantMade bool
	}{
		{name: "every answer lost after acting", steps: []modalfake.Step{lost, lost, lost, lost}, wantMade: true},
		{name: "every attempt cut before acting", steps: []modalfake.Step{cut, cut, cut, cut}, wantErr: "applying again is safe"},
		{name: "refused", steps: []modalfake.Step{{Code: codes.InvalidArgument}}, wantErr: `creating Modal volume "data"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, false)
			f.w.Sequence("VolumeGetOrCreate", append([]modalfake.Step{{}}, tt.steps...)...)
			vol, err := f.p.Volumes().Create(f.ctx, platform.VolumeSpec{Name: "data"})
			_, made := f.w.Volume("data")
			if made != tt.wantMade {
				t.Fatalf("volume made = %v, want %v (Create = %+v, %v)", made, tt.wantMade, vol, err)
			}
			if tt.wantErr == "" {
				if err != nil || vol.ID != "data" {
					t.Fatalf("Create = %+v, %v; want the volume kept", vol, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Create error = %v, want it to say %q", err, tt.wantErr)
			}
		})
	}
}
