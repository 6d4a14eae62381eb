package retention

import (
	"strings"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func TestDeadline(t *testing.T) {
	cases := []struct {
		name      string
		overrides map[string]time.Duration
		obj       Object
		wantOK    bool
		wantAt    time.Time
		wantRule  string
		wantAct   Action
		enforced  bool
	}{
		{
			name:   "e2b reported endAt wins over the computed timeout",
			obj:    Object{Platform: E2B, Kind: Sandbox, State: StateRunning, StartedAt: t0, Timeout: 10 * time.Minute, PlatformExpiresAt: t0.Add(20 * time.Minute)},
			wantOK: true, wantAt: t0.Add(20 * time.Minute), wantRule: "running_sandbox", wantAct: ActionKill, enforced: true,
		},
		{
			name:   "e2b timeout beyond the base-tier runtime cap: the cap comes first",
			obj:    Object{Platform: E2B, Kind: Sandbox, State: StateRunning, StartedAt: t0, Timeout: 5 * time.Hour, OnTimeout: "pause"},
			wantOK: true, wantAt: t0.Add(time.Hour), wantRule: "max_runtime", wantAct: ActionPause, enforced: true,
		},
		{
			name:      "e2b pro tier lifts the runtime cap to 24h",
			overrides: TierOverrides(E2B, "pro"),
			obj:       Object{Platform: E2B, Kind: Sandbox, State: StateRunning, StartedAt: t0, Timeout: 5 * time.Hour},
			wantOK:    true, wantAt: t0.Add(5 * time.Hour), wantRule: "running_sandbox", wantAct: ActionKill, enforced: true,
		},
		{
			name:   "e2b paused: kept indefinitely",
			obj:    Object{Platform: E2B, Kind: Sandbox, State: StatePaused, CreatedAt: t0, StateSince: t0},
			wantOK: false,
		},
		{
			name:      "e2b paused with the old 30-day rule as an override",
			overrides: map[string]time.Duration{"paused_sandbox": 30 * day},
			obj:       Object{Platform: E2B, Kind: Sandbox, State: StatePaused, CreatedAt: t0, StateSince: t0.Add(day)},
			wantOK:    true, wantAt: t0.Add(30 * day), wantRule: "paused_sandbox", wantAct: ActionDelete, enforced: true,
		},
		{
			name:   "daytona stopped: archive after 7 days",
			obj:    Object{Platform: Daytona, Kind: Sandbox, State: StateStopped, StateSince: t0},
			wantOK: true, wantAt: t0.Add(week), wantRule: "stopped_sandbox", wantAct: ActionArchive, enforced: true,
		},
		{
			name:   "daytona stopped: auto-delete sooner than auto-archive",
			obj:    Object{Platform: Daytona, Kind: Sandbox, State: StateStopped, StateSince: t0, AutoDeleteAfter: 2 * day},
			wantOK: true, wantAt: t0.Add(2 * day), wantRule: "auto_delete", wantAct: ActionDelete, enforced: true,
		},
		{
			name:   "daytona auto-archive above 30 days is clamped",
			obj:    Object{Platform: Daytona, Kind: Sandbox, State: StateStopped, StateSince: t0, AutoArchiveAfter: 90 * day},
			wantOK: true, wantAt: t0.Add(30 * day), wantRule: "stopped_sandbox", wantAct: ActionArchive, enforced: true,
		},
		{
			name:      "an override above the max lifts the clamp",
			overrides: map[string]time.Duration{"stopped_sandbox": 60 * day},
			obj:       Object{Platform: Daytona, Kind: Sandbox, State: StateStopped, StateSince: t0, AutoArchiveAfter: 90 * day},
			wantOK:    true, wantAt: t0.Add(60 * day), wantRule: "stopped_sandbox", wantAct: ActionArchive, enforced: true,
		},
		{
			name:   "daytona running: idle auto-stop from last activity",
			obj:    Object{Platform: Daytona, Kind: Sandbox, State: StateRunning, StartedAt: t0, LastUsedAt: t0.Add(time.Hour)},
			wantOK: true, wantAt: t0.Add(time.Hour + 15*time.Minute), wantRule: "idle_sandbox", wantAct: ActionStop, enforced: true,
		},
		{
			name:   "daytona snapshot deactivated 14 days after last use",
			obj:    Object{Platform: Daytona, Kind: Snapshot, State: KindFilesystem, CreatedAt: t0, LastUsedAt: t0.Add(day)},
			wantOK: true, wantAt: t0.Add(15 * day), wantRule: "unused_snapshot", wantAct: ActionDeactivate, enforced: true,
		},
		{
			name:   "modal: idle timeout before the 300 s default timeout",
			obj:    Object{Platform: Modal, Kind: Sandbox, State: StateRunning, StartedAt: t0, LastUsedAt: t0, IdleTimeout: time.Minute},
			wantOK: true, wantAt: t0.Add(time.Minute), wantRule: "idle_sandbox", wantAct: ActionKill, enforced: true,
		},
		{
			name:   "modal: default timeout",
			obj:    Object{Platform: Modal, Kind: Sandbox, State: StateRunning, StartedAt: t0},
			wantOK: true, wantAt: t0.Add(300 * time.Second), wantRule: "running_sandbox", wantAct: ActionKill, enforced: true,
		},
		{
			name:   "modal memory snapshot: 7 days, a ttl does not extend it",
			obj:    Object{Platform: Modal, Kind: Snapshot, State: KindMemory, CreatedAt: t0, TTL: 30 * day},
			wantOK: true, wantAt: t0.Add(week), wantRule: "memory_snapshot", wantAct: ActionExpire, enforced: true,
		},
		{
			name:   "fly volume snapshot: 5 days by default",
			obj:    Object{Platform: Fly, Kind: Snapshot, State: KindVolume, CreatedAt: t0},
			wantOK: true, wantAt: t0.Add(5 * day), wantRule: "volume_snapshot", wantAct: ActionExpire, enforced: true,
		},
		{
			name:   "fly suspended machine: no fixed window",
			obj:    Object{Platform: Fly, Kind: Sandbox, State: StatePaused, StateSince: t0},
			wantOK: false,
		},
		{
			name:   "docker: nothing configured, no deadline",
			obj:    Object{Platform: Docker, Kind: Sandbox, State: StateRunning, StartedAt: t0, LastUsedAt: t0, CreatedAt: t0},
			wantOK: false,
		},
		{
			name:   "docker: a configured timeout is tracked, not enforced",
			obj:    Object{Platform: Docker, Kind: Sandbox, State: StateRunning, StartedAt: t0, Timeout: time.Hour, OnTimeout: "stop"},
			wantOK: true, wantAt: t0.Add(time.Hour), wantRule: "running_sandbox", wantAct: ActionStop, enforced: false,
		},
		{
			// A ttl counts from creation where a row takes it (Fly volume
			// snapshots); Docker and E2B refuse ttl at plan time.
			name:   "snapshot ttl",
			obj:    Object{Platform: Fly, Kind: Snapshot, State: KindVolume, CreatedAt: t0, TTL: 2 * day},
			wantOK: true, wantAt: t0.Add(2 * day), wantRule: "volume_snapshot", wantAct: ActionExpire, enforced: true,
		},
		{
			name:   "docker snapshot: no deadline",
			obj:    Object{Platform: Docker, Kind: Snapshot, State: KindFilesystem, CreatedAt: t0},
			wantOK: false,
		},
		{
			name:   "unknown platform",
			obj:    Object{Platform: "nope", Kind: Sandbox, State: StateRunning, StartedAt: t0},
			wantOK: false,
		},
		{
			name:   "state no rule covers",
			obj:    Object{Platform: E2B, Kind: Sandbox, State: "failed", StartedAt: t0, CreatedAt: t0},
			wantOK: false,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := NewPolicy(c.overrides)
			if err != nil {
				t.Fatal(err)
			}
			// now must not change the answer: every window counts from a recorded time.
			for _, now := range []time.Time{t0, t0.Add(365 * day), {}} {
				d, ok := p.Deadline(c.obj, now)
				if ok != c.wantOK {
					t.Fatalf("now=%s: ok = %v, want %v (%+v)", now, ok, c.wantOK, d)
				}
				if !ok {
					continue
				}
				if !d.At.Equal(c.wantAt) || d.Rule != c.wantRule || d.Action != c.wantAct || d.Enforced != c.enforced || d.Source == "" {
					t.Fatalf("now=%s: got %+v, want at=%s rule=%s action=%s enforced=%v", now, d, c.wantAt, c.wantRule, c.wantAct, c.enforced)
				}
			}
		})
	}
}

