package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func TestSandboxAsRecorded(t *testing.T) {
	state := platform.Attribute{Support: platform.InPlace, Values: platform.DesiredStates}
	// A platform that sizes a box by its template (the table refuses
	// cpu_count and memory_mb) and does not report whether a paused box kept
	// its memory.
	templateSized := platform.Capabilities{PauseKindUnreported: true, Attributes: platform.Attributes{
		platform.AttrSandboxState:    state,
		platform.AttrSandboxCPUCount: {Why: "a sandbox takes its size from its template"},
		platform.AttrSandboxMemoryMB: {Why: "a sandbox takes its size from its template"},
	}}
	dockerLike := platform.Capabilities{Attributes: platform.Attributes{
		platform.AttrSandboxState:    state,
		platform.AttrSandboxCPUCount: {Support: platform.InPlace},
		platform.AttrSandboxMemoryMB: {Support: platform.InPlace},
	}}
	tests := []struct {
		name      string
		caps      platform.Capabilities
		prior     string // the recorded state
		reported  platform.SandboxState
		want      platform.SandboxState
		wantSizes bool // cpu/memory read through
	}{
		{"stopped box reads paused: still stopped", templateSized, "stopped", platform.StatePaused, platform.StateStopped, false},
		{"paused box reads paused", templateSized, "paused", platform.StatePaused, platform.StatePaused, false},
		{"running box paused out of band stays drift", templateSized, "running", platform.StatePaused, platform.StatePaused, false},
		{"stopped box resumed out of band is running", templateSized, "stopped", platform.StateRunning, platform.StateRunning, false},
		{"import (no recorded state) reads paused", templateSized, "", platform.StatePaused, platform.StatePaused, false},
		{"reported kind is trusted where the platform reports it", dockerLike, "stopped", platform.StatePaused, platform.StatePaused, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prior := sandboxTestModel()
			prior.State = types.StringNull()
			if tt.prior != "" {
				prior.State = types.StringValue(tt.prior)
			}
			sb := &platform.Sandbox{ID: "box1", Status: tt.reported, PlatformStatus: "raw", CPUCount: 2, MemoryMB: 512}
			got := sandboxAsRecorded(tt.caps, prior, sb)
			if got.Status != tt.want || got.PlatformStatus != "raw" || got.ID != "box1" {
				t.Errorf("status = %s (platform %q), want %s", got.Status, got.PlatformStatus, tt.want)
			}
			if sized := got.CPUCount == 2 && got.MemoryMB == 512; sized != tt.wantSizes {
				t.Errorf("cpu %d, memory %d; want the platform's sizes read through: %v", got.CPUCount, got.MemoryMB, tt.wantSizes)
			}
			if sb.Status != tt.reported || sb.CPUCount != 2 {
				t.Error("the platform's answer was modified in place")
			}
		})
	}
}
