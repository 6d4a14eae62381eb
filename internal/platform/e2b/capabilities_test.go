package e2b

import (
	"slices"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestLifecycleAttributes: on every tier only a box's timeout changes in
// place (POST /sandboxes/{id}/timeout); on_timeout, kill, pause or stop, is
// the create request's autoPause (stop: with autoPauseMemory = false), so
// changing it replaces the box; E2B has no other lifecycle setting.
func TestLifecycleAttributes(t *testing.T) {
	for _, tier := range []string{TierBase, TierPro} {
		caps := capabilitiesFor(tier)
		if a := caps.Attribute(platform.AttrSandboxTimeout); a.Support != platform.InPlace {
			t.Errorf("%s: timeout = %+v, want in place", tier, a)
		}
		a := caps.Attribute(platform.AttrSandboxOnTimeout)
		if a.Support != platform.Replace || !slices.Equal(a.Values,
			[]string{string(platform.OnTimeoutKill), string(platform.OnTimeoutPause), string(platform.OnTimeoutStop)}) {
			t.Errorf("%s: on_timeout = %+v, want kill, pause or stop, replacing the box", tier, a)
		}
		for _, key := range []string{platform.AttrSandboxIdleTimeout, platform.AttrSandboxAutoArchiveAfter, platform.AttrSandboxAutoDeleteAfter} {
			if caps.Accepts(key) {
				t.Errorf("%s: %s accepted", tier, key)
			}
		}
	}
}
