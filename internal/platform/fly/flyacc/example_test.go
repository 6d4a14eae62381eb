package flyacc_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
)

// flyExampleLive checks the fake holds the example's one machine, started
// with its one volume mounted, and that volume.
func flyExampleLive(fake *flyfake.Server) resource.TestCheckFunc {
	return func(*terraform.State) error {
		var machines []flyfake.MachineView
		for _, m := range fake.Machines() {
			if !m.Destroyed {
				machines = append(machines, m)
			}
		}
		if len(machines) != 1 || machines[0].State != flyfake.StateStarted || machines[0].VolumeID == "" {
			return fmt.Errorf("the fake holds machines %+v, want one started machine with a volume", machines)
		}
		return nil
	}
}

// examples/platforms/fly, unchanged, plans and applies against the fake:
// its main.tf is copied beside an override file (override.tf, Terraform's
// own mechanism) that points the provider at the fake and at the provider
// the test serves; then the next plan is empty, and destroy forgets the
// snapshot with a warning (Fly cannot delete one) and removes the rest.
func TestAccFlyExample(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, _ := flyAccFake(t, flyfake.Options{Apps: []string{"agents"}})
	dir := acctest.ExampleWithOverride(t, "fly", fmt.Sprintf(`provider "sbx" {
  fly {
    api_token = %q
    app       = "agents"
    region    = "iad"
    api_url   = %q
  }
}
`, flyAccToken, fake.URL()))
	resource.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			for _, m := range fake.Machines() {
				if !m.Destroyed {
					return fmt.Errorf("machine %s left on the fake", m.ID)
				}
			}
			for _, v := range fake.Volumes() {
				if v.State == flyfake.VolumeCreated {
					return fmt.Errorf("volume %s left on the fake", v.ID)
				}
			}
			return nil
		},
		Steps: []resource.TestStep{{
			ProtoV6ProviderFactories: flyAccFactories,
			ConfigDirectory:          config.StaticDirectory(dir),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("sbx_template.agent", "status", "recorded"),
				resource.TestCheckResourceAttr("sbx_sandbox.box", "status", "running"),
				resource.TestCheckResourceAttr("sbx_volume.work", "snapshot_retention", "14"),
				resource.TestCheckResourceAttrSet("sbx_snapshot.checkpoint", "expires_at"),
				flyExampleLive(fake),
			),
		}},
	})
}
