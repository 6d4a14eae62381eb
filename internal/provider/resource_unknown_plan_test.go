package provider

import (
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// unknownPlanTestplat is the sandbox fake under testplat's name, so
// testplat's rows of the policy table apply: an unset timeout is its 5m
// default. Its timeout and on_timeout change in place.
type unknownPlanTestplat struct{ *sandboxFakePlatform }

func (unknownPlanTestplat) Name() string { return testplatName }
func (unknownPlanTestplat) Capabilities() platform.Capabilities {
	c := sandboxTestCaps
	c.Attributes = sandboxTestAttributes(platform.Attributes{
		platform.AttrSandboxTimeout: {Support: platform.InPlace},
		platform.AttrSandboxOnTimeout: {Support: platform.InPlace,
			Values: []string{string(platform.OnTimeoutKill), string(platform.OnTimeoutPause)}},
	})
	return c
}

// unknownPlanCreateModel is a planned new box, its computed values unknown.
func unknownPlanCreateModel() sandboxModel {
	m := sandboxTestModel()
	m.Timeouts = sandboxTestTimeouts()
	u := types.StringUnknown()
	m.ID, m.Status, m.CreatedAt, m.StartedAt = u, u, u, u
	m.Platform, m.StatusSince, m.ExpiresAt, m.RetentionRule, m.RetentionAction = u, u, u, u, u
	return m
}

// TestSandboxPlanUnknownLifecycleNoBogusWarning: a lifecycle setting known
// only after apply (it comes from a resource created in the same apply)
// must not be judged as unset. On testplat an unset timeout is the 5m
// default, which warns; an unknown timeout may be 24 h, so the plan must not
// warn about 5m. Nothing is an error, and the retention values are left to
// the apply.
func TestSandboxPlanUnknownLifecycleNoBogusWarning(t *testing.T) {
	r := &sandboxResource{
		platform:  unknownPlanTestplat{&sandboxFakePlatform{boxes: &sandboxFakeBoxes{}}},
		retention: retentionSettings{policy: testplatPolicy(t), warnBefore: 72 * time.Hour, clock: clock.NewFake(retentionTestT0)},
	}
	tests := []struct {
		name     string
		set      func(m *sandboxModel)
		warnings int
	}{
		{"unset timeout warns about the platform default", func(*sandboxModel) {}, 1},
		{"unknown timeout", func(m *sandboxModel) { m.Timeout = types.StringUnknown() }, 0},
		{"unknown on_timeout", func(m *sandboxModel) {
			m.Timeout, m.OnTimeout = types.StringValue("1h"), types.StringUnknown()
		}, 0},
		{"unknown idle_timeout", func(m *sandboxModel) {
			m.Timeout, m.IdleTimeout = types.StringValue("1h"), types.StringUnknown()
		}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := unknownPlanCreateModel()
			tt.set(&plan)
			var diags diag.Diagnostics
			sandboxPlanRetention(&plan, nil, true, r.platform.Name(), r.retention, &diags)
			if diags.HasError() || diags.WarningsCount() != tt.warnings {
				t.Fatalf("want %d warnings and no error, got %v", tt.warnings, diags)
			}
			if !plan.ExpiresAt.IsUnknown() || !plan.StatusSince.IsUnknown() {
				t.Errorf("retention values must be left to the apply, got expires_at %s, status_since %s", plan.ExpiresAt, plan.StatusSince)
			}
		})
	}
	t.Run("in-place change to an unknown timeout", func(t *testing.T) {
		state := retentionTestPausedState()
		state.State, state.Status = types.StringValue("running"), types.StringValue("running")
		plan := state
		plan.Timeout = types.StringUnknown()
		var diags diag.Diagnostics
		sandboxPlanRetention(&plan, &state, false, r.platform.Name(), r.retention, &diags)
		if diags.WarningsCount() != 0 || !plan.ExpiresAt.IsUnknown() || !plan.StatusSince.Equal(state.StatusSince) {
			t.Fatalf("got expires_at %s, status_since %s, %v", plan.ExpiresAt, plan.StatusSince, diags)
		}
	})
}

// TestSnapshotPlanUnknownTTLNoBogusWarning: a new Fly volume snapshot with
// no ttl is kept 5 days, which warns under a 7-day warn_before; a ttl known
// only after apply may be 60 days, so it must not warn.
func TestSnapshotPlanUnknownTTLNoBogusWarning(t *testing.T) {
	rs := retentionSettings{policy: retentionTestPolicy(t, nil), warnBefore: 7 * 24 * time.Hour,
		clock: clock.NewFake(retentionTestT0)}
	for _, tt := range []struct {
		name     string
		ttl      types.String
		warnings int
	}{
		{"no ttl warns about the platform default", types.StringNull(), 1},
		{"unknown ttl", types.StringUnknown(), 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			plan := snapshotModel{Kind: types.StringValue(string(platform.SnapshotVolume)), TTL: tt.ttl}
			var diags diag.Diagnostics
			snapshotPlanRetention(&plan, nil, "fly", rs, &diags)
			if diags.HasError() || diags.WarningsCount() != tt.warnings {
				t.Fatalf("want %d warnings and no error, got %v", tt.warnings, diags)
			}
			if plan.Platform.ValueString() != "fly" {
				t.Errorf("platform = %s", plan.Platform)
			}
		})
	}
}
