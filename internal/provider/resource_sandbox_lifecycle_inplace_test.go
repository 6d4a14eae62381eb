package provider

import (
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/docker"
)

// TestSandboxLifecycleInPlacePerSetting: which changed lifecycle settings
// replace a box is decided per setting from the platform's attribute
// table. Where only timeout changes in place and on_timeout is fixed at
// create, a changed on_timeout replaces the box; Docker (the provider tracks
// the deadlines) and a table changing every setting in place replace
// nothing; and an on_timeout left out is "kill".
func TestSandboxLifecycleInPlacePerSetting(t *testing.T) {
	// timeout in place, on_timeout (kill or pause) fixed at create, no
	// other lifecycle setting.
	onTimeoutFixed := lifecycleTestAttributes(platform.Attributes{
		platform.AttrSandboxTimeout: {Support: platform.InPlace, MaxDuration: 24 * time.Hour},
		platform.AttrSandboxOnTimeout: {Support: platform.Replace,
			Values: []string{string(platform.OnTimeoutKill), string(platform.OnTimeoutPause)}},
		platform.AttrSandboxIdleTimeout:      {Why: "no idle deadline here"},
		platform.AttrSandboxAutoArchiveAfter: {Why: "no archive here"},
		platform.AttrSandboxAutoDeleteAfter:  {Why: "no auto delete here"},
	})
	dockerCaps := (*docker.Platform)(nil).Capabilities()
	// Every lifecycle setting in place, any on_timeout accepted.
	everyInPlace := lifecycleTestAttributes(platform.Attributes{platform.AttrSandboxOnTimeout: {Support: platform.InPlace}})
	str := types.StringValue
	state := sandboxTestModel()
	state.Timeout, state.OnTimeout = str("10m"), str("kill")
	tests := []struct {
		name   string
		table  platform.Attributes
		change func(*sandboxModel)
		want   path.Paths
	}{
		{"fixed on_timeout: on_timeout", onTimeoutFixed, func(m *sandboxModel) { m.OnTimeout = str("pause") }, path.Paths{pathSandboxOnTimeout}},
		{"fixed on_timeout: timeout", onTimeoutFixed, func(m *sandboxModel) { m.Timeout = str("20m") }, nil},
		{"fixed on_timeout: both", onTimeoutFixed, func(m *sandboxModel) { m.Timeout, m.OnTimeout = str("20m"), str("pause") }, path.Paths{pathSandboxOnTimeout}},
		{"fixed on_timeout: kill left out", onTimeoutFixed, func(m *sandboxModel) { m.OnTimeout = types.StringNull() }, nil},
		{"fixed on_timeout: kill written out", onTimeoutFixed, func(m *sandboxModel) { m.OnTimeout = str("kill") }, nil},
		{"docker on_timeout", dockerCaps.Attributes, func(m *sandboxModel) { m.OnTimeout = str("stop") }, nil},
		{"docker timeout and auto_delete_after", dockerCaps.Attributes, func(m *sandboxModel) {
			m.Timeout, m.AutoDeleteAfter = str("1h"), str("1d")
		}, nil},
		{"every setting in place", everyInPlace, func(m *sandboxModel) {
			m.Timeout, m.OnTimeout, m.IdleTimeout, m.AutoDeleteAfter = str("1h"), str("stop"), str("5m"), str("1d")
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := state
			tt.change(&plan)
			var diags diag.Diagnostics
			got := planAttributes(tt.table, "test", sandboxAttributes(plan, &state), &diags).replace
			if diags.HasError() {
				t.Fatalf("unexpected errors: %v", diags)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("replacing paths = %v, want %v", got, tt.want)
			}
			for i := range got {
				if !got[i].Equal(tt.want[i]) {
					t.Fatalf("replacing paths = %v, want %v", got, tt.want)
				}
			}
		})
	}
	// Replace rows: every changed setting replaces.
	immutable := lifecycleTestAttributes(platform.Attributes{platform.AttrSandboxTimeout: {Support: platform.Replace}})
	plan := state
	plan.Timeout = str("20m")
	var diags diag.Diagnostics
	if got := planAttributes(immutable, "test", sandboxAttributes(plan, &state), &diags).replace; diags.HasError() ||
		len(got) != 1 || !got[0].Equal(pathSandboxTimeout) {
		t.Errorf("immutable lifecycle: replacing paths = %v (%v), want [timeout]", got, diags)
	}
}
