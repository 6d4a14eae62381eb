package provider

import (
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/docker"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// TestLifecycleSettingsAreNeverInert: every sandbox lifecycle setting a
// built platform accepts gives a deadline, through a row of the retention
// table that the setting replaces on that platform, counting from a moment
// the provider records. No platform reports a box's last activity
// (retention.Object.LastUsedAt is never filled in), so a setting whose
// only rows count from it would be accepted and do nothing; a setting the
// platform refuses must have no row that pretends to track it.
func TestLifecycleSettingsAreNeverInert(t *testing.T) {
	e2bPlat, err := e2b.New(e2b.Config{APIKey: "e2b_test", APIURL: "http://127.0.0.1:1", Tier: e2b.TierPro})
	if err != nil {
		t.Fatal(err)
	}
	platforms := map[string]platform.Capabilities{
		retention.Docker: (*docker.Platform)(nil).Capabilities(),
		retention.E2B:    e2bPlat.Capabilities(),
	}
	for name, caps := range platforms {
		accepted := map[retention.Setting]bool{
			retention.SettingTimeout:          len(caps.OnTimeoutActions) > 0,
			retention.SettingIdleTimeout:      caps.IdleTimeout,
			retention.SettingAutoArchiveAfter: caps.AutoArchive,
			retention.SettingAutoDeleteAfter:  caps.AutoDelete,
		}
		for setting, ok := range accepted {
			var tracked, rows int
			for _, r := range retention.Rules() {
				if r.Platform != name || r.Object != retention.Sandbox || r.Setting != setting {
					continue
				}
				rows++
				if r.Since != retention.SinceLastUsed {
					tracked++
				}
			}
			switch {
			case ok && tracked == 0:
				t.Errorf("%s accepts %s, but no retention row gives it a deadline the provider can compute: it would be silently inert", name, setting)
			case !ok && rows > 0:
				t.Errorf("%s refuses %s, yet %d retention row(s) say it is tracked there", name, setting, rows)
			}
		}
	}
	if caps := platforms[retention.Docker]; caps.IdleTimeout {
		t.Error("Docker accepts idle_timeout: the engine reports no activity inside a box, so no idle deadline can be tracked")
	}
}
