package retention_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention/retentiontest"
)

const day = 24 * time.Hour

// upcomingCases pins every row of the platforms still to come; each moves
// with its row into the platform's package when it ships.
var upcomingCases = []retentiontest.Case{
	{Key: "idle_sandbox", Platform: "daytona", Object: retention.Sandbox, State: retention.StateRunning, Window: 15 * time.Minute, Since: retention.SinceLastUsed, Action: retention.ActionStop, Setting: retention.SettingIdleTimeout, Enforced: true},
	{Key: "paused_sandbox", Platform: "daytona", Object: retention.Sandbox, State: retention.StatePaused, Since: retention.SinceStateSince, Action: retention.ActionDelete, Enforced: true},
	{Key: "stopped_sandbox", Platform: "daytona", Object: retention.Sandbox, State: retention.StateStopped, Window: 7 * day, Since: retention.SinceStateSince, Action: retention.ActionArchive, Setting: retention.SettingAutoArchiveAfter, Max: 30 * day, Enforced: true},
	{Key: "auto_delete", Platform: "daytona", Object: retention.Sandbox, State: retention.StateStopped, Since: retention.SinceStateSince, Action: retention.ActionDelete, Setting: retention.SettingAutoDeleteAfter, Enforced: true},
	{Key: "archived_sandbox", Platform: "daytona", Object: retention.Sandbox, State: retention.StateArchived, Since: retention.SinceStateSince, Action: retention.ActionDelete, Enforced: true},
	{Key: "unused_template", Platform: "daytona", Object: retention.Template, State: retention.TemplateReady, Window: 14 * day, Since: retention.SinceLastUsed, Action: retention.ActionDeactivate, Enforced: true},

	{Key: "running_sandbox", Platform: "fly", Object: retention.Sandbox, State: retention.StateRunning, Since: retention.SinceStarted, Action: retention.ActionStop, Enforced: true},
	{Key: "paused_sandbox", Platform: "fly", Object: retention.Sandbox, State: retention.StatePaused, Since: retention.SinceStateSince, Action: retention.ActionStop, Enforced: true},
	{Key: "stopped_sandbox", Platform: "fly", Object: retention.Sandbox, State: retention.StateStopped, Since: retention.SinceStateSince, Action: retention.ActionDelete, Enforced: true},
	{Key: "volume_snapshot", Platform: "fly", Object: retention.Snapshot, State: retention.KindVolume, Window: 5 * day, Since: retention.SinceCreated, Action: retention.ActionExpire, Setting: retention.SettingTTL, Max: 60 * day, Reported: true, Enforced: true},

	{Key: "running_sandbox", Platform: "modal", Object: retention.Sandbox, State: retention.StateRunning, Window: 300 * time.Second, Since: retention.SinceStarted, Action: retention.ActionKill, Setting: retention.SettingTimeout, Max: day, Enforced: true},
	{Key: "idle_sandbox", Platform: "modal", Object: retention.Sandbox, State: retention.StateRunning, Since: retention.SinceLastUsed, Action: retention.ActionKill, Setting: retention.SettingIdleTimeout, Enforced: true},
	{Key: "filesystem_snapshot", Platform: "modal", Object: retention.Snapshot, State: retention.KindFilesystem, Window: 30 * day, Since: retention.SinceCreated, Action: retention.ActionExpire, Setting: retention.SettingTTL, Reported: true, Enforced: true},
	{Key: "memory_snapshot", Platform: "modal", Object: retention.Snapshot, State: retention.KindMemory, Window: 7 * day, Since: retention.SinceCreated, Action: retention.ActionExpire, Reported: true, Enforced: true},
}

// TestUpcomingEveryRowHasACase: every row of the coming platforms is
// pinned and behaves as its case says.
func TestUpcomingEveryRowHasACase(t *testing.T) {
	retentiontest.CheckRules(t, retention.Upcoming, upcomingCases)
}

// TestUpcomingPlatforms: only platforms still to come wait here; a shipped
// platform's rows live in its own package.
func TestUpcomingPlatforms(t *testing.T) {
	if got := fmt.Sprint(retention.NewTable(retention.Upcoming).Platforms()); got != "[daytona fly modal]" {
		t.Errorf("Upcoming holds rows of %s, want [daytona fly modal]", got)
	}
}

// TestUpcomingKeysAreStable: these keys become user-facing override names
// when their platforms ship; renaming one should be deliberate.
func TestUpcomingKeysAreStable(t *testing.T) {
	want := "[archived_sandbox auto_delete filesystem_snapshot idle_sandbox memory_snapshot paused_sandbox running_sandbox stopped_sandbox unused_template volume_snapshot]"
	if got := fmt.Sprint(retention.NewTable(retention.Upcoming).Keys()); got != want {
		t.Errorf("Keys() = %s, want %s", got, want)
	}
}

