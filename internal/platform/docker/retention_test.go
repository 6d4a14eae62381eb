package docker

import (
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention/retentiontest"
)

// retentionCases pins every row of retentionRules: the engine acts on
// nothing, so no row has a window of its own and none is enforced.
var retentionCases = []retentiontest.Case{
	{Key: "running_sandbox", Platform: "docker", Object: retention.Sandbox, State: retention.StateRunning, Since: retention.SinceStarted, Action: retention.ActionKill, Setting: retention.SettingTimeout},
	{Key: "paused_sandbox", Platform: "docker", Object: retention.Sandbox, State: retention.StatePaused, Since: retention.SinceStateSince, Action: retention.ActionDelete},
	{Key: "stopped_sandbox", Platform: "docker", Object: retention.Sandbox, State: retention.StateStopped, Since: retention.SinceStateSince, Action: retention.ActionDelete},
	{Key: "auto_delete", Platform: "docker", Object: retention.Sandbox, State: retention.StateStopped, Since: retention.SinceStateSince, Action: retention.ActionDelete, Setting: retention.SettingAutoDeleteAfter},
	{Key: "filesystem_snapshot", Platform: "docker", Object: retention.Snapshot, State: retention.KindFilesystem, Since: retention.SinceCreated, Action: retention.ActionExpire, Reported: true},
	{Key: "volume_snapshot", Platform: "docker", Object: retention.Snapshot, State: retention.KindVolume, Since: retention.SinceCreated, Action: retention.ActionExpire, Reported: true},
}

func TestRetentionRules(t *testing.T) {
	retentiontest.CheckRules(t, retentionRules(), retentionCases)
	for _, r := range retentionRules() {
		if r.Platform != (*Platform)(nil).Name() {
			t.Errorf("row %s is declared for %q, not for this platform", r.Key, r.Platform)
		}
		if r.Since == retention.SinceLastUsed {
			t.Errorf("row %s counts from the last activity, which the engine never reports", r.Key)
		}
	}
	// Each call returns the platform's own copy.
	rules := retentionRules()
	rules[0].Window = time.Hour
	if retentionRules()[0].Window != 0 {
		t.Error("retentionRules shares its rows between calls")
	}
}

// TestRetentionDeadlines: Docker's rows give deadlines only where a setting
// or an override gives them a window, and never say they are enforced.
func TestRetentionDeadlines(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	table := retention.NewTable(retentionRules())
	cases := []retentiontest.DeadlineCase{
		{Name: "nothing configured, no deadline",
			Obj: retention.Object{Platform: "docker", Kind: retention.Sandbox, State: retention.StateRunning, StartedAt: t0, LastUsedAt: t0, CreatedAt: t0}},
		{Name: "a configured timeout is tracked, with on_timeout's action",
			Obj:    retention.Object{Platform: "docker", Kind: retention.Sandbox, State: retention.StateRunning, StartedAt: t0, Timeout: time.Hour, OnTimeout: "stop"},
			WantOK: true, WantAt: t0.Add(time.Hour), WantRule: "running_sandbox", WantAction: retention.ActionStop},
		{Name: "stopped: auto_delete_after before a longer override",
			Overrides: map[string]time.Duration{"stopped_sandbox": 48 * time.Hour},
			Obj:       retention.Object{Platform: "docker", Kind: retention.Sandbox, State: retention.StateStopped, StateSince: t0, AutoDeleteAfter: 2 * time.Hour},
			WantOK:    true, WantAt: t0.Add(2 * time.Hour), WantRule: "auto_delete", WantAction: retention.ActionDelete},
		{Name: "snapshot: no deadline",
			Obj: retention.Object{Platform: "docker", Kind: retention.Snapshot, State: retention.KindFilesystem, CreatedAt: t0}},
		{Name: "snapshot with an override",
			Overrides: map[string]time.Duration{"filesystem_snapshot": 14 * 24 * time.Hour},
			Obj:       retention.Object{Platform: "docker", Kind: retention.Snapshot, State: retention.KindFilesystem, CreatedAt: t0},
			WantOK:    true, WantAt: t0.Add(14 * 24 * time.Hour), WantRule: "filesystem_snapshot", WantAction: retention.ActionExpire},
		{Name: "templates: no rule",
			Obj: retention.Object{Platform: "docker", Kind: retention.Template, State: retention.TemplateReady, CreatedAt: t0, LastUsedAt: t0}},
	}
	retentiontest.CheckDeadlines(t, table, t0, false, cases)
}
