package e2bacc_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// on_timeout = "stop" is E2B's pause without memory at the timeout: the
// box is created with autoPause and autoPauseMemory = false, reads back as
// "stop" (E2B reports a pause, the box's metadata says which), plans empty,
// imports as "stop", and a change to "pause" replaces the box.
func TestAccSandboxE2BOnTimeoutStop(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, providerConfig := e2bAccFake(t, e2bfake.Options{})
	empty := []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}
	var first string
	memoryKept := func(want bool) func(string) error {
		return func(id string) error {
			v, _ := fake.Sandbox(id)
			if v.AutoPauseMemory != want {
				return fmt.Errorf("box %s: autoPauseMemory = %t, want %t", id, v.AutoPauseMemory, want)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		Steps: []resource.TestStep{
			{
				Config:           e2bOnTimeoutConfig(providerConfig, "10m", "stop"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: empty},
				Check: resource.ComposeAggregateTestCheckFunc(
					e2bOnTimeoutBox(fake, true, 600, func(id string) error { first = id; return memoryKept(false)(id) }),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "on_timeout", "stop"),
				),
			},
			{
				ResourceName:            "sbx_sandbox.b",
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts", "status_since"},
			},
			{
				Config: e2bOnTimeoutConfig(providerConfig, "10m", "pause"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction("sbx_sandbox.b", plancheck.ResourceActionReplace)},
					PostApplyPostRefresh: empty,
				},
				Check: e2bOnTimeoutBox(fake, true, 600, func(id string) error {
					if id == first {
						return fmt.Errorf("the box %s was not replaced", id)
					}
					return memoryKept(true)(id)
				}),
			},
		},
	})
}