func TestStatus(t *testing.T) {
	d := Deadline{At: t0}
	cases := []struct {
		name string
		ok   bool
		now  time.Time
		warn time.Duration
		want string
	}{
		{"no deadline", false, t0.Add(time.Hour), time.Hour, StatusOK},
		{"far away", true, t0.Add(-73 * time.Hour), 72 * time.Hour, StatusOK},
		{"exactly warn_before away", true, t0.Add(-72 * time.Hour), 72 * time.Hour, StatusExpiring},
		{"within warn_before", true, t0.Add(-time.Minute), 72 * time.Hour, StatusExpiring},
		{"at the deadline", true, t0, 72 * time.Hour, StatusExpired},
		{"past", true, t0.Add(time.Second), 72 * time.Hour, StatusExpired},
		{"no warning window", true, t0.Add(-time.Second), 0, StatusOK},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Status(d, c.ok, c.now, c.warn); got != c.want {
				t.Errorf("Status = %s, want %s", got, c.want)
			}
		})
	}
}

func TestNewPolicyErrors(t *testing.T) {
	_, err := NewPolicy(map[string]time.Duration{"paused_sandbox": time.Hour, "pasued_sandbox": time.Hour, "zzz": time.Hour})
	if err == nil {
		t.Fatal("want an error for unknown keys")
	}
	for _, want := range []string{`"pasued_sandbox"`, `"zzz"`, "valid keys are", "paused_sandbox", "volume_snapshot", "max_runtime"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
	_, err = NewPolicy(map[string]time.Duration{"paused_sandbox": -time.Hour})
	if err == nil || !strings.Contains(err.Error(), "paused_sandbox") || !strings.Contains(err.Error(), "negative") {
		t.Errorf("negative override: err = %v", err)
	}
}

func TestParseOverrides(t *testing.T) {
	cases := []struct {
		name    string
		in      map[string]string
		want    map[string]time.Duration
		wantErr []string
	}{
		{"hours", map[string]string{"paused_sandbox": "720h"}, map[string]time.Duration{"paused_sandbox": 720 * time.Hour}, nil},
		{"days", map[string]string{"paused_sandbox": "30d"}, map[string]time.Duration{"paused_sandbox": 30 * day}, nil},
		{"days and hours", map[string]string{"volume_snapshot": "1d12h"}, map[string]time.Duration{"volume_snapshot": 36 * time.Hour}, nil},
		{"fractional days", map[string]string{"volume_snapshot": "1.5d"}, map[string]time.Duration{"volume_snapshot": 36 * time.Hour}, nil},
		{"zero", map[string]string{"max_runtime": "0s"}, map[string]time.Duration{"max_runtime": 0}, nil},
		{"minutes", map[string]string{"idle_sandbox": " 90m "}, map[string]time.Duration{"idle_sandbox": 90 * time.Minute}, nil},
		{"negative", map[string]string{"paused_sandbox": "-5h"}, nil, []string{"paused_sandbox", `"-5h"`, "negative"}},
		{"negative days", map[string]string{"paused_sandbox": "-2d"}, nil, []string{"paused_sandbox", `"-2d"`, "negative"}},
		{"garbage", map[string]string{"paused_sandbox": "soon"}, nil, []string{"paused_sandbox", `"soon"`, "Go duration"}},
		{"no unit", map[string]string{"paused_sandbox": "30"}, nil, []string{"paused_sandbox", `"30"`}},
		{"empty", map[string]string{"paused_sandbox": ""}, nil, []string{"paused_sandbox", "empty"}},
		{"bare d", map[string]string{"paused_sandbox": "d"}, nil, []string{"paused_sandbox", "number of days"}},
		{"inf days", map[string]string{"paused_sandbox": "infd"}, nil, []string{"paused_sandbox", "number of days"}},
		{"too many days", map[string]string{"paused_sandbox": "200000d"}, nil, []string{"paused_sandbox", "more than"}},
		{"second sign", map[string]string{"paused_sandbox": "1d-5h"}, nil, []string{"paused_sandbox", "sign"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseOverrides(c.in)
			if c.wantErr != nil {
				if err == nil {
					t.Fatalf("got %v, want an error", got)
				}
				for _, w := range c.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not mention %s", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			for k, v := range c.want {
				if got[k] != v {
					t.Errorf("%s = %s, want %s", k, got[k], v)
				}
			}
		})
	}
}

func TestParsedOverridesFeedPolicy(t *testing.T) {
	ov, err := ParseOverrides(map[string]string{"paused_sandbox": "30d"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPolicy(ov)
	if err != nil {
		t.Fatal(err)
	}
	d, ok := p.Deadline(Object{Platform: E2B, Kind: Sandbox, State: StatePaused, CreatedAt: t0}, t0)
	if !ok || !d.At.Equal(t0.Add(30*day)) {
		t.Errorf("got %+v %v", d, ok)
	}
}

func TestFakeClock(t *testing.T) {
	c := NewFakeClock(t0)
	var _ Clock = c
	var _ Clock = SystemClock{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				c.Advance(time.Second)
				_ = c.Now()
			}
		}()
	}
	wg.Wait()
	if got := c.Now(); !got.Equal(t0.Add(800 * time.Second)) {
		t.Errorf("after concurrent advances Now = %s, want %s", got, t0.Add(800*time.Second))
	}
	c.Set(t0)
	if !c.Now().Equal(t0) {
		t.Errorf("Set did not move the clock")
	}
	if SystemClock.Now(SystemClock{}).IsZero() {
		t.Error("system clock returned zero time")
	}
}
