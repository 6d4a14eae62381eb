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
	cases := []retentiontest.DeadlineCase{
		{Name: "daytona stopped: archive after 7 days",
			Obj:    retention.Object{Platform: "daytona", Kind: retention.Sandbox, State: retention.StateStopped, StateSince: t0},
			WantOK: true, WantAt: t0.Add(7 * day), WantRule: "stopped_sandbox", WantAction: retention.ActionArchive},
		{Name: "daytona stopped: auto-delete sooner than auto-archive",
			Obj:    retention.Object{Platform: "daytona", Kind: retention.Sandbox, State: retention.StateStopped, StateSince: t0, AutoDeleteAfter: 2 * day},
			WantOK: true, WantAt: t0.Add(2 * day), WantRule: "auto_delete", WantAction: retention.ActionDelete},
		{Name: "daytona auto-archive above 30 days is clamped",
			Obj:    retention.Object{Platform: "daytona", Kind: retention.Sandbox, State: retention.StateStopped, StateSince: t0, AutoArchiveAfter: 90 * day},
			WantOK: true, WantAt: t0.Add(30 * day), WantRule: "stopped_sandbox", WantAction: retention.ActionArchive},
		{Name: "an override above the max lifts the clamp", Overrides: map[string]time.Duration{"stopped_sandbox": 60 * day},
			Obj:    retention.Object{Platform: "daytona", Kind: retention.Sandbox, State: retention.StateStopped, StateSince: t0, AutoArchiveAfter: 90 * day},
			WantOK: true, WantAt: t0.Add(60 * day), WantRule: "stopped_sandbox", WantAction: retention.ActionArchive},
		{Name: "daytona running: idle auto-stop from last activity",
			Obj:    retention.Object{Platform: "daytona", Kind: retention.Sandbox, State: retention.StateRunning, StartedAt: t0, LastUsedAt: t0.Add(time.Hour)},
			WantOK: true, WantAt: t0.Add(time.Hour + 15*time.Minute), WantRule: "idle_sandbox", WantAction: retention.ActionStop},
		{Name: "daytona template (its snapshot) deactivated 14 days after last use",
			Obj:    retention.Object{Platform: "daytona", Kind: retention.Template, State: retention.TemplateReady, CreatedAt: t0, LastUsedAt: t0.Add(day)},
			WantOK: true, WantAt: t0.Add(15 * day), WantRule: "unused_template", WantAction: retention.ActionDeactivate},
		{Name: "daytona template never used: no deadline is known",
			Obj:    retention.Object{Platform: "daytona", Kind: retention.Template, State: retention.TemplateReady, CreatedAt: t0},
			WantOK: false},
		{Name: "daytona snapshots of boxes have no template rule",
			Obj:    retention.Object{Platform: "daytona", Kind: retention.Snapshot, State: retention.KindFilesystem, CreatedAt: t0, LastUsedAt: t0},
			WantOK: false},
		{Name: "modal: idle timeout before the 300 s default timeout",
			Obj:    retention.Object{Platform: "modal", Kind: retention.Sandbox, State: retention.StateRunning, StartedAt: t0, LastUsedAt: t0, IdleTimeout: time.Minute},
			WantOK: true, WantAt: t0.Add(time.Minute), WantRule: "idle_sandbox", WantAction: retention.ActionKill},
		{Name: "modal: default timeout",
			Obj:    retention.Object{Platform: "modal", Kind: retention.Sandbox, State: retention.StateRunning, StartedAt: t0},
			WantOK: true, WantAt: t0.Add(300 * time.Second), WantRule: "running_sandbox", WantAction: retention.ActionKill},
		{Name: "modal memory snapshot: 7 days, a ttl does not extend it",
			Obj:    retention.Object{Platform: "modal", Kind: retention.Snapshot, State: retention.KindMemory, CreatedAt: t0, TTL: 30 * day},
			WantOK: true, WantAt: t0.Add(7 * day), WantRule: "memory_snapshot", WantAction: retention.ActionExpire},
		{Name: "fly volume snapshot: 5 days by default",
			Obj:    retention.Object{Platform: "fly", Kind: retention.Snapshot, State: retention.KindVolume, CreatedAt: t0},
			WantOK: true, WantAt: t0.Add(5 * day), WantRule: "volume_snapshot", WantAction: retention.ActionExpire},
		{Name: "fly volume snapshot ttl",
			Obj:    retention.Object{Platform: "fly", Kind: retention.Snapshot, State: retention.KindVolume, CreatedAt: t0, TTL: 2 * day},
			WantOK: true, WantAt: t0.Add(2 * day), WantRule: "volume_snapshot", WantAction: retention.ActionExpire},
		{Name: "fly suspended machine: no fixed window",
			Obj:    retention.Object{Platform: "fly", Kind: retention.Sandbox, State: retention.StatePaused, StateSince: t0},
			WantOK: false},
	}
	retentiontest.CheckDeadlines(t, table, t0, true, cases)
}
