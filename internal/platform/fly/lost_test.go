package fly

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
)

// TestMachineNameTaken: a taken name is this create's machine only when it
// carries this create's token.
func TestMachineNameTaken(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, flyfake.Options{}, Config{})
	first := f.box(t, platform.SandboxSpec{Name: "web"})
	_, err := f.p.Sandboxes().Create(ctx, platform.SandboxSpec{Name: "web", TemplateID: f.template(t), Marks: platform.NewMarks("other")})
	var notOwned *platform.NotOwnedError
	if !errors.As(err, &notOwned) || notOwned.ID != first.ID {
		t.Fatalf("err %v", err)
	}
}

// TestLostAnswers: a create whose answer was lost finds what it made, and
// never makes a second one.
func TestLostAnswers(t *testing.T) {
	cases := []struct {
		name  string
		route string
		fault flyfake.Fault
		run   func(t *testing.T, f *fixture, volID string) error
		count func(f *fixture, volID string) int
	}{
		{name: "volume create dropped", route: "POST /apps/{app_name}/volumes", fault: flyfake.Fault{DropAfterHandling: true},
			run: func(t *testing.T, f *fixture, _ string) error {
				_, err := f.p.Volumes().Create(context.Background(), platform.VolumeSpec{Name: "data"})
				return err
			},
			count: func(f *fixture, _ string) int { return len(f.srv.Volumes()) - 1 }},
		{name: "volume create 408", route: "POST /apps/{app_name}/volumes", fault: flyfake.Fault{Status: http.StatusRequestTimeout, AfterHandling: true},
			run: func(t *testing.T, f *fixture, _ string) error {
				_, err := f.p.Volumes().Create(context.Background(), platform.VolumeSpec{Name: "data"})
				return err
			},
			count: func(f *fixture, _ string) int { return len(f.srv.Volumes()) - 1 }},
		{name: "snapshot create dropped", route: "POST /apps/{app_name}/volumes/{volume_id}/snapshots", fault: flyfake.Fault{DropAfterHandling: true},
			run: func(t *testing.T, f *fixture, volID string) error {
				sn, err := f.p.Snapshots().Create(context.Background(), platform.SnapshotSpec{VolumeID: volID})
				if err == nil && sn.VolumeID != volID {
					t.Errorf("snapshot %+v", sn)
				}
				return err
			},
			count: func(f *fixture, volID string) int { return len(f.srv.Snapshots(volID)) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, flyfake.Options{}, Config{})
			vol := f.volume(t, platform.VolumeSpec{Name: "base"})
			f.srv.Inject(tc.route, tc.fault)
			if err := tc.run(t, f, vol.ID); err != nil {
				t.Fatal(err)
			}
			if n := tc.count(f, vol.ID); n != 1 {
				t.Fatalf("%d made", n)
			}
		})
	}
}
