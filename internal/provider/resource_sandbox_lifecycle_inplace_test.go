package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b"
)

// TestSandboxLifecycleInPlacePerSetting: which changed lifecycle settings
// replace a box is decided per setting from the platform's data. On E2B
// only timeout changes in place, so a changed on_timeout replaces the box;
// a platform naming no settings (Docker) changes every one in place, as
// LifecycleMutable says; and an on_timeout left out is "kill".
func TestSandboxLifecycleInPlacePerSetting(t *testing.T) {
	e2bPlat, err := e2b.New(e2b.Config{APIKey: "k", APIURL: "http://127.0.0.1:1", Tier: e2b.TierPro})
	if err != nil {
		t.Fatal(err)
	}
	docker := &dataSourceFakePlatform{caps: lifecycleTestCaps} // LifecycleMutable, names none
	str := types.StringValue
	state := sandboxTestModel()
	state.Timeout, state.OnTimeout = str("10m"), str("kill")
	tests := []struct {
		name   string
		plat   platform.Platform
		change func(*sandboxModel)
		want   path.Paths
	}{
		{"e2b on_timeout", e2bPlat, func(m *sandboxModel) { m.OnTimeout = str("pause") }, path.Paths{pathSandboxOnTimeout}},
		{"e2b timeout", e2bPlat, func(m *sandboxModel) { m.Timeout = str("20m") }, nil},
		{"e2b both", e2bPlat, func(m *sandboxModel) { m.Timeout, m.OnTimeout = str("20m"), str("pause") }, path.Paths{pathSandboxOnTimeout}},
		{"e2b kill left out", e2bPlat, func(m *sandboxModel) { m.OnTimeout = types.StringNull() }, nil},
		{"docker on_timeout", docker, func(m *sandboxModel) { m.OnTimeout = str("pause") }, nil},
		{"docker every setting", docker, func(m *sandboxModel) {
			m.Timeout, m.OnTimeout, m.IdleTimeout, m.AutoDeleteAfter = str("1h"), str("stop"), str("5m"), str("1d")
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := state
			tt.change(&plan)
			got := sandboxLifecycleReplacePaths(tt.plat.Capabilities(), plan, state)
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
	// Not LifecycleMutable: every changed setting replaces, named or not.
	immutable := lifecycleTestCaps
	immutable.LifecycleMutable = false
	plan := state
	plan.Timeout = str("20m")
	if got := sandboxLifecycleReplacePaths(immutable, plan, state); len(got) != 1 || !got[0].Equal(pathSandboxTimeout) {
		t.Errorf("immutable lifecycle: replacing paths = %v, want [timeout]", got)
	}
}
