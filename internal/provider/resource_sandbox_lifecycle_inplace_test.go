package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/docker"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b"
)

// TestSandboxLifecycleInPlacePerSetting: which changed lifecycle settings
// replace a box is decided per setting from the platform's attribute
// table. On E2B only timeout changes in place, so a changed on_timeout
// replaces the box; Docker (the provider tracks the deadlines) and a table
// changing every setting in place replace nothing; and an on_timeout left
// out is "kill".
func TestSandboxLifecycleInPlacePerSetting(t *testing.T) {
	e2bPlat, err := e2b.New(e2b.Config{APIKey: "k", APIURL: "http://127.0.0.1:1", Tier: e2b.TierPro})
	if err != nil {
		t.Fatal(err)
	}
	e2bCaps := e2bPlat.Capabilities()
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
		{"e2b on_timeout", e2bCaps.Attributes, func(m *sandboxModel) { m.OnTimeout = str("pause") }, path.Paths{pathSandboxOnTimeout}},
		{"e2b timeout", e2bCaps.Attributes, func(m *sandboxModel) { m.Timeout = str("20m") }, nil},
		{"e2b both", e2bCaps.Attributes, func(m *sandboxModel) { m.Timeout, m.OnTimeout = str("20m"), str("pause") }, path.Paths{pathSandboxOnTimeout}},
		{"e2b kill left out", e2bCaps.Attributes, func(m *sandboxModel) { m.OnTimeout = types.StringNull() }, nil},
		{"e2b kill written out", e2bCaps.Attributes, func(m *sandboxModel) { m.OnTimeout = str("kill") }, nil},
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
