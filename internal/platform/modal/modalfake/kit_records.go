package modalfake

import (
	"sort"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

var (
	_ platformtest.ExecRecorder     = (*kitOOB)(nil)
	_ platformtest.SnapshotRecorder = (*kitOOB)(nil)
)

// ExecRuns are the commands the task command router ran in the box, with
// the environment and working directory each was given.
func (o *kitOOB) ExecRuns(_ *testing.T, sandboxID string) []platformtest.ExecRun {
	var out []platformtest.ExecRun
	for _, e := range o.ws.Execs(sandboxID) {
		out = append(out, platformtest.ExecRun{Command: e.Command, Dir: e.Workdir, Env: e.Env,
			TimeoutSecs: int(e.TimeoutSecs), Killed: e.Signal == 9})
	}
	return out
}

// SnapshotsOf are the filesystem snapshots (Images made from the box; Modal
// lists no images, the fake knows them) and memory snapshots of the box.
func (o *kitOOB) SnapshotsOf(_ *testing.T, sandboxID string) []platformtest.TakenSnapshot {
	o.ws.s.mu.Lock()
	defer o.ws.s.mu.Unlock()
	var out []platformtest.TakenSnapshot
	for _, img := range o.ws.images {
		if img.fromSandbox == sandboxID {
			out = append(out, platformtest.TakenSnapshot{ID: img.id, Ready: img.status == "ready"})
		}
	}
	for _, sn := range o.ws.memSnaps {
		if sn.sandboxID == sandboxID {
			out = append(out, platformtest.TakenSnapshot{ID: sn.id, Ready: true})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

var _ platformtest.EnvRecorder = (*kitOOB)(nil)

// SandboxEnv is the environment the sandbox got (secrets and env).
func (o *kitOOB) SandboxEnv(_ *testing.T, sandboxID string) (map[string]string, bool) {
	sb, ok := o.ws.Sandbox(sandboxID)
	return sb.Env, ok
}
