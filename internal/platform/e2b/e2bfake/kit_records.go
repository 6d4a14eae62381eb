package e2bfake

import (
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

var _ platformtest.SnapshotRecorder = (*kitOOB)(nil)

// SnapshotsOf are the snapshots taken of the box (E2B snapshots are
// templates made from it, usable once made).
func (o *kitOOB) SnapshotsOf(_ *testing.T, sandboxID string) []platformtest.TakenSnapshot {
	var out []platformtest.TakenSnapshot
	for _, sn := range o.fake.Snapshots() {
		if sn.SandboxID == sandboxID {
			out = append(out, platformtest.TakenSnapshot{ID: sn.SnapshotID, Name: sn.Name, Ready: true})
		}
	}
	return out
}

var _ platformtest.EnvRecorder = (*kitOOB)(nil)

// SandboxEnv is the envVars the box was created with (E2B reports none).
func (o *kitOOB) SandboxEnv(_ *testing.T, sandboxID string) (map[string]string, bool) {
	sb, ok := o.fake.Sandbox(sandboxID)
	return sb.EnvVars, ok
}
