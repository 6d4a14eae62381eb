package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// A read that says it could not report memory_snapshots for this box (one
// made outside the provider) keeps what the state recorded, as an
// Unreported row does, instead of reading the zero value as false.
func TestSandboxMemorySnapshotsReadPerBox(t *testing.T) {
	key := platform.AttrSandboxMemorySnapshots
	tests := []struct {
		name     string
		row      platform.Attribute
		sb       platform.Sandbox
		recorded types.Bool
		want     types.Bool
	}{
		{"reported", platform.Attribute{Support: platform.Replace}, platform.Sandbox{MemorySnapshots: true}, types.BoolNull(), types.BoolValue(true)},
		{"reported false", platform.Attribute{Support: platform.Replace}, platform.Sandbox{}, types.BoolNull(), types.BoolValue(false)},
		{"unreported for this box", platform.Attribute{Support: platform.Replace}, platform.Sandbox{Unreported: []string{key}}, types.BoolNull(), types.BoolNull()},
		{"unreported for this box, recorded", platform.Attribute{Support: platform.Replace}, platform.Sandbox{Unreported: []string{key}}, types.BoolValue(true), types.BoolValue(true)},
		{"an Unreported row", platform.Attribute{Support: platform.Replace, Unreported: true}, platform.Sandbox{}, types.BoolValue(true), types.BoolValue(true)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sandboxMemorySnapshotsRead(tt.row, tt.recorded, &tt.sb); !got.Equal(tt.want) {
				t.Errorf("memory_snapshots = %s, want %s", got, tt.want)
			}
		})
	}
}
