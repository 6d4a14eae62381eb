// Package platformtest is the conformance suite every sandbox platform must
// pass: the same Terraform scenarios (lifecycle, in-place state changes,
// drift, disappearing objects, snapshots and restore, lookups, import), run
// through the real terraform CLI against whichever platform the caller's
// Harness configures. A platform is skipped out of a scenario only when its
// capability matrix says it lacks the feature, and the skip says so.
//
// The suite must not import internal/provider (that package's tests import
// this one), so the caller hands in the provider factories.
package platformtest

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Kinds of objects, as the OutOfBand hooks name them.
const (
	KindTemplate = "template"
	KindVolume   = "volume"
	KindSandbox  = "sandbox"
	KindSnapshot = "snapshot"
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

// OutOfBand reaches the platform directly, as a person with the platform's
// own CLI or console would. Every hook fails t on an unexpected error.
type OutOfBand interface {
	// SandboxState reports the sandbox's state as the platform sees it.
	SandboxState(t *testing.T, id string) platform.SandboxState
	// SetSandboxState pauses, stops or resumes a sandbox.
	SetSandboxState(t *testing.T, id string, state platform.SandboxState)
	// Delete removes an object of kind (Kind*); it must be gone on return.
	Delete(t *testing.T, kind, id string)
	// Exists reports whether an object of kind still exists.
	Exists(t *testing.T, kind, id string) bool
	// ReadSandboxFile reads a file inside a running sandbox; false when it
	// does not exist (yet).
	ReadSandboxFile(t *testing.T, sandboxID, path string) (string, bool)
	// ReadVolumeFile reads a file stored in a volume; path is relative to
	// the volume's root (a leading "/" is allowed). False when it does not exist.
	ReadVolumeFile(t *testing.T, volumeID, path string) (string, bool)
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
