package modal

import (
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention/retentiontest"
)

// retentionCases pins every row of retentionRules (moved with them from
// internal/retention/upcoming.go).
var retentionCases = []retentiontest.Case{
	{Key: "running_sandbox", Platform: "modal", Object: retention.Sandbox, State: retention.StateRunning, Window: 300 * time.Second, Since: retention.SinceStarted, Action: retention.ActionKill, Setting: retention.SettingTimeout, Max: day, Enforced: true},
	{Key: "idle_sandbox", Platform: "modal", Object: retention.Sandbox, State: retention.StateRunning, Since: retention.SinceLastUsed, Action: retention.ActionKill, Setting: retention.SettingIdleTimeout, Enforced: true},
	{Key: "filesystem_snapshot", Platform: "modal", Object: retention.Snapshot, State: retention.KindFilesystem, Window: 30 * day, Since: retention.SinceCreated, Action: retention.ActionExpire, Setting: retention.SettingTTL, Reported: true, Enforced: true},
	{Key: "memory_snapshot", Platform: "modal", Object: retention.Snapshot, State: retention.KindMemory, Window: 7 * day, Since: retention.SinceCreated, Action: retention.ActionExpire, Reported: true, Enforced: true},
}

func TestRetentionRules(t *testing.T) {
	retentiontest.CheckRules(t, retentionRules(), retentionCases)
	for _, r := range retentionRules() {
		if r.Platform != platformName {
			t.Errorf("row %s is declared for %q, not for this platform", r.Key, r.Platform)
		}
		if r.Enforced != capabilities().EnforcesDeadlines {
			t.Errorf("row %s Enforced %v, EnforcesDeadlines %v", r.Key, r.Enforced, capabilities().EnforcesDeadlines)
		}
	}
}

// TestRetentionDeadlines: Modal's rows combine as its research says (the
// earliest deadline wins, limits clamp settings).
func TestRetentionDeadlines(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	table := retention.NewTable(retentionRules())
	cases := []retentiontest.DeadlineCase{
		{Name: "idle timeout before the 300 s default timeout",
			Obj:    retention.Object{Platform: "modal", Kind: retention.Sandbox, State: retention.StateRunning, StartedAt: t0, LastUsedAt: t0, IdleTimeout: time.Minute},
			WantOK: true, WantAt: t0.Add(time.Minute), WantRule: "idle_sandbox", WantAction: retention.ActionKill},
		{Name: "default timeout",
			Obj:    retention.Object{Platform: "modal", Kind: retention.Sandbox, State: retention.StateRunning, StartedAt: t0},
			WantOK: true, WantAt: t0.Add(300 * time.Second), WantRule: "running_sandbox", WantAction: retention.ActionKill},
		{Name: "memory snapshot: 7 days, a ttl does not extend it",
			Obj:    retention.Object{Platform: "modal", Kind: retention.Snapshot, State: retention.KindMemory, CreatedAt: t0, TTL: 30 * day},
			WantOK: true, WantAt: t0.Add(7 * day), WantRule: "memory_snapshot", WantAction: retention.ActionExpire},
		{Name: "filesystem snapshot: the ttl given",
			Obj:    retention.Object{Platform: "modal", Kind: retention.Snapshot, State: retention.KindFilesystem, CreatedAt: t0, TTL: 2 * day},
			WantOK: true, WantAt: t0.Add(2 * day), WantRule: "filesystem_snapshot", WantAction: retention.ActionExpire},
	}
	retentiontest.CheckDeadlines(t, table, t0, true, cases)
}
