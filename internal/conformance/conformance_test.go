package conformance_test

import (
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/kits"
)

// TestAccConformance runs the platform conformance suite on every platform
// of the registry, through the real terraform CLI: every scenario of every
// platform in parallel, each on an instance of its own (its own fake, or
// its own owner on the shared Docker engine, and the suite's random names).
// A platform that cannot do what a scenario needs skips it, saying so; the
// do-nothing platform runs only its refusal steps.
func TestAccConformance(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel() // beside the other suites of the package but the trace test, which sets the process's environment
	for _, e := range kits.All() {
		t.Run(e.Kit.Name(), func(t *testing.T) {
			t.Parallel()
			runIsolated(t, e.Kit, platformtest.SuiteScenarios())
		})
	}
}
