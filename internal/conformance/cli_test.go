package conformance_test

import (
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/conformance"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/kits"
)

// TestAccConformanceCLI runs the scenarios of the newer CLI's features
// (identity and list resources, the two actions, write-only env) on every
// platform of the registry, each scenario on an instance of its own, all in
// parallel. The CLI matrix runs this one test on every CLI; each scenario
// skips below the Terraform version it needs.
func TestAccConformanceCLI(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel() // beside the other suites of the package but the trace test, which sets the process's environment
	for _, e := range kits.All() {
		t.Run(e.Kit.Name(), func(t *testing.T) {
			t.Parallel()
			runIsolated(t, e.Kit, platformtest.CLIScenarios())
		})
	}
}

// runIsolated runs each scenario as a parallel subtest on an instance of
// its own.
func runIsolated(t *testing.T, kit platformtest.Kit, scenarios []platformtest.Scenario) {
	for _, sc := range scenarios {
		t.Run(sc.Name, func(t *testing.T) {
			t.Parallel()
			in := platformtest.Start(t, kit, platformtest.KitOptions{Pace: sc.Pace})
			sc.Run(t, in, conformance.Factories(in))
		})
	}
}
