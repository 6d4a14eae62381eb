package daytonaacc_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
)

// A template and a box imported with import blocks into the configuration
// that made them plan nothing: what Daytona reports of them (its default
// sizes, its default auto-stop and auto-archive) is not a change of what
// the configuration leaves out, so the import never plans a replacement.
func TestAccDaytonaImportPlansNothing(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := dtnAccFake(t, daytonafake.Options{})
	made := dtnOneBox(cfg, "import-box")
	forgotten := cfg + `
removed {
  from = sbx_template.t
  lifecycle {
    destroy = false
  }
}

removed {
  from = sbx_sandbox.b
  lifecycle {
    destroy = false
  }
}
`
	var tplID, boxID string
	idOf := func(id *string) resource.ImportStateIdFunc {
		return func(*terraform.State) (string, error) { return *id, nil }
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dtnAccFactories,
		CheckDestroy:             dtnFakeHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				Config: made,
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.CaptureAttr("sbx_template.t", "id", &tplID),
					acctest.CaptureAttr("sbx_sandbox.b", "id", &boxID),
				),
			},
			// Out of the state, left on Daytona.
			{Config: forgotten, Check: dtnBoxCount(fake, 1)},
			{
				Config:             made,
				ResourceName:       "sbx_template.t",
				ImportState:        true,
				ImportStateIdFunc:  idOf(&tplID),
				ImportStatePersist: true,
			},
			{
				Config:             made,
				ResourceName:       "sbx_sandbox.b",
				ImportState:        true,
				ImportStateIdFunc:  idOf(&boxID),
				ImportStatePersist: true,
			},
			{
				Config:           made,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: dtnEmptyAfterApply.PostApplyPostRefresh},
				Check: resource.ComposeAggregateTestCheckFunc(
					dtnSameID("sbx_template.t", &tplID),
					dtnSameID("sbx_sandbox.b", &boxID),
					dtnBoxCount(fake, 1),
				),
			},
		},
	})
}
