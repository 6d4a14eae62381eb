package e2b

import (
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention/retentiontest"
)

// retentionCases pins every row of retentionRules.
var retentionCases = []retentiontest.Case{
	{Key: "running_sandbox", Platform: "e2b", Object: retention.Sandbox, State: retention.StateRunning, Window: 300 * time.Second, Since: retention.SinceStarted, Action: retention.ActionKill, Setting: retention.SettingTimeout, Max: 24 * time.Hour, Reported: true, Enforced: true},
	{Key: "max_runtime", Platform: "e2b", Object: retention.Sandbox, State: retention.StateRunning, Window: time.Hour, Since: retention.SinceStarted, Action: retention.ActionKill, Max: 24 * time.Hour, Enforced: true},
	{Key: "paused_sandbox", Platform: "e2b", Object: retention.Sandbox, State: retention.StatePaused, Since: retention.SinceCreated, Action: retention.ActionDelete, Enforced: true},
	{Key: "stopped_sandbox", Platform: "e2b", Object: retention.Sandbox, State: retention.StateStopped, Since: retention.SinceCreated, Action: retention.ActionDelete, Enforced: true},
	{Key: "filesystem_snapshot", Platform: "e2b", Object: retention.Snapshot, State: retention.KindFilesystem, Since: retention.SinceCreated, Action: retention.ActionDelete, Reported: true, Enforced: true},
	{Key: "memory_snapshot", Platform: "e2b", Object: retention.Snapshot, State: retention.KindMemory, Since: retention.SinceCreated, Action: retention.ActionDelete, Reported: true, Enforced: true},
}

func TestRetentionRules(t *testing.T) {
	retentiontest.CheckRules(t, retentionRules(), retentionCases)
	for _, r := range retentionRules() {
		if r.Platform != (*Platform)(nil).Name() {
			t.Errorf("row %s is declared for %q, not for this platform", r.Key, r.Platform)
		}
	}
}

// TestRetentionRulesMatchTiers: the rows' runtime numbers are the tiers'
// timeout limits, and each tier's overrides leave a box exactly the
// runtime its timeout limit allows.
func TestRetentionRulesMatchTiers(t *testing.T) {
	rows := map[string]retention.Rule{}
	for _, r := range retentionRules() {
		rows[r.Key] = r
	}
	pro := capabilitiesFor(TierPro).Attribute(platform.AttrSandboxTimeout).MaxDuration
	base := capabilitiesFor(TierBase).Attribute(platform.AttrSandboxTimeout).MaxDuration
	if rows["running_sandbox"].Limits.Max != pro || rows["max_runtime"].Limits.Max != pro {
		t.Errorf("the rows' Max (%s, %s) is not Pro's timeout limit %s", rows["running_sandbox"].Limits.Max, rows["max_runtime"].Limits.Max, pro)
	}
	for tier, limit := range map[string]time.Duration{TierBase: base, TierPro: pro, "": base} {
		runtime := rows["max_runtime"].Window
		if w, ok := tierOverrides(tier)["max_runtime"]; ok {
			runtime = w
		}
		if runtime != limit {
			t.Errorf("tier %q: max_runtime %s, but a timeout may be up to %s", tier, runtime, limit)
		}
	}
}

func TestTierOverrides(t *testing.T) {
	if got := tierOverrides(TierPro); len(got) != 1 || got["max_runtime"] != 24*time.Hour {
		t.Errorf("pro: %v, want max_runtime 24h", got)
	}
	for _, tier := range []string{TierBase, "", "enterprise"} {
		if got := tierOverrides(tier); got != nil {
			t.Errorf("tier %q: %v, want nothing", tier, got)
		}
	}
	keys := retention.NewTable(retentionRules()).Keys()
	if _, err := retention.NewTable(retentionRules()).NewPolicy(tierOverrides(TierPro)); err != nil {
		t.Errorf("the pro overrides name a key E2B has no rule for (keys %v): %v", keys, err)
	}
	// Each call returns a map of its own.
	tierOverrides(TierPro)["max_runtime"] = time.Minute
	if tierOverrides(TierPro)["max_runtime"] != 24*time.Hour {
		t.Error("tierOverrides shares its map between calls")
	}
}

// TestRetentionDeadlines: how E2B's rows combine.
func TestRetentionDeadlines(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	table := retention.NewTable(retentionRules())
	cases := []retentiontest.DeadlineCase{
		{Name: "the reported endAt wins over the computed timeout",
			Obj:    retention.Object{Platform: "e2b", Kind: retention.Sandbox, State: retention.StateRunning, StartedAt: t0, Timeout: 10 * time.Minute, PlatformExpiresAt: t0.Add(20 * time.Minute)},
			WantOK: true, WantAt: t0.Add(20 * time.Minute), WantRule: "running_sandbox", WantAction: retention.ActionKill},
		{Name: "a timeout beyond the base-tier runtime cap: the cap comes first",
			Obj:    retention.Object{Platform: "e2b", Kind: retention.Sandbox, State: retention.StateRunning, StartedAt: t0, Timeout: 5 * time.Hour, OnTimeout: "pause"},
			WantOK: true, WantAt: t0.Add(time.Hour), WantRule: "max_runtime", WantAction: retention.ActionPause},
		{Name: "the pro tier lifts the runtime cap to 24h", Overrides: tierOverrides(TierPro),
			Obj:    retention.Object{Platform: "e2b", Kind: retention.Sandbox, State: retention.StateRunning, StartedAt: t0, Timeout: 5 * time.Hour},
			WantOK: true, WantAt: t0.Add(5 * time.Hour), WantRule: "running_sandbox", WantAction: retention.ActionKill},
		{Name: "unset timeout: the 300 s the provider sends",
			Obj:    retention.Object{Platform: "e2b", Kind: retention.Sandbox, State: retention.StateRunning, StartedAt: t0},
			WantOK: true, WantAt: t0.Add(300 * time.Second), WantRule: "running_sandbox", WantAction: retention.ActionKill},
		{Name: "paused: kept indefinitely",
			Obj: retention.Object{Platform: "e2b", Kind: retention.Sandbox, State: retention.StatePaused, CreatedAt: t0, StateSince: t0}},
		{Name: "paused with the old 30-day rule as an override",
			Overrides: map[string]time.Duration{"paused_sandbox": 30 * 24 * time.Hour},
			Obj:       retention.Object{Platform: "e2b", Kind: retention.Sandbox, State: retention.StatePaused, CreatedAt: t0, StateSince: t0.Add(24 * time.Hour)},
			WantOK:    true, WantAt: t0.Add(30 * 24 * time.Hour), WantRule: "paused_sandbox", WantAction: retention.ActionDelete},
		{Name: "a memory snapshot's reported expiry",
			Obj:    retention.Object{Platform: "e2b", Kind: retention.Snapshot, State: retention.KindMemory, CreatedAt: t0, PlatformExpiresAt: t0.Add(time.Hour)},
			WantOK: true, WantAt: t0.Add(time.Hour), WantRule: "memory_snapshot", WantAction: retention.ActionDelete},
		{Name: "a state no rule covers",
			Obj: retention.Object{Platform: "e2b", Kind: retention.Sandbox, State: "failed", StartedAt: t0, CreatedAt: t0}},
	}
	retentiontest.CheckDeadlines(t, table, t0, true, cases)
}
