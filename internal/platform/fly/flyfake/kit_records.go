package flyfake

import (
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

var _ platformtest.ExecRecorder = (*kitOOB)(nil)

// ExecRuns are the commands Fly's exec ran in the machine. Fly's exec
// takes neither an environment nor a working directory.
func (o *kitOOB) ExecRuns(_ *testing.T, sandboxID string) []platformtest.ExecRun {
	var out []platformtest.ExecRun
	for _, r := range o.fake.ExecRuns() {
		if r.Machine == sandboxID {
			out = append(out, platformtest.ExecRun{Command: r.Command, TimeoutSecs: r.Timeout})
		}
	}
	return out
}

var _ platformtest.EnvRecorder = (*kitOOB)(nil)

// SandboxEnv is the machine's config.env, as its last update set it.
func (o *kitOOB) SandboxEnv(_ *testing.T, sandboxID string) (map[string]string, bool) {
	m, ok := o.fake.Machine(sandboxID)
	return m.Env, ok
}
