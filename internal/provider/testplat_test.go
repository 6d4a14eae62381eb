package provider

import (
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// testplatName is the platform name unit tests use where the platform's
// name matters (retention rows, messages) but no registered platform is
// meant: the rows and tables a test builds for it are all there is.
const testplatName = "testplat"

// The tiers of testplatDefinition: "pro" runs boxes longer.
const (
	testplatTierBase = "base"
	testplatTierPro  = "pro"
)

// testplatRetention are testplat's rows of the retention policy table: a
// platform that acts on its deadlines itself. A running box is killed at
// its timeout (5m when it sets none) and at the tier's runtime cap (1h; the
// pro tier lifts it to 24h), whichever comes first; paused and stopped boxes
// and snapshots are kept until deleted.
func testplatRetention() []retention.Rule {
	const src = "unit test platform"
	return []retention.Rule{
		{Key: "running_sandbox", Platform: testplatName, Object: retention.Sandbox, State: retention.StateRunning, Window: 5 * time.Minute,
			Since: retention.SinceStarted, Action: retention.ActionKill, ActionFromOnTimeout: true, Setting: retention.SettingTimeout,
			Limits: retention.Limits{Min: time.Second, Max: 24 * time.Hour, Default: 5 * time.Minute}, Reported: true, Enforced: true, Source: src},
		{Key: "max_runtime", Platform: testplatName, Object: retention.Sandbox, State: retention.StateRunning, Window: time.Hour,
			Since: retention.SinceStarted, Action: retention.ActionKill, ActionFromOnTimeout: true,
			Limits: retention.Limits{Max: 24 * time.Hour, Default: time.Hour}, Enforced: true, Source: src},
		{Key: "paused_sandbox", Platform: testplatName, Object: retention.Sandbox, State: retention.StatePaused,
			Since: retention.SinceCreated, Action: retention.ActionDelete, Enforced: true, Source: src},
		{Key: "stopped_sandbox", Platform: testplatName, Object: retention.Sandbox, State: retention.StateStopped,
			Since: retention.SinceCreated, Action: retention.ActionDelete, Enforced: true, Source: src},
		{Key: "memory_snapshot", Platform: testplatName, Object: retention.Snapshot, State: retention.KindMemory,
			Since: retention.SinceCreated, Action: retention.ActionDelete, Reported: true, Enforced: true, Source: src},
	}
}

// testplatDefinition is testplat as a platform definition: its retention
// rows and its account tiers (a tier setting, and the overrides each tier
// implies).
func testplatDefinition() platform.Definition {
	return platform.Definition{
		Name:  testplatName,
		Title: "Testplat",
		Settings: []platform.Setting{
			{Name: "tier", Title: "tier", Description: "The account tier.", OneOf: []string{testplatTierBase, testplatTierPro}},
		},
		Retention: testplatRetention(),
		TierOverrides: func(tier string) map[string]time.Duration {
			if tier == testplatTierPro {
				return map[string]time.Duration{"max_runtime": 24 * time.Hour}
			}
			return nil
		},
	}
}

// testplatPolicy is the policy of testplat's rows, without overrides.
func testplatPolicy(t testing.TB) retention.Policy {
	t.Helper()
	p, err := retention.NewTable(testplatRetention()).NewPolicy(nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The test platform is well formed, and none of its rows is a registered
// platform's.
func TestTestplatDefinition(t *testing.T) {
	def := testplatDefinition()
	if err := retention.NewTable(def.Retention).Check(); err != nil {
		t.Error(err)
	}
	for _, tier := range []string{"", testplatTierBase, testplatTierPro} {
		if _, err := retention.NewTable(def.Retention).NewPolicy(def.TierOverrides(tier)); err != nil {
			t.Errorf("tier %q: %v", tier, err)
		}
	}
	for _, d := range platforms.All() {
		if d.Name == testplatName {
			t.Fatalf("%s is a registered platform: the unit tests' platform needs a name of its own", testplatName)
		}
	}
}
