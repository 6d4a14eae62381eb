package conformance_test

import (
	"os"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/kits"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

// TestAccConformanceAcceptance runs the acceptance scenarios once copied
// into each platform's *acc package on every platform of the registry, in
// parallel, each scenario on an instance of its own.
func TestAccConformanceAcceptance(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests need TF_ACC=1")
	}
	acctest.RequireTerraform(t)
	for _, e := range kits.All() {
		t.Run(e.Kit.Name(), func(t *testing.T) {
			t.Parallel()
			for _, sc := range platformtest.AcceptanceScenarios() {
				t.Run(sc.Name, func(t *testing.T) {
					t.Parallel()
					in := platformtest.Start(t, e.Kit, platformtest.KitOptions{Pace: sc.Pace})
					sc.Run(t, in, acceptanceFactories(in))
				})
			}
		})
	}
}

// acceptanceFactories serve a provider whose platforms are the provider's
// own with in's Definition in its place (added, for a test-only platform),
// its waits and clock in's.
func acceptanceFactories(in *platformtest.Instance) platformtest.Factories {
	var defs []platform.Definition
	for _, d := range provider.Platforms() {
		if d.Name == in.Name {
			d = in.Definition
		}
		defs = append(defs, d)
	}
	if in.TestOnly {
		defs = append(defs, in.Definition)
	}
	opts := provider.Options{Platforms: defs, Hooks: in.Hooks}
	if in.Clock != nil {
		opts.Clock = in.Clock
	}
	return acctest.Factories(provider.NewWithOptions("test", opts))
}
