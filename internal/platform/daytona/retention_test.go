package daytona

import (
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention/retentiontest"
)

// retentionCases pins every row of retentionRules.
var retentionCases = []retentiontest.Case{
	{Key: "idle_sandbox", Platform: "daytona", Object: retention.Sandbox, State: retention.StateRunning, Window: 15 * time.Minute, Since: retention.SinceLastUsed, Action: retention.ActionStop, Setting: retention.SettingIdleTimeout, Reported: true, Enforced: true},
	{Key: "paused_sandbox", Platform: "daytona", Object: retention.Sandbox, State: retention.StatePaused, Since: retention.SinceStateSince, Action: retention.ActionDelete, Enforced: true},
	{Key: "stopped_sandbox", Platform: "daytona", Object: retention.Sandbox, State: retention.StateStopped, Window: 7 * day, Since: retention.SinceStateSince, Action: retention.ActionArchive, Setting: retention.SettingAutoArchiveAfter, Max: 30 * day, Enforced: true},
	{Key: "auto_delete", Platform: "daytona", Object: retention.Sandbox, State: retention.StateStopped, Since: retention.SinceStateSince, Action: retention.ActionDelete, Setting: retention.SettingAutoDeleteAfter, Enforced: true},
	{Key: "archived_sandbox", Platform: "daytona", Object: retention.Sandbox, State: retention.StateArchived, Since: retention.SinceStateSince, Action: retention.ActionDelete, Enforced: true},
	{Key: "unused_template", Platform: "daytona", Object: retention.Template, State: retention.TemplateReady, Window: 14 * day, Since: retention.SinceLastUsed, Action: retention.ActionDeactivate, Enforced: true},
}

func TestRetentionRules(t *testing.T) {
	retentiontest.CheckRules(t, retentionRules(), retentionCases)
	for _, r := range retentionRules() {
		if r.Platform != (*Platform)(nil).Name() {
			t.Errorf("row %s is declared for %q, not for this platform", r.Key, r.Platform)
		}
	}
	// The auto-archive row's Max is the attribute's limit.
	limit := capabilities().Attribute(platform.AttrSandboxAutoArchiveAfter).MaxDuration
	for _, r := range retentionRules() {
		if r.Key == "stopped_sandbox" && r.Limits.Max != limit {
			t.Errorf("stopped_sandbox Max %s, auto_archive_after's MaxDuration %s", r.Limits.Max, limit)
		}
	}
}

// TestRetentionDeadlines: Daytona's rows combine as its research says
// (the earliest deadline wins, limits clamp settings).
func TestRetentionDeadlines(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	table := retention.NewTable(retentionRules())
	cases := []retentiontest.DeadlineCase{
		{Name: "stopped: archive after 7 days",
			Obj:    retention.Object{Platform: "daytona", Kind: retention.Sandbox, State: retention.StateStopped, StateSince: t0},
			WantOK: true, WantAt: t0.Add(7 * day), WantRule: "stopped_sandbox", WantAction: retention.ActionArchive},
		{Name: "stopped: auto-delete sooner than auto-archive",
			Obj:    retention.Object{Platform: "daytona", Kind: retention.Sandbox, State: retention.StateStopped, StateSince: t0, AutoDeleteAfter: 2 * day},
			WantOK: true, WantAt: t0.Add(2 * day), WantRule: "auto_delete", WantAction: retention.ActionDelete},
		{Name: "auto-archive above 30 days is clamped",
			Obj:    retention.Object{Platform: "daytona", Kind: retention.Sandbox, State: retention.StateStopped, StateSince: t0, AutoArchiveAfter: 90 * day},
			WantOK: true, WantAt: t0.Add(30 * day), WantRule: "stopped_sandbox", WantAction: retention.ActionArchive},
		{Name: "an override above the max lifts the clamp", Overrides: map[string]time.Duration{"stopped_sandbox": 60 * day},
			Obj:    retention.Object{Platform: "daytona", Kind: retention.Sandbox, State: retention.StateStopped, StateSince: t0, AutoArchiveAfter: 90 * day},
			WantOK: true, WantAt: t0.Add(60 * day), WantRule: "stopped_sandbox", WantAction: retention.ActionArchive},
		{Name: "running: idle auto-stop from last activity",
			Obj:    retention.Object{Platform: "daytona", Kind: retention.Sandbox, State: retention.StateRunning, StartedAt: t0, LastUsedAt: t0.Add(time.Hour)},
			WantOK: true, WantAt: t0.Add(time.Hour + 15*time.Minute), WantRule: "idle_sandbox", WantAction: retention.ActionStop},
		{Name: "running: the reported auto-stop deadline wins",
			Obj:    retention.Object{Platform: "daytona", Kind: retention.Sandbox, State: retention.StateRunning, StartedAt: t0, PlatformExpiresAt: t0.Add(40 * time.Minute)},
			WantOK: true, WantAt: t0.Add(40 * time.Minute), WantRule: "idle_sandbox", WantAction: retention.ActionStop},
		{Name: "template (its snapshot) deactivated 14 days after last use",
			Obj:    retention.Object{Platform: "daytona", Kind: retention.Template, State: retention.TemplateReady, CreatedAt: t0, LastUsedAt: t0.Add(day)},
			WantOK: true, WantAt: t0.Add(15 * day), WantRule: "unused_template", WantAction: retention.ActionDeactivate},
		{Name: "template never used: no deadline is known",
			Obj:    retention.Object{Platform: "daytona", Kind: retention.Template, State: retention.TemplateReady, CreatedAt: t0},
			WantOK: false},
		{Name: "snapshots of boxes have no template rule",
			Obj:    retention.Object{Platform: "daytona", Kind: retention.Snapshot, State: retention.KindFilesystem, CreatedAt: t0, LastUsedAt: t0},
			WantOK: false},
	}
	retentiontest.CheckDeadlines(t, table, t0, true, cases)
}
