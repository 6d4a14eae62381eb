package platformtest

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Harness is everything the suite needs to know about one platform.
type Harness struct {
	// Name is the platform's name as errors give it ("docker", "e2b").
	Name string
	// ProviderFactories serves the sbx provider to the terraform CLI.
	ProviderFactories map[string]func() (tfprotov6.ProviderServer, error)
	// ProviderConfig is the HCL of the provider block, e.g. `provider "sbx" {}`.
	ProviderConfig string
	// TemplateConfig returns the body attributes (including name) of an
	// sbx_template that builds on this platform and runs the quickstart
	// agent, which honours AGENT_FILES.
	TemplateConfig func(name string) string
	// Capabilities is what the platform can do: its attribute table
	// decides which scenarios apply and drives the attribute scenarios.
	Capabilities platform.Capabilities
	// OutOfBand acts on the platform behind Terraform's back.
	OutOfBand OutOfBand
	// PreCheck fails the test when the platform (or its fake) is unusable.
	PreCheck func(t *testing.T)
	// ImportStateVerifyIgnore lists, per resource type (e.g. "sbx_template"),
	// attributes the platform cannot report back on import (inputs that are
	// consumed, not stored). `timeouts` is always ignored.
	ImportStateVerifyIgnore map[string][]string
}

// Run runs every scenario as a subtest.
func Run(t *testing.T, h Harness) {
	RunRefusals(t, h)
	t.Run("attributes_in_place", func(t *testing.T) { testAttributesInPlace(t, h) })
	t.Run("lifecycle", func(t *testing.T) { testLifecycle(t, h) })
	t.Run("state_changes_in_place", func(t *testing.T) { testStateChanges(t, h) })
	t.Run("lifecycle_changes_in_place", func(t *testing.T) { testLifecycleChanges(t, h) })
	t.Run("out_of_band_state_change", func(t *testing.T) { testOutOfBandState(t, h) })
	t.Run("disappears", func(t *testing.T) { testDisappears(t, h) })
	t.Run("snapshot_and_restore", func(t *testing.T) { testSnapshotRestore(t, h) })
	t.Run("lookups", func(t *testing.T) { testLookups(t, h) })
	t.Run("import", func(t *testing.T) { testImport(t, h) })
}
