package platformtest

import (
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Factories serve the sbx provider to the terraform CLI, as
// resource.TestCase's ProtoV6ProviderFactories.
type Factories = map[string]func() (tfprotov6.ProviderServer, error)

// harness is what the scenarios read of one started platform.
type harness struct {
	// Name is the platform's name as errors give it ("docker", "e2b").
	Name              string
	ProviderFactories Factories
	// ProviderConfig is the HCL of the provider block.
	ProviderConfig string
	// TemplateConfig: see Instance.TemplateConfig.
	TemplateConfig          func(name string) string
	Capabilities            platform.Capabilities
	OutOfBand               OutOfBand
	ImportStateVerifyIgnore map[string][]string
	// SnapshotsHeldByRunningBoxes: see Instance.
	SnapshotsHeldByRunningBoxes bool
	// NamePrefix: see Instance.
	NamePrefix string
	// TemplatesInStateOnly: see Instance.
	TemplatesInStateOnly bool
}

func newHarness(in *Instance, factories Factories) harness {
	return harness{
		Name:                        in.Name,
		ProviderFactories:           factories,
		ProviderConfig:              in.ProviderBlock(),
		TemplateConfig:              in.TemplateConfig,
		Capabilities:                in.Capabilities,
		OutOfBand:                   in.OutOfBand,
		ImportStateVerifyIgnore:     in.ImportStateVerifyIgnore,
		SnapshotsHeldByRunningBoxes: in.SnapshotsHeldByRunningBoxes,
		NamePrefix:                  in.NamePrefix,
		TemplatesInStateOnly:        in.TemplatesInStateOnly,
	}
}

// scenario is one named scenario of the suite.
type scenario struct {
	name string
	run  func(*testing.T, harness)
}

// scenarios are the suite's scenarios in the order Run runs them.
func scenarios() []scenario {
	return []scenario{
		{"attributes_in_place", testAttributesInPlace},
		{"lifecycle", testLifecycle},
		{"state_changes_in_place", testStateChanges},
		{"lifecycle_changes_in_place", testLifecycleChanges},
		{"out_of_band_state_change", testOutOfBandState},
		{"disappears", testDisappears},
		{"snapshot_and_restore", testSnapshotRestore},
		{"restored_snapshot_lost", testRestoredSnapshotLost},
		{"restored_volume_snapshot_lost", testRestoredVolumeSnapshotLost},
		{"lookups", testLookups},
		{"import", testImport},
		{"import_held_elsewhere", testImportHeldElsewhere},
		{"import_foreign", testImportForeign},
		{"import_foreign_snapshot", testImportForeignSnapshot},
		{"import_built_template", testImportBuiltTemplate},
		{"saved_plan", testSavedPlan},
	}
}

// SuiteScenarios are the suite's scenarios, the attribute refusals first,
// each to run on an instance of its own, as they must: some check
// everything the platform holds (restore), and apart they run in parallel.
// The provider is served by the factories the caller built for that
// instance.
func SuiteScenarios() []Scenario {
	out := []Scenario{{Name: refusalsName, Run: func(t *testing.T, in *Instance, f Factories) {
		testAttributeRefusals(t, newHarness(in, f))
	}}}
	for _, s := range scenarios() {
		out = append(out, Scenario{Name: s.name, Run: func(t *testing.T, in *Instance, f Factories) {
			runScenarioBody(t, newHarness(in, f), s)
		}})
	}
	return append(out, Scenario{Name: "restore", Run: testRestore})
}

// RunOnly runs the named scenarios (Run's subtest names) and no others,
// for a test that proves a kit's wiring rather than the platform; a name
// the suite does not have fails t.
func RunOnly(t *testing.T, in *Instance, factories Factories, names ...string) {
	h := newHarness(in, factories)
	all := scenarios()
	for _, name := range names {
		i := slices.IndexFunc(all, func(s scenario) bool { return s.name == name })
		if i < 0 {
			t.Fatalf("the conformance suite has no scenario %q", name)
		}
		runScenario(t, h, all[i])
	}
}

func runScenario(t *testing.T, h harness, s scenario) {
	t.Run(s.name, func(t *testing.T) { runScenarioBody(t, h, s) })
}

func runScenarioBody(t *testing.T, h harness, s scenario) {
	// Every scenario but the refusals starts boxes from a template.
	if h.TemplateConfig == nil {
		t.Skipf("%s makes no template (its kit gives no template configuration), so there is no box to run this scenario on", h.Name)
	}
	s.run(t, h)
}
