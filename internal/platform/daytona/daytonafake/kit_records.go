package daytonafake

import (
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

var (
	_ platformtest.ExecRecorder     = (*kitOOB)(nil)
	_ platformtest.SnapshotRecorder = (*kitOOB)(nil)
)

// ExecRuns are the commands the toolbox ran in the box: argv as the
// daemon split the command string, in its cwd (the daemon's own where
// none was sent). Daytona's execute takes no environment.
func (o *kitOOB) ExecRuns(_ *testing.T, sandboxID string) []platformtest.ExecRun {
	var out []platformtest.ExecRun
	for _, r := range o.fake.ExecRuns() {
		if r.Sandbox == sandboxID || strings.HasSuffix(r.Sandbox, sandboxID) {
			out = append(out, platformtest.ExecRun{Command: r.Argv, Dir: r.Cwd, TimeoutSecs: r.Timeout})
		}
	}
	return out
}

// SnapshotsOf are the Daytona snapshots taken of the box, ready when active.
func (o *kitOOB) SnapshotsOf(_ *testing.T, sandboxID string) []platformtest.TakenSnapshot {
	var out []platformtest.TakenSnapshot
	for _, sn := range o.fake.Snapshots() {
		if sn.FromSandbox == sandboxID && !sn.Removed {
			out = append(out, platformtest.TakenSnapshot{ID: sn.ID, Name: sn.Name, Ready: sn.State == "active"})
		}
	}
	return out
}

var _ platformtest.EnvRecorder = (*kitOOB)(nil)

// SandboxEnv is the env the box was created with.
func (o *kitOOB) SandboxEnv(_ *testing.T, sandboxID string) (map[string]string, bool) {
	sb, ok := o.fake.Sandbox(sandboxID)
	return sb.Env, ok
}