// TestUpcomingDeadlines: the coming platforms' rows combine as their
// research says (the earliest deadline wins, limits clamp settings).
func TestUpcomingDeadlines(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	table := retention.NewTable(retention.Upcoming)
	cases := []struct {
		name      string
		overrides map[string]time.Duration
		obj       retention.Object
		wantOK    bool
		wantAt    time.Time
		wantRule  string
		wantAct   retention.Action
	}{
		{name: "daytona stopped: archive after 7 days",
			obj:    retention.Object{Platform: "daytona", Kind: retention.Sandbox, State: retention.StateStopped, StateSince: t0},
			wantOK: true, wantAt: t0.Add(7 * day), wantRule: "stopped_sandbox", wantAct: retention.ActionArchive},
		{name: "daytona stopped: auto-delete sooner than auto-archive",
			obj:    retention.Object{Platform: "daytona", Kind: retention.Sandbox, State: retention.StateStopped, StateSince: t0, AutoDeleteAfter: 2 * day},
			wantOK: true, wantAt: t0.Add(2 * day), wantRule: "auto_delete", wantAct: retention.ActionDelete},
		{name: "daytona auto-archive above 30 days is clamped",
			obj:    retention.Object{Platform: "daytona", Kind: retention.Sandbox, State: retention.StateStopped, StateSince: t0, AutoArchiveAfter: 90 * day},
			wantOK: true, wantAt: t0.Add(30 * day), wantRule: "stopped_sandbox", wantAct: retention.ActionArchive},
		{name: "an override above the max lifts the clamp", overrides: map[string]time.Duration{"stopped_sandbox": 60 * day},
			obj:    retention.Object{Platform: "daytona", Kind: retention.Sandbox, State: retention.StateStopped, StateSince: t0, AutoArchiveAfter: 90 * day},
			wantOK: true, wantAt: t0.Add(60 * day), wantRule: "stopped_sandbox", wantAct: retention.ActionArchive},
		{name: "daytona running: idle auto-stop from last activity",
			obj:    retention.Object{Platform: "daytona", Kind: retention.Sandbox, State: retention.StateRunning, StartedAt: t0, LastUsedAt: t0.Add(time.Hour)},
			wantOK: true, wantAt: t0.Add(time.Hour + 15*time.Minute), wantRule: "idle_sandbox", wantAct: retention.ActionStop},
		{name: "daytona template (its snapshot) deactivated 14 days after last use",
			obj:    retention.Object{Platform: "daytona", Kind: retention.Template, State: retention.TemplateReady, CreatedAt: t0, LastUsedAt: t0.Add(day)},
			wantOK: true, wantAt: t0.Add(15 * day), wantRule: "unused_template", wantAct: retention.ActionDeactivate},
		{name: "daytona template never used: no deadline is known",
			obj:    retention.Object{Platform: "daytona", Kind: retention.Template, State: retention.TemplateReady, CreatedAt: t0},
			wantOK: false},
		{name: "daytona snapshots of boxes have no template rule",
			obj:    retention.Object{Platform: "daytona", Kind: retention.Snapshot, State: retention.KindFilesystem, CreatedAt: t0, LastUsedAt: t0},
			wantOK: false},
		{name: "modal: idle timeout before the 300 s default timeout",
			obj:    retention.Object{Platform: "modal", Kind: retention.Sandbox, State: retention.StateRunning, StartedAt: t0, LastUsedAt: t0, IdleTimeout: time.Minute},
			wantOK: true, wantAt: t0.Add(time.Minute), wantRule: "idle_sandbox", wantAct: retention.ActionKill},
		{name: "modal: default timeout",
			obj:    retention.Object{Platform: "modal", Kind: retention.Sandbox, State: retention.StateRunning, StartedAt: t0},
			wantOK: true, wantAt: t0.Add(300 * time.Second), wantRule: "running_sandbox", wantAct: retention.ActionKill},
		{name: "modal memory snapshot: 7 days, a ttl does not extend it",
			obj:    retention.Object{Platform: "modal", Kind: retention.Snapshot, State: retention.KindMemory, CreatedAt: t0, TTL: 30 * day},
			wantOK: true, wantAt: t0.Add(7 * day), wantRule: "memory_snapshot", wantAct: retention.ActionExpire},
		{name: "fly volume snapshot: 5 days by default",
			obj:    retention.Object{Platform: "fly", Kind: retention.Snapshot, State: retention.KindVolume, CreatedAt: t0},
			wantOK: true, wantAt: t0.Add(5 * day), wantRule: "volume_snapshot", wantAct: retention.ActionExpire},
		{name: "fly volume snapshot ttl",
			obj:    retention.Object{Platform: "fly", Kind: retention.Snapshot, State: retention.KindVolume, CreatedAt: t0, TTL: 2 * day},
			wantOK: true, wantAt: t0.Add(2 * day), wantRule: "volume_snapshot", wantAct: retention.ActionExpire},
		{name: "fly suspended machine: no fixed window",
			obj:    retention.Object{Platform: "fly", Kind: retention.Sandbox, State: retention.StatePaused, StateSince: t0},
			wantOK: false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := table.NewPolicy(c.overrides)
			if err != nil {
				t.Fatal(err)
			}
			d, ok := p.Deadline(c.obj, t0)
			if ok != c.wantOK {
				t.Fatalf("ok = %v, want %v (%+v)", ok, c.wantOK, d)
			}
			if ok && (!d.At.Equal(c.wantAt) || d.Rule != c.wantRule || d.Action != c.wantAct || !d.Enforced || d.Source == "") {
				t.Fatalf("got %+v, want at=%s rule=%s action=%s, enforced", d, c.wantAt, c.wantRule, c.wantAct)
			}
		})
	}
}
