package retention

import (
	"fmt"
	"strings"
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
			name:   "a reported deadline wins over the computed timeout",
			obj:    Object{Platform: "enforced", Kind: Sandbox, State: StateRunning, StartedAt: t0, Timeout: 10 * time.Minute, PlatformExpiresAt: t0.Add(20 * time.Minute)},
			wantOK: true, wantAt: t0.Add(20 * time.Minute), wantRule: "running_sandbox", wantAct: ActionKill, enforced: true,
		},
		{
			name:   "a timeout beyond the runtime cap: the cap comes first, with on_timeout's action",
			obj:    Object{Platform: "enforced", Kind: Sandbox, State: StateRunning, StartedAt: t0, Timeout: 5 * time.Hour, OnTimeout: "pause"},
			wantOK: true, wantAt: t0.Add(time.Hour), wantRule: "max_runtime", wantAct: ActionPause, enforced: true,
		},
		{
			name:      "an override lifts the cap",
			overrides: map[string]time.Duration{"max_runtime": day},
			obj:       Object{Platform: "enforced", Kind: Sandbox, State: StateRunning, StartedAt: t0, Timeout: 5 * time.Hour},
			wantOK:    true, wantAt: t0.Add(5 * time.Hour), wantRule: "running_sandbox", wantAct: ActionKill, enforced: true,
		},
		{
			name:      "an override of 0 removes a default window",
			overrides: map[string]time.Duration{"max_runtime": 0},
			obj:       Object{Platform: "enforced", Kind: Sandbox, State: StateRunning, StartedAt: t0},
			wantOK:    true, wantAt: t0.Add(5 * time.Minute), wantRule: "running_sandbox", wantAct: ActionKill, enforced: true,
		},
		{
			name:   "paused: kept indefinitely",
			obj:    Object{Platform: "enforced", Kind: Sandbox, State: StatePaused, CreatedAt: t0, StateSince: t0},
			wantOK: false,
		},
		{
			name:      "paused with an override, counting from the row's moment",
			overrides: map[string]time.Duration{"paused_sandbox": 30 * day},
			obj:       Object{Platform: "enforced", Kind: Sandbox, State: StatePaused, CreatedAt: t0, StateSince: t0.Add(day)},
			wantOK:    true, wantAt: t0.Add(30 * day), wantRule: "paused_sandbox", wantAct: ActionDelete, enforced: true,
		},
		{
			name:      "one override changes the rows of every platform with the key",
			overrides: map[string]time.Duration{"paused_sandbox": 30 * day},
			obj:       Object{Platform: "tracked", Kind: Sandbox, State: StatePaused, CreatedAt: t0, StateSince: t0.Add(day)},
			wantOK:    true, wantAt: t0.Add(31 * day), wantRule: "paused_sandbox", wantAct: ActionDelete, enforced: false,
		},
		{
			name:   "tracked platform: nothing configured, no deadline",
			obj:    Object{Platform: "tracked", Kind: Sandbox, State: StateRunning, StartedAt: t0, LastUsedAt: t0, CreatedAt: t0},
			wantOK: false,
		},
		{
			name:   "tracked platform: a configured timeout is tracked, not enforced",
			obj:    Object{Platform: "tracked", Kind: Sandbox, State: StateRunning, StartedAt: t0, Timeout: time.Hour, OnTimeout: "stop"},
			wantOK: true, wantAt: t0.Add(time.Hour), wantRule: "running_sandbox", wantAct: ActionStop, enforced: false,
		},
		{
			name:   "snapshot: a reported expiry",
			obj:    Object{Platform: "enforced", Kind: Snapshot, State: KindMemory, CreatedAt: t0, PlatformExpiresAt: t0.Add(day)},
			wantOK: true, wantAt: t0.Add(day), wantRule: "memory_snapshot", wantAct: ActionDelete, enforced: true,
		},
		{
			name:   "snapshot: no reported expiry, no window",
			obj:    Object{Platform: "enforced", Kind: Snapshot, State: KindMemory, CreatedAt: t0},
			wantOK: false,
		},
		{
			name:   "template: deactivated 14 days after last use",
			obj:    Object{Platform: "enforced", Kind: Template, State: TemplateReady, CreatedAt: t0, LastUsedAt: t0.Add(day)},
			wantOK: true, wantAt: t0.Add(15 * day), wantRule: "unused_template", wantAct: ActionDeactivate, enforced: true,
		},
		{
			name:   "a platform the table does not hold",
			obj:    Object{Platform: "nope", Kind: Sandbox, State: StateRunning, StartedAt: t0},
			wantOK: false,
		},
		{
			name:   "a state no rule covers",
			obj:    Object{Platform: "enforced", Kind: Sandbox, State: "failed", StartedAt: t0, CreatedAt: t0},
			wantOK: false,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := testTable().NewPolicy(c.overrides)
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

// TestPolicyTable: a policy applies the table it was made from, and keeps
// its own copy of the overrides.
func TestPolicyTable(t *testing.T) {
	ov := map[string]time.Duration{"paused_sandbox": time.Hour}
	p, err := testTable().NewPolicy(ov)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(p.Table().Rules()), fmt.Sprint(testTable().Rules()); got != want {
		t.Errorf("Table() = %s, want %s", got, want)
	}
	ov["paused_sandbox"] = 5 * time.Hour
	if w := p.Window(testTracked[1]); w != time.Hour {
		t.Errorf("Window = %s after the caller changed its map, want 1h", w)
	}
	if w := p.Window(testEnforced[1]); w != time.Hour {
		t.Errorf("Window of a row without an override = %s, want the table's 1h", w)
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
	_, err := testTable().NewPolicy(map[string]time.Duration{"paused_sandbox": time.Hour, "pasued_sandbox": time.Hour, "zzz": time.Hour})
	if err == nil {
		t.Fatal("want an error for unknown keys")
	}
	for _, want := range []string{`"pasued_sandbox"`, `"zzz"`, "valid keys are max_runtime, memory_snapshot, old_template, paused_sandbox, running_sandbox, unused_template"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
	_, err = testTable().NewPolicy(map[string]time.Duration{"paused_sandbox": -time.Hour})
	if err == nil || !strings.Contains(err.Error(), "paused_sandbox") || !strings.Contains(err.Error(), "negative") {
		t.Errorf("negative override: err = %v", err)
	}
}

// TestParseOverrides: each override is parsed by duration.Parse (its
// forms are tested there), a negative one is refused, and an error names
// the key and the value.
func TestParseOverrides(t *testing.T) {
	cases := []struct {
		name    string
		in      map[string]string
		want    map[string]time.Duration
		wantErr []string
	}{
		{"hours", map[string]string{"paused_sandbox": "720h"}, map[string]time.Duration{"paused_sandbox": 720 * time.Hour}, nil},
		{"days", map[string]string{"paused_sandbox": "30d"}, map[string]time.Duration{"paused_sandbox": 30 * day}, nil},
		{"zero", map[string]string{"max_runtime": "0s"}, map[string]time.Duration{"max_runtime": 0}, nil},
		{"negative", map[string]string{"paused_sandbox": "-5h"}, nil, []string{"paused_sandbox", `"-5h"`, "negative"}},
		{"negative days", map[string]string{"paused_sandbox": "-2d"}, nil, []string{"paused_sandbox", `"-2d"`, "negative"}},
		{"garbage", map[string]string{"paused_sandbox": "soon"}, nil, []string{"paused_sandbox", `"soon"`, "Go duration"}},
		{"empty", map[string]string{"paused_sandbox": ""}, nil, []string{"paused_sandbox", "empty"}},
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
	p, err := testTable().NewPolicy(ov)
	if err != nil {
		t.Fatal(err)
	}
	d, ok := p.Deadline(Object{Platform: "enforced", Kind: Sandbox, State: StatePaused, CreatedAt: t0}, t0)
	if !ok || !d.At.Equal(t0.Add(30*day)) {
		t.Errorf("got %+v %v", d, ok)
	}
}
