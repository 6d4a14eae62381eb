package retention

import (
	"fmt"
	"testing"
	"time"
)

// rowCase pins one table row: the numbers come from the platform notes, so
// a row changed or added without updating this list fails the test.
type rowCase struct {
	key, platform, object, state string
	window                       time.Duration
	since                        Since
	action                       Action
	setting                      Setting
	max                          time.Duration
	reported, enforced           bool
}

func rowID(key, platform, state string) string { return key + "|" + platform + "|" + state }

var rowCases = []rowCase{
	{"running_sandbox", Docker, Sandbox, StateRunning, 0, SinceStarted, ActionKill, SettingTimeout, 0, false, false},
	{"paused_sandbox", Docker, Sandbox, StatePaused, 0, SinceStateSince, ActionDelete, SettingNone, 0, false, false},
	{"stopped_sandbox", Docker, Sandbox, StateStopped, 0, SinceStateSince, ActionDelete, SettingNone, 0, false, false},
	{"auto_delete", Docker, Sandbox, StateStopped, 0, SinceStateSince, ActionDelete, SettingAutoDeleteAfter, 0, false, false},
	{"filesystem_snapshot", Docker, Snapshot, KindFilesystem, 0, SinceCreated, ActionExpire, SettingNone, 0, true, false},
	{"volume_snapshot", Docker, Snapshot, KindVolume, 0, SinceCreated, ActionExpire, SettingNone, 0, true, false},

	{"running_sandbox", E2B, Sandbox, StateRunning, 300 * time.Second, SinceStarted, ActionKill, SettingTimeout, 24 * time.Hour, true, true},
	{"max_runtime", E2B, Sandbox, StateRunning, time.Hour, SinceStarted, ActionKill, SettingNone, 24 * time.Hour, false, true},
	{"paused_sandbox", E2B, Sandbox, StatePaused, 0, SinceCreated, ActionDelete, SettingNone, 0, false, true},
	{"stopped_sandbox", E2B, Sandbox, StateStopped, 0, SinceCreated, ActionDelete, SettingNone, 0, false, true},
	{"filesystem_snapshot", E2B, Snapshot, KindFilesystem, 0, SinceCreated, ActionDelete, SettingNone, 0, true, true},
	{"memory_snapshot", E2B, Snapshot, KindMemory, 0, SinceCreated, ActionDelete, SettingNone, 0, true, true},

	{"idle_sandbox", Daytona, Sandbox, StateRunning, 15 * time.Minute, SinceLastUsed, ActionStop, SettingIdleTimeout, 0, false, true},
	{"paused_sandbox", Daytona, Sandbox, StatePaused, 0, SinceStateSince, ActionDelete, SettingNone, 0, false, true},
	{"stopped_sandbox", Daytona, Sandbox, StateStopped, 7 * 24 * time.Hour, SinceStateSince, ActionArchive, SettingAutoArchiveAfter, 30 * 24 * time.Hour, false, true},
	{"auto_delete", Daytona, Sandbox, StateStopped, 0, SinceStateSince, ActionDelete, SettingAutoDeleteAfter, 0, false, true},
	{"archived_sandbox", Daytona, Sandbox, StateArchived, 0, SinceStateSince, ActionDelete, SettingNone, 0, false, true},
	{"unused_snapshot", Daytona, Snapshot, KindFilesystem, 14 * 24 * time.Hour, SinceLastUsed, ActionDeactivate, SettingNone, 0, false, true},
	{"unused_snapshot", Daytona, Snapshot, KindMemory, 14 * 24 * time.Hour, SinceLastUsed, ActionDeactivate, SettingNone, 0, false, true},

	{"running_sandbox", Fly, Sandbox, StateRunning, 0, SinceStarted, ActionStop, SettingNone, 0, false, true},
	{"paused_sandbox", Fly, Sandbox, StatePaused, 0, SinceStateSince, ActionStop, SettingNone, 0, false, true},
	{"stopped_sandbox", Fly, Sandbox, StateStopped, 0, SinceStateSince, ActionDelete, SettingNone, 0, false, true},
	{"volume_snapshot", Fly, Snapshot, KindVolume, 5 * 24 * time.Hour, SinceCreated, ActionExpire, SettingTTL, 60 * 24 * time.Hour, true, true},

	{"running_sandbox", Modal, Sandbox, StateRunning, 300 * time.Second, SinceStarted, ActionKill, SettingTimeout, 24 * time.Hour, false, true},
	{"idle_sandbox", Modal, Sandbox, StateRunning, 0, SinceLastUsed, ActionKill, SettingIdleTimeout, 0, false, true},
	{"filesystem_snapshot", Modal, Snapshot, KindFilesystem, 30 * 24 * time.Hour, SinceCreated, ActionExpire, SettingTTL, 0, true, true},
	{"memory_snapshot", Modal, Snapshot, KindMemory, 7 * 24 * time.Hour, SinceCreated, ActionExpire, SettingNone, 0, true, true},
}

// rowTestObject returns an object the rule matches, with every anchor set to
// a distinct time so a rule counting from the wrong one is caught.
func rowTestObject(r Rule) Object {
	base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	return Object{
		Platform: r.Platform, Kind: r.Object, State: r.State,
		CreatedAt:  base,
		StartedAt:  base.Add(1 * time.Hour),
		StateSince: base.Add(2 * time.Hour),
		LastUsedAt: base.Add(3 * time.Hour),
	}
}

