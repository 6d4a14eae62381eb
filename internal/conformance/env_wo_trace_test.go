package conformance_test

import (
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/conformance"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/kits"
)

// TestAccConformanceEnvWOTrace runs the env_wo scenario on every platform
// of the registry with the trace logs on, proving no secret reaches them.
// The trace logs are switched on through the process's environment, so
// the platforms run one after the other, in no parallel test.
func TestAccConformanceEnvWOTrace(t *testing.T) {
	acctest.RequireTerraform(t)
	for _, e := range kits.All() {
		t.Run(e.Kit.Name(), func(t *testing.T) {
			in := platformtest.Start(t, e.Kit, platformtest.KitOptions{})
			platformtest.RunEnvWOTrace(t, in, conformance.Factories(in))
		})
	}
}
