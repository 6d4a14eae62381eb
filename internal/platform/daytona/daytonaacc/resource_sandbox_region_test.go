package daytonaacc_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
)

// dtnRegionConfig is a box in region ("" leaves region out).
func dtnRegionConfig(providerConfig, region string) string {
	line := ""
	if region != "" {
		line = fmt.Sprintf("  region      = %q\n", region)
	}
	return providerConfig + dtnTemplateHCL("region-tpl") + fmt.Sprintf(`
resource "sbx_sandbox" "b" {
  name        = "region-box"
  template_id = sbx_template.t.id
%s}
`, line)
}

// dtnBoxRegion checks the fake made the box at addr in region.
func dtnBoxRegion(fake *daytonafake.Server, addr, region string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		v, err := dtnBox(s, fake, addr)
		if err != nil {
			return err
		}
		if v.Region != region {
			return fmt.Errorf("the fake's box is in %q, want %q", v.Region, region)
		}
		return nil
	}
}

// A box's region is Daytona's target: left out, the box gets the default
// region and the state reads it, with an empty plan and an import that
// matches; written out as that same region, nothing changes; another
// region is a new box there (a box does not move).
func TestAccDaytonaSandboxRegion(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := dtnAccFake(t, daytonafake.Options{Regions: []string{"us", "eu"}})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dtnAccFactories,
		CheckDestroy:             dtnFakeHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				Config:           dtnRegionConfig(cfg, ""),
				ConfigPlanChecks: dtnEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("sbx_sandbox.b", "region", "us"),
					dtnBoxRegion(fake, "sbx_sandbox.b", "us"),
				),
			},
			{
				ResourceName:            "sbx_sandbox.b",
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts", "status_since"},
			},
			{
				Config: dtnRegionConfig(cfg, "us"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				Config: dtnRegionConfig(cfg, "eu"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction("sbx_sandbox.b", plancheck.ResourceActionDestroyBeforeCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("sbx_sandbox.b", "region", "eu"),
					dtnBoxRegion(fake, "sbx_sandbox.b", "eu"),
					dtnBoxCount(fake, 1),
				),
			},
		},
	})
}