func setObjectSetting(o *Object, s Setting, d time.Duration) {
	switch s {
	case SettingTimeout:
		o.Timeout = d
	case SettingIdleTimeout:
		o.IdleTimeout = d
	case SettingAutoArchiveAfter:
		o.AutoArchiveAfter = d
	case SettingAutoDeleteAfter:
		o.AutoDeleteAfter = d
	case SettingTTL:
		o.TTL = d
	}
}

func TestTableEveryRowHasACase(t *testing.T) {
	cases := map[string]rowCase{}
	for _, c := range rowCases {
		id := rowID(c.key, c.platform, c.state)
		if _, dup := cases[id]; dup {
			t.Fatalf("duplicate case %s", id)
		}
		cases[id] = c
	}
	seen := map[string]bool{}
	for _, r := range table {
		id := rowID(r.Key, r.Platform, r.State)
		if seen[id] {
			t.Errorf("table has two rows %s", id)
		}
		seen[id] = true
		if _, ok := cases[id]; !ok {
			t.Errorf("row %s has no case in rowCases", id)
		}
		if r.Source == "" {
			t.Errorf("row %s has no source", id)
		}
	}
	for id := range cases {
		if !seen[id] {
			t.Errorf("case %s has no row in the table", id)
		}
	}
}

func TestTableRows(t *testing.T) {
	byID := map[string]rowCase{}
	for _, c := range rowCases {
		byID[rowID(c.key, c.platform, c.state)] = c
	}
	for _, r := range table {
		c, ok := byID[rowID(r.Key, r.Platform, r.State)]
		if !ok {
			continue // reported by TestTableEveryRowHasACase
		}
		t.Run(rowID(r.Key, r.Platform, r.State), func(t *testing.T) {
			if r.Object != c.object || r.Window != c.window || r.Since != c.since || r.Action != c.action ||
				r.Setting != c.setting || r.Limits.Max != c.max || r.Reported != c.reported || r.Enforced != c.enforced {
				t.Fatalf("row = %+v, want %+v", r, c)
			}
			o := rowTestObject(r)
			anchor := since(r.Since, o)
			p, err := NewPolicy(nil)
			if err != nil {
				t.Fatal(err)
			}

			// The table's own window, or no deadline.
			at, ok := p.ruleDeadline(r, o)
			if c.window == 0 {
				if ok {
					t.Errorf("default: got deadline %s, want none", at)
				}
			} else if !ok || !at.Equal(anchor.Add(c.window)) {
				t.Errorf("default: got %s %v, want %s", at, ok, anchor.Add(c.window))
			}

			// An override replaces the window, even where the platform sets none.
			po, err := NewPolicy(map[string]time.Duration{r.Key: 48 * time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			if at, ok := po.ruleDeadline(r, o); !ok || !at.Equal(anchor.Add(48*time.Hour)) {
				t.Errorf("override 48h: got %s %v, want %s", at, ok, anchor.Add(48*time.Hour))
			}

			// The object's own setting replaces both, cut to the platform's max.
			if c.setting != SettingNone {
				os := o
				setObjectSetting(&os, c.setting, 3*time.Hour)
				if at, ok := po.ruleDeadline(r, os); !ok || !at.Equal(anchor.Add(3*time.Hour)) {
					t.Errorf("setting 3h: got %s %v, want %s", at, ok, anchor.Add(3*time.Hour))
				}
				if c.max > 0 {
					setObjectSetting(&os, c.setting, c.max+time.Hour)
					if at, ok := p.ruleDeadline(r, os); !ok || !at.Equal(anchor.Add(c.max)) {
						t.Errorf("setting over max: got %s %v, want clamped to %s", at, ok, anchor.Add(c.max))
					}
				}
			}

			// A deadline the platform reports wins for reported rules only.
			reported := anchor.Add(5 * time.Minute)
			or := o
			or.PlatformExpiresAt = reported
			at, ok = po.ruleDeadline(r, or)
			if c.reported && (!ok || !at.Equal(reported)) {
				t.Errorf("reported: got %s %v, want %s", at, ok, reported)
			}
			if !c.reported && at.Equal(reported) {
				t.Errorf("reported deadline used by a rule the platform does not report")
			}

			// Without the moment it counts from, the rule cannot apply.
			oz := o
			switch r.Since {
			case SinceCreated:
				oz.CreatedAt = time.Time{}
			case SinceStarted:
				oz.StartedAt = time.Time{}
			case SinceStateSince:
				oz.StateSince = time.Time{}
			case SinceLastUsed:
				oz.LastUsedAt = time.Time{}
			}
			if at, ok := po.ruleDeadline(r, oz); ok {
				t.Errorf("unknown %s: got deadline %s, want none", r.Since, at)
			}

			// on_timeout replaces the action only where the platform lets it.
			if got := action(r, o); got != c.action {
				t.Errorf("action = %s, want %s", got, c.action)
			}
			op := o
			op.OnTimeout = "pause"
			want := c.action
			if r.ActionFromOnTimeout {
				want = ActionPause
			}
			if got := action(r, op); got != want {
				t.Errorf("action with on_timeout=pause = %s, want %s", got, want)
			}
		})
	}
}

func TestTableKeysAreStable(t *testing.T) {
	want := "[archived_sandbox auto_delete filesystem_snapshot idle_sandbox max_runtime memory_snapshot paused_sandbox running_sandbox stopped_sandbox unused_snapshot volume_snapshot]"
	if got := fmt.Sprint(Keys()); got != want {
		t.Errorf("Keys() = %s, want %s (keys are user-facing override names: renaming one breaks configurations)", got, want)
	}
}
