package flyacc_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
)

// flyLostCreateConfig is one running machine.
func flyLostCreateConfig(providerConfig string) string {
	return providerConfig + flyTemplateHCL("lost-tpl") + `
resource "sbx_sandbox" "b" {
  name        = "lost-create-box"
  template_id = sbx_template.t.id
}
`
}

// Fly answers a machine create 408 after it made the machine (the create
// outlasted its deadline): the provider does not send the create again,
// finds the machine by its create token, and adopts it. The fake holds
// exactly one machine, the state holds it (started), the next plan is
// empty, and it imports as the state holds it.
func TestAccFlySandboxCreate408MadeOneMachine(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := flyAccFake(t, flyfake.Options{})
	fake.Inject(flyResCreateRoute, flyfake.Fault{Status: http.StatusRequestTimeout, AfterHandling: true})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: flyAccFactories,
		CheckDestroy:             flyResHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				Config:           flyLostCreateConfig(cfg),
				ConfigPlanChecks: flyResEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("sbx_sandbox.b", "status", "running"),
					flyResMachineState(fake, "sbx_sandbox.b", flyfake.StateStarted),
					flyResMachineCount(fake, 1),
					func(s *terraform.State) error {
						if n := fake.MachineCreates(); n != 1 {
							return fmt.Errorf("the fake made %d machines, want 1 (a create answered 408 is not sent again)", n)
						}
						if n := fake.Requests(flyResCreateRoute); n != 1 {
							return fmt.Errorf("the create reached the fake %d times, want once", n)
						}
						// A create answered 201 lists nothing; the 408's
						// machine is found by listing the app's machines.
						if n := fake.Requests("GET /apps/{app_name}/machines"); n == 0 {
							return fmt.Errorf("the app's machines were never listed: the 408 was not looked into")
						}
						id, err := acctest.ResourceID(s, "sbx_sandbox.b")
						if err != nil {
							return err
						}
						if live := flyResLiveMachines(fake); len(live) != 1 || live[0].ID != id {
							return fmt.Errorf("the state holds machine %s, the fake %+v", id, live)
						}
						return nil
					},
				),
			},
			flyResSandboxImport("sbx_sandbox.b"),
		},
	})
}
