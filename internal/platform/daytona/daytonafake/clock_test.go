package daytonafake

import (
	"net/http"
	"testing"
	"time"
)

// Auto-stop, auto-archive and auto-delete run on the fake's clock, measured
// from the last activity (a stop counts as one), strictly after the
// interval.
func TestAutoLifecycle(t *testing.T) {
	cases := []struct {
		name   string
		body   map[string]any
		steps  []time.Duration // clock advances, one after the other
		states []string        // the view's state after each advance ("" = destroyed)
	}{
		{"auto-stop after 15 minutes by default", map[string]any{},
			[]time.Duration{15 * time.Minute, time.Second}, []string{stateStarted, stateStopped}},
		{"auto-stop disabled", map[string]any{"autoStopInterval": 0},
			[]time.Duration{30 * 24 * time.Hour}, []string{stateStarted}},
		{"stop then archive", map[string]any{"autoStopInterval": 10, "autoArchiveInterval": 60},
			[]time.Duration{11 * time.Minute, 58 * time.Minute, 2 * time.Minute}, []string{stateStopped, stateStopped, stateArchived}},
		{"archive after 7 days by default", map[string]any{"autoStopInterval": 1},
			[]time.Duration{2 * time.Minute, 7 * 24 * time.Hour}, []string{stateStopped, stateArchived}},
		{"stop then delete before archive", map[string]any{"autoStopInterval": 10, "autoDeleteInterval": 30},
			[]time.Duration{11 * time.Minute, 31 * time.Minute}, []string{stateStopped, ""}},
		{"ephemeral box deleted at auto-stop", map[string]any{"autoStopInterval": 5, "autoDeleteInterval": 0},
			[]time.Duration{6 * time.Minute}, []string{""}},
		{"one long jump does it all", map[string]any{"autoStopInterval": 5, "autoArchiveInterval": 60},
			[]time.Duration{48 * time.Hour}, []string{stateArchived}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, api, clock := newTest(t, Options{})
			id := api.createSandbox(tc.body).ID
			for i, d := range tc.steps {
				clock.Advance(d)
				v, _ := srv.Sandbox(id)
				got := v.State
				if v.Destroyed {
					got = ""
				}
				if got != tc.states[i] {
					t.Fatalf("after step %d: state %q, want %q", i, got, tc.states[i])
				}
			}
			api.checkClean()
		})
	}
}

// Activity resets the auto-stop timer.
func TestLastActivityPostponesAutoStop(t *testing.T) {
	srv, api, clock := newTest(t, Options{})
	id := api.createSandbox(map[string]any{"autoStopInterval": 10}).ID
	clock.Advance(9 * time.Minute)
	api.must(http.StatusCreated, "POST", "/sandbox/"+id+"/last-activity", nil)
	clock.Advance(9 * time.Minute)
	if v, _ := srv.Sandbox(id); v.State != stateStarted {
		t.Fatalf("state %s after activity", v.State)
	}
	clock.Advance(2 * time.Minute)
	if got := api.sandbox(id); got.State != stateStopped {
		t.Fatalf("state %s, want stopped", got.State)
	}
	api.checkClean()
}

// A snapshot nobody used for 14 days becomes inactive, and a sandbox
// create from it is refused; using it keeps it active.
func TestSnapshotDeactivation(t *testing.T) {
	srv, api, clock := newTest(t, Options{})
	unused := srv.SeedSnapshot(SnapshotSeed{Name: "unused"})
	used := srv.SeedSnapshot(SnapshotSeed{Name: "used"})
	general := srv.SeedSnapshot(SnapshotSeed{Name: "general", General: true})
	clock.Advance(10 * 24 * time.Hour)
	api.createSandbox(map[string]any{"snapshot": "used", "autoStopInterval": 0})
	clock.Advance(4*24*time.Hour + deactivationCron) // the cron runs every 10 minutes
	for id, want := range map[string]string{unused: snapInactive, used: snapActive, general: snapActive} {
		if got := api.snapshot(id); got.State != want {
			t.Errorf("snapshot %s: %s, want %s", id, got.State, want)
		}
	}
	api.refuse(http.StatusBadRequest, "Snapshot unused is inactive", "POST", "/sandbox", map[string]any{"snapshot": "unused"})
	clock.Advance(10 * 24 * time.Hour)
	if v, _ := srv.Snapshot(used); v.State != snapInactive {
		t.Errorf("used snapshot after 14 idle days: %s", v.State)
	}
	api.checkClean()
}

// Interval updates follow the server's rules: auto-archive 0 is the
// maximum, larger values clamp to it; auto-delete takes any value.
func TestIntervals(t *testing.T) {
	cases := []struct {
		path string
		max  int
		want func(sandboxOut) int
		val  int
	}{
		{"autoarchive/0", 0, func(s sandboxOut) int { return s.AutoArchiveInterval }, 43200},
		{"autoarchive/99999", 0, func(s sandboxOut) int { return s.AutoArchiveInterval }, 43200},
		{"autoarchive/99999", 1000, func(s sandboxOut) int { return s.AutoArchiveInterval }, 1000},
		{"autoarchive/120", 0, func(s sandboxOut) int { return s.AutoArchiveInterval }, 120},
		{"autostop/0", 0, func(s sandboxOut) int { return s.AutoStopInterval }, 0},
		{"autodelete/-1", 0, func(s sandboxOut) int { return s.AutoDeleteInterval }, -1},
		{"autodelete/60", 0, func(s sandboxOut) int { return s.AutoDeleteInterval }, 60},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			_, api, _ := newTest(t, Options{MaxAutoArchiveMinutes: tc.max})
			id := api.createSandbox(nil).ID
			var out sandboxOut
			api.must(http.StatusOK, "POST", "/sandbox/"+id+"/"+tc.path, nil).decode(t, &out)
			if got := tc.want(out); got != tc.val {
				t.Fatalf("%d, want %d", got, tc.val)
			}
			api.checkClean()
		})
	}
}

// The deactivation cron runs every 10 minutes: a snapshot past its
// deadline stays active until the next run; an activation makes it active
// with a full window again (every move to active sets lastUsedAt).
func TestSnapshotDeactivationCron(t *testing.T) {
	srv, api, clock := newTest(t, Options{})
	id := srv.SeedSnapshot(SnapshotSeed{Name: "tpl"})
	clock.Advance(14*24*time.Hour + time.Second)
	if got := api.snapshot(id); got.State != snapActive {
		t.Fatalf("before the cron's run: %s, want active", got.State)
	}
	clock.Advance(deactivationCron)
	if got := api.snapshot(id); got.State != snapInactive {
		t.Fatalf("after the cron's run: %s, want inactive", got.State)
	}
	clock.Advance(deactivationCron) // activation is refused for 10 minutes after a deactivation
	api.must(http.StatusOK, http.MethodPost, "/snapshots/"+id+"/activate", nil)
	srv.SettleAll()
	activatedAt := clock.Now()
	if got := api.snapshot(id); got.State != snapActive || got.LastUsedAt == nil {
		t.Fatalf("after activation: %s, last used %v; want active and last used now", got.State, got.LastUsedAt)
	}
	clock.Advance(13 * 24 * time.Hour)
	if got := api.snapshot(id); got.State != snapActive {
		t.Fatalf("13 days after activation: %s, want active", got.State)
	}
	clock.Set(activatedAt.Add(14*24*time.Hour + deactivationCron))
	if got := api.snapshot(id); got.State != snapInactive {
		t.Fatalf("14 days after activation, unused: %s, want inactive", got.State)
	}
}
