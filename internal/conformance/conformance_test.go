package conformance_test

import (
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/conformance"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/kits"
)

// TestAccConformance runs the platform conformance suite on every platform
// of the registry, through the real terraform CLI: the platforms in
// parallel, each on an instance of its own (its own fake, or its own owner
// on the shared Docker engine, and the suite's random names). A platform
// that cannot do what a scenario needs skips it, saying so; the do-nothing
// platform runs only its refusal steps.
func TestAccConformance(t *testing.T) {
	acctest.RequireTerraform(t)
	for _, e := range kits.All() {
		t.Run(e.Kit.Name(), func(t *testing.T) {
			t.Parallel()
			in := platformtest.Start(t, e.Kit, platformtest.KitOptions{})
			platformtest.Run(t, in, conformance.Factories(in))
			runIsolated(t, e.Kit, platformtest.IsolatedScenarios())
		})
	}
}
