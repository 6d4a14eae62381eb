package flyacc_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
)

// flyRateLimitMachines is how many machines the rate limit test applies.
const flyRateLimitMachines = 30

// flyRateLimitConfig is flyRateLimitMachines running machines of one
// template.
func flyRateLimitConfig(providerConfig string) string {
	return providerConfig + flyTemplateHCL("rl-tpl") + fmt.Sprintf(`
resource "sbx_sandbox" "b" {
  count       = %d
  name        = "rl-box-${count.index}"
  template_id = sbx_template.t.id
}
`, flyRateLimitMachines)
}

// flyRateLimitNone checks that the fake's rate limits answered no request
// with a 429: the client's pacing kept every request within them.
func flyRateLimitNone(fake *flyfake.Server) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if n := fake.RateLimited(); n != 0 {
			return fmt.Errorf("the fake's rate limits answered %d requests with 429, want none (the client paces its requests)", n)
		}
		return nil
	}
}

// 30 machines applied at once (terraform's parallelism) against the
// fake's rate limits (Fly's documented ones: 1 request/s with bursts of 3
// per action and app or machine, Get Machine 5/s with bursts of 10), on
// the wall clock with the provider's real waits: the apply succeeds, no
// request was answered 429 (so none reached the user), and the fake holds
// the 30 machines, all started; the next plan is empty. The destroy keeps
// within the limits too. This takes tens of seconds.
func TestAccFlySandboxRateLimits30Machines(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := flyAccFake(t, flyfake.Options{RateLimits: true})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: flyRealTimeFactories,
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			flyResHoldsNothing(fake),
			flyRateLimitNone(fake),
		),
		Steps: []resource.TestStep{
			{
				Config:           flyRateLimitConfig(cfg),
				ConfigPlanChecks: flyResEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					flyRateLimitNone(fake),
					flyResMachineCount(fake, flyRateLimitMachines),
					func(*terraform.State) error {
						if n := fake.MachineCreates(); n != flyRateLimitMachines {
							return fmt.Errorf("the fake made %d machines, want %d", n, flyRateLimitMachines)
						}
						for _, m := range flyResLiveMachines(fake) {
							if m.State != flyfake.StateStarted {
								return fmt.Errorf("the fake's machine %s (%s) is %s, want started", m.ID, m.Name, m.State)
							}
						}
						return nil
					},
					resource.TestCheckResourceAttr("sbx_sandbox.b.0", "status", "running"),
					resource.TestCheckResourceAttr(fmt.Sprintf("sbx_sandbox.b.%d", flyRateLimitMachines-1), "status", "running"),
				),
			},
		},
	})
}
