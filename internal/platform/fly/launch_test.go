package fly

import (
	"context"
	"net/http"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
)

const (
	routeStart = "POST /apps/{app_name}/machines/{machine_id}/start"
	routeWait  = "GET /apps/{app_name}/machines/{machine_id}/wait"
)

// TestCreateWaitsForTheLaunch: a create without skip_launch launches the
// machine (Fly answers "created" while it boots); the provider waits for
// the launch with GET .../wait and never POSTs /start to it, which Fly
// refuses with 412 "machine still active, refusing to start". Only a box
// wanted stopped is made with skip_launch, and reads as stopped.
func TestCreateWaitsForTheLaunch(t *testing.T) {
	cases := []struct {
		want                  platform.SandboxState
		launch                string
		starts, minWaits      int
		afterCreateFlyStateIs string
	}{
		{want: platform.StateRunning, launch: launchLaunched, starts: 0, minWaits: 1, afterCreateFlyStateIs: flyfake.StateStarted},
		{want: platform.StatePaused, launch: launchLaunched, starts: 0, minWaits: 2, afterCreateFlyStateIs: flyfake.StateSuspended},
		{want: platform.StateStopped, launch: launchSkipped, starts: 0, minWaits: 0, afterCreateFlyStateIs: flyfake.StateCreated},
	}
	for _, tc := range cases {
		t.Run(string(tc.want), func(t *testing.T) {
			f := newFixture(t, flyfake.Options{}, Config{})
			sb := f.box(t, platform.SandboxSpec{State: tc.want})
			if sb.Status != tc.want {
				t.Fatalf("status %s, want %s", sb.Status, tc.want)
			}
			if n := f.srv.Requests(routeStart); n != tc.starts {
				t.Fatalf("%d POST .../start, want %d", n, tc.starts)
			}
			if n := f.srv.Requests(routeWait) + f.srv.Requests(flyfake.RouteWaitSuspended); n < tc.minWaits {
				t.Fatalf("%d GET .../wait, want at least %d", n, tc.minWaits)
			}
			m, _ := f.srv.Machine(sb.ID)
			if m.State != tc.afterCreateFlyStateIs || m.Metadata[labelLaunch] != tc.launch {
				t.Fatalf("machine %s, %s=%q; want %s, %q", m.State, labelLaunch, m.Metadata[labelLaunch], tc.afterCreateFlyStateIs, tc.launch)
			}
		})
	}
}

// TestLaunchingMachineReadsStarting: a machine the provider created to
// launch reads as starting while Fly still says "created"; one created
// with skip_launch reads as stopped.
func TestLaunchingMachineReadsStarting(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, flyfake.Options{Polls: 3}, Config{})
	md := map[string]string{platform.LabelManaged: "true", labelLaunch: launchLaunched}
	var m machine
	body := createMachine{Config: machineConfig{Image: "alpine", Metadata: md}}
	if _, err := f.p.do(ctx, http.MethodPost, f.p.appPath("machines"), nil, body, &m); err != nil {
		t.Fatal(err)
	}
	sb, err := f.p.Sandboxes().Get(ctx, m.ID)
	if err != nil || sb.PlatformStatus != flyCreated || sb.Status != platform.StateStarting {
		t.Fatalf("%+v, %v: want created read as starting", sb, err)
	}
	stopped := f.box(t, platform.SandboxSpec{State: platform.StateStopped})
	if sb, err := f.p.Sandboxes().Get(ctx, stopped.ID); err != nil || sb.PlatformStatus != flyCreated || sb.Status != platform.StateStopped {
		t.Fatalf("%+v, %v: want created (skip_launch) read as stopped", sb, err)
	}
}

// TestStartOfAnUnmarkedLaunchingMachine: a "created" machine without the
// provider's launch mark (made by hand with flyctl, or by an older
// provider) reads as at rest; when Fly refuses its start because it is in
// fact launching, the provider waits for the launch instead of failing.
func TestStartOfAnUnmarkedLaunchingMachine(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, flyfake.Options{Polls: 3}, Config{})
	var m machine
	body := createMachine{Config: machineConfig{Image: "alpine", Metadata: map[string]string{platform.LabelManaged: "true"}}}
	if _, err := f.p.do(ctx, http.MethodPost, f.p.appPath("machines"), nil, body, &m); err != nil {
		t.Fatal(err)
	}
	sb, err := f.p.Sandboxes().SetState(ctx, m.ID, platform.StateRunning)
	if err != nil || sb.Status != platform.StateRunning {
		t.Fatalf("%+v, %v", sb, err)
	}
	if n := f.srv.Requests(routeStart); n != 1 {
		t.Fatalf("%d starts, want the one Fly refused", n)
	}
}

// TestUpdateAndDeleteWaitOutALaunch: an update or delete of a machine that
// is still launching waits for it (Fly refuses an update between states;
// a delete kills it).
func TestUpdateAndDeleteWaitOutALaunch(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, flyfake.Options{Polls: 3}, Config{})
	md := map[string]string{platform.LabelManaged: "true", labelLaunch: launchLaunched}
	mk := func() string {
		var m machine
		body := createMachine{Config: machineConfig{Image: "alpine", Metadata: md}}
		if _, err := f.p.do(ctx, http.MethodPost, f.p.appPath("machines"), nil, body, &m); err != nil {
			t.Fatal(err)
		}
		return m.ID
	}
	env := map[string]string{"A": "1"}
	id := mk()
	sb, err := f.p.Sandboxes().Update(ctx, id, platform.SandboxUpdate{Env: &env})
	if err != nil || sb.Status != platform.StateRunning || sb.Env["A"] != "1" {
		t.Fatalf("update: %+v, %v", sb, err)
	}
	id = mk()
	if err := f.p.Sandboxes().Delete(ctx, id); err != nil {
		t.Fatal(err)
	}
	if m, _ := f.srv.Machine(id); !m.Destroyed {
		t.Fatalf("machine %+v not destroyed", m)
	}
}

// TestUpdateWhoseAnswerWasLost: the update's first answer is lost after
// Fly applied it; the client sends it again while the machine is
// "updating", which Fly refuses (412); the provider waits for the machine
// to settle and sends the same config once more.
func TestUpdateWhoseAnswerWasLost(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, flyfake.Options{Polls: 3}, Config{})
	sb := f.box(t, platform.SandboxSpec{})
	f.srv.Inject("POST /apps/{app_name}/machines/{machine_id}", flyfake.Fault{DropAfterHandling: true})
	env := map[string]string{"A": "1"}
	got, err := f.p.Sandboxes().Update(ctx, sb.ID, platform.SandboxUpdate{Env: &env})
	if err != nil || got.Status != platform.StateRunning || got.Env["A"] != "1" {
		t.Fatalf("%+v, %v", got, err)
	}
}
