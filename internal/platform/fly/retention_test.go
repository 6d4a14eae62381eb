package fly

import (
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention/retentiontest"
)

// retentionCases pins every row of retentionRules (moved with them from
// internal/retention/upcoming.go).
var retentionCases = []retentiontest.Case{
	{Key: "running_sandbox", Platform: "fly", Object: retention.Sandbox, State: retention.StateRunning, Since: retention.SinceStarted, Action: retention.ActionStop, Enforced: true},
	{Key: "paused_sandbox", Platform: "fly", Object: retention.Sandbox, State: retention.StatePaused, Since: retention.SinceStateSince, Action: retention.ActionStop, Enforced: true},
	{Key: "stopped_sandbox", Platform: "fly", Object: retention.Sandbox, State: retention.StateStopped, Since: retention.SinceStateSince, Action: retention.ActionDelete, Enforced: true},
	{Key: "volume_snapshot", Platform: "fly", Object: retention.Snapshot, State: retention.KindVolume, Window: 5 * day, Since: retention.SinceCreated, Action: retention.ActionExpire, Reported: true, Enforced: true},
}

func TestRetentionRules(t *testing.T) {
	retentiontest.CheckRules(t, retentionRules(), retentionCases)
	for _, r := range retentionRules() {
		if r.Platform != (*Platform)(nil).Name() {
			t.Errorf("row %s is declared for %q, not for this platform", r.Key, r.Platform)
		}
		if r.Enforced != capabilities().EnforcesDeadlines {
			t.Errorf("row %s Enforced %v, EnforcesDeadlines %v", r.Key, r.Enforced, capabilities().EnforcesDeadlines)
		}
	}
	// Fly refuses sbx_snapshot.ttl (a volume's snapshot_retention sets how
	// long its snapshots last, and each reports its own expiry): no row
	// may claim the ttl setting.
	for _, r := range retentionRules() {
		if r.Setting == retention.SettingTTL && !capabilities().Accepts(platform.AttrSnapshotTTL) {
			t.Errorf("row %s takes ttl, which Fly refuses", r.Key)
		}
	}
}

// TestRetentionDeadlines: Fly's rows combine as its research says.
func TestRetentionDeadlines(t *testing.T) {
	table := retention.NewTable(retentionRules())
	cases := []retentiontest.DeadlineCase{
		{Name: "volume snapshot expires after 5 days",
			Obj:    retention.Object{Platform: "fly", Kind: retention.Snapshot, State: retention.KindVolume, CreatedAt: t0},
			WantOK: true, WantAt: t0.Add(5 * day), WantRule: "volume_snapshot", WantAction: retention.ActionExpire},
		{Name: "the reported expiry wins",
			Obj:    retention.Object{Platform: "fly", Kind: retention.Snapshot, State: retention.KindVolume, CreatedAt: t0, PlatformExpiresAt: t0.Add(30 * day)},
			WantOK: true, WantAt: t0.Add(30 * day), WantRule: "volume_snapshot", WantAction: retention.ActionExpire},
		{Name: "running machine: no fixed deadline",
			Obj:    retention.Object{Platform: "fly", Kind: retention.Sandbox, State: retention.StateRunning, StartedAt: t0},
			WantOK: false},
		{Name: "stopped machine: kept",
			Obj:    retention.Object{Platform: "fly", Kind: retention.Sandbox, State: retention.StateStopped, StateSince: t0},
			WantOK: false},
	}
	retentiontest.CheckDeadlines(t, table, t0, true, cases)
}
