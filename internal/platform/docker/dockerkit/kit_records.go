package dockerkit

import (
	"context"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

var _ platformtest.EnvRecorder = (*kitOOB)(nil)

// SandboxEnv is the container's environment as the engine reports it (the
// image's variables among it).
func (o *kitOOB) SandboxEnv(t *testing.T, sandboxID string) (map[string]string, bool) {
	t.Helper()
	c, err := o.api.ContainerInspect(context.Background(), sandboxID)
	if err != nil || c.Config == nil {
		return nil, false
	}
	env := map[string]string{}
	for _, kv := range c.Config.Env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	return env, true
}
