package provider

import (
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// TestLifecycleSettingsAreNeverInert: every lifecycle setting a registered
// platform accepts gives a deadline, through a row of its retention rules
// that the setting replaces, counting from a moment the provider records.
// The provider records no box's last activity (retention.Object.LastUsedAt
// is never filled in for a box), so a setting whose only rows count from it
// would be accepted and do nothing, unless the platform reports the
// deadline itself (a Reported row: Daytona's idle auto-stop); a setting the platform refuses must have no row
// that pretends to track it. A platform that enforces no deadline has no
// enforced row, and one that does has no row it leaves to the provider.
func TestLifecycleSettingsAreNeverInert(t *testing.T) {
	// What each registered platform can do, read without configuring it
	// (Definition.Capabilities: its default settings; a tier changes limits,
	// never whether a setting is accepted).
	capabilities := map[string]platform.Capabilities{}
	for _, def := range platforms.All() {
		if def.Capabilities != nil {
			capabilities[def.Name] = def.Capabilities()
		}
	}
	settings := []struct {
		object  string
		setting retention.Setting
		attr    string
	}{
		{retention.Sandbox, retention.SettingTimeout, platform.AttrSandboxTimeout},
		{retention.Sandbox, retention.SettingIdleTimeout, platform.AttrSandboxIdleTimeout},
		{retention.Sandbox, retention.SettingAutoArchiveAfter, platform.AttrSandboxAutoArchiveAfter},
		{retention.Sandbox, retention.SettingAutoDeleteAfter, platform.AttrSandboxAutoDeleteAfter},
		{retention.Snapshot, retention.SettingTTL, platform.AttrSnapshotTTL},
	}
	for _, def := range platforms.All() {
		caps, ok := capabilities[def.Name]
		if !ok {
			t.Errorf("registered platform %s says nothing of its capabilities (Definition.Capabilities)", def.Name)
			continue
		}
		rules := retention.NewTable(def.Retention).Rules()
		for _, s := range settings {
			var tracked, rows int
			for _, r := range rules {
				if r.Object != s.object || r.Setting != s.setting {
					continue
				}
				rows++
				// A deadline counted from a last use the platform does not
				// report cannot be computed; it still works where the
				// platform itself enforces it (Modal's idle timeout), and
				// only where it does neither would the setting be inert.
				if r.Since != retention.SinceLastUsed || r.Reported || r.Enforced {
					tracked++
				}
			}
			accepted := caps.Accepts(s.attr)
			switch {
			case accepted && tracked == 0:
				t.Errorf("%s accepts %s, but no retention row gives it a deadline the provider can compute or the platform enforces: it would be silently inert", def.Name, s.attr)
			case !accepted && rows > 0:
				t.Errorf("%s refuses %s, yet %d retention row(s) say it is tracked there", def.Name, s.attr, rows)
			}
		}
		for _, r := range rules {
			if r.Enforced != caps.EnforcesDeadlines {
				t.Errorf("%s row %s %s: Enforced = %v, but the platform's EnforcesDeadlines = %v", def.Name, r.Key, r.State, r.Enforced, caps.EnforcesDeadlines)
			}
		}
	}
	if caps := capabilities["docker"]; caps.Accepts(platform.AttrSandboxIdleTimeout) {
		t.Error("Docker accepts idle_timeout: the engine reports no activity inside a box, so no idle deadline can be tracked")
	}
}
