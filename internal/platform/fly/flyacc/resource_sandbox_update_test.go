package flyacc_test

import (
	"fmt"
	"maps"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
)

// flyUpdateConfig is a running machine with env and labels given as HCL
// map bodies.
func flyUpdateConfig(providerConfig, env, labels string) string {
	return providerConfig + flyTemplateHCL("update-tpl") + fmt.Sprintf(`
resource "sbx_sandbox" "b" {
  name        = "update-box"
  template_id = sbx_template.t.id
  env         = { %s }
  labels      = { %s }
}
`, env, labels)
}

// flyUpdateMachine checks the fake's machine at addr: it carries env and
// the labels (among its metadata), is started, and has had versions
// versions (an update adds one).
func flyUpdateMachine(fake *flyfake.Server, addr string, env, labels map[string]string, versions *int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		m, err := flyResMachine(s, fake, addr)
		if err != nil {
			return err
		}
		if !maps.Equal(m.Env, env) {
			return fmt.Errorf("the fake's machine %s has env %v, want %v", m.ID, m.Env, env)
		}
		for k, v := range labels {
			if m.Metadata[k] != v {
				return fmt.Errorf("the fake's machine %s has metadata %s = %q, want %q (metadata %v)", m.ID, k, m.Metadata[k], v, m.Metadata)
			}
		}
		if m.State != flyfake.StateStarted {
			return fmt.Errorf("the fake's machine %s is %s, want started", m.ID, m.State)
		}
		if *versions == 0 {
			*versions = len(m.Versions)
			return nil
		}
		if len(m.Versions) != *versions+1 {
			return fmt.Errorf("the fake's machine %s has %d versions, want %d (one machine update)", m.ID, len(m.Versions), *versions+1)
		}
		if m.InstanceID != m.Versions[len(m.Versions)-1] {
			return fmt.Errorf("the fake's machine %s runs version %s, not its newest %s", m.ID, m.InstanceID, m.Versions[len(m.Versions)-1])
		}
		return nil
	}
}

// env and labels changed on a running machine are one machine update in
// place: the same machine id, a new machine version carrying the new env
// and metadata, still started, and an empty plan after it. Removed keys
// are gone from the machine.
func TestAccFlySandboxEnvLabelsInPlace(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := flyAccFake(t, flyfake.Options{})
	var id string
	versions := 0
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: flyAccFactories,
		CheckDestroy:             flyResHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				Config:           flyUpdateConfig(cfg, `GREETING = "hello", KEEP = "same"`, `team = "red", tier = "dev"`),
				ConfigPlanChecks: flyResEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.CaptureAttr("sbx_sandbox.b", "id", &id),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "labels.team", "red"),
					flyUpdateMachine(fake, "sbx_sandbox.b",
						map[string]string{"GREETING": "hello", "KEEP": "same"},
						map[string]string{"team": "red", "tier": "dev"}, &versions),
					flyResMachineCount(fake, 1),
				),
			},
			{
				Config:           flyUpdateConfig(cfg, `GREETING = "bonjour", KEEP = "same", ADDED = "1"`, `team = "blue"`),
				ConfigPlanChecks: flyResInPlace("sbx_sandbox.b"),
				Check: resource.ComposeAggregateTestCheckFunc(
					flyResSameID("sbx_sandbox.b", &id),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "labels.%", "1"),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "labels.team", "blue"),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "status", "running"),
					flyUpdateMachine(fake, "sbx_sandbox.b",
						map[string]string{"GREETING": "bonjour", "KEEP": "same", "ADDED": "1"},
						map[string]string{"team": "blue"}, &versions),
					func(s *terraform.State) error {
						m, err := flyResMachine(s, fake, "sbx_sandbox.b")
						if err != nil {
							return err
						}
						if v, kept := m.Metadata["tier"]; kept {
							return fmt.Errorf("the removed label tier is still in machine %s's metadata (%q)", m.ID, v)
						}
						return nil
					},
					flyResMachineCount(fake, 1),
				),
			},
			{
				// Fly's update of a started machine restarts it: the apply
				// keeps the started_at it planned (that of the first
				// start), and a refresh reads the restart's. Refreshed, the
				// state matches an import.
				RefreshState: true,
				Check:        flyResSameID("sbx_sandbox.b", &id),
			},
			flyResSandboxImport("sbx_sandbox.b"),
		},
	})
}
