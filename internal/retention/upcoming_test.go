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
	if got := fmt.Sprint(retention.NewTable(retention.Upcoming).Platforms()); got != "[modal]" {
		t.Errorf("Upcoming holds rows of %s, want [modal]", got)
	}
}

// TestUpcomingKeysAreStable: these keys become user-facing override names
// when their platforms ship; renaming one should be deliberate.
func TestUpcomingKeysAreStable(t *testing.T) {
	want := "[filesystem_snapshot idle_sandbox memory_snapshot running_sandbox]"
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
		{Name: "modal: idle timeout before the 300 s default timeout",
			Obj:    retention.Object{Platform: "modal", Kind: retention.Sandbox, State: retention.StateRunning, StartedAt: t0, LastUsedAt: t0, IdleTimeout: time.Minute},
			WantOK: true, WantAt: t0.Add(time.Minute), WantRule: "idle_sandbox", WantAction: retention.ActionKill},
		{Name: "modal: default timeout",
			Obj:    retention.Object{Platform: "modal", Kind: retention.Sandbox, State: retention.StateRunning, StartedAt: t0},
			WantOK: true, WantAt: t0.Add(300 * time.Second), WantRule: "running_sandbox", WantAction: retention.ActionKill},
		{Name: "modal memory snapshot: 7 days, a ttl does not extend it",
			Obj:    retention.Object{Platform: "modal", Kind: retention.Snapshot, State: retention.KindMemory, CreatedAt: t0, TTL: 30 * day},
			WantOK: true, WantAt: t0.Add(7 * day), WantRule: "memory_snapshot", WantAction: retention.ActionExpire},
	}
	retentiontest.CheckDeadlines(t, table, t0, true, cases)
}
