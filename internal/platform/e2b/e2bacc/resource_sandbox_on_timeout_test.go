package e2bacc_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// e2bOnTimeoutConfig is one box on the E2B fake with the given timeout and
// on_timeout line ("" leaves on_timeout out).
func e2bOnTimeoutConfig(providerConfig, timeout, onTimeout string) string {
	line := ""
	if onTimeout != "" {
		line = fmt.Sprintf("on_timeout  = %q", onTimeout)
	}
	return providerConfig + fmt.Sprintf(`
resource "sbx_template" "t" {
  name       = "ontimeout"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}

resource "sbx_sandbox" "b" {
  name        = "ontimeout-box"
  template_id = sbx_template.t.id
  timeout     = %q
  %s
}
`, timeout, line)
}

// e2bOnTimeoutBox checks that the fake holds exactly one box, the one in
// state, with the given autoPause and timeout (seconds), and passes its id
// to got.
func e2bOnTimeoutBox(fake *e2bfake.Server, autoPause bool, timeoutSecs int, got func(string) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources["sbx_sandbox.b"]
		if !ok {
			return fmt.Errorf("sbx_sandbox.b not in state")
		}
		if n := len(fake.Sandboxes()); n != 1 {
			return fmt.Errorf("the fake holds %d sandboxes, want 1", n)
		}
		v, ok := fake.Sandbox(rs.Primary.ID)
		if !ok {
			return fmt.Errorf("the fake holds no sandbox %s", rs.Primary.ID)
		}
		if v.AutoPause != autoPause {
			return fmt.Errorf("box %s: autoPause = %t, want %t", v.ID, v.AutoPause, autoPause)
		}
		if v.Timeout != timeoutSecs {
			return fmt.Errorf("box %s: timeout = %ds, want %ds", v.ID, v.Timeout, timeoutSecs)
		}
		return got(rs.Primary.ID)
	}
}

// On E2B only a box's timeout changes in place (POST /sandboxes/{id}/timeout);
// on_timeout is the create request's autoPause, fixed at create. Changing
// on_timeout must therefore plan a replacement, which applies cleanly and
// then plans empty, while a changed timeout still updates the same box in
// place. Leaving on_timeout out where it said "kill" (E2B's default, which
// E2B reports as unset) is no change of box: an in-place update.
func TestAccSandboxE2BOnTimeoutReplaces(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, providerConfig := e2bAccFake(t, e2bfake.Options{})
	empty := []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}
	var first, second, third string
	record := func(dst *string) func(string) error {
		return func(id string) error { *dst = id; return nil }
	}
	same := func(want *string) func(string) error {
		return func(id string) error {
			if id != *want {
				return fmt.Errorf("sandbox id %s, want %s: the box was replaced, not updated in place", id, *want)
			}
			return nil
		}
	}
	replaced := func(old, dst *string) func(string) error {
		return func(id string) error {
			if id == *old {
				return fmt.Errorf("sandbox id is still %s: the box was not replaced", id)
			}
			*dst = id
			return nil
		}
	}
	action := func(a plancheck.ResourceActionType) resource.ConfigPlanChecks {
		return resource.ConfigPlanChecks{
			PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction("sbx_sandbox.b", a)},
			PostApplyPostRefresh: empty,
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		Steps: []resource.TestStep{
			{
				Config:           e2bOnTimeoutConfig(providerConfig, "10m", "kill"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: empty},
				Check:            e2bOnTimeoutBox(fake, false, 600, record(&first)),
			},
			{
				// kill -> pause: fixed at create on E2B, so a new box.
				Config:           e2bOnTimeoutConfig(providerConfig, "10m", "pause"),
				ConfigPlanChecks: action(plancheck.ResourceActionReplace),
				Check: resource.ComposeAggregateTestCheckFunc(
					e2bOnTimeoutBox(fake, true, 600, replaced(&first, &second)),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "on_timeout", "pause"),
				),
			},
			{
				Config:           e2bOnTimeoutConfig(providerConfig, "10m", "pause"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: empty},
			},
			{
				// The timeout still changes in place, on the same box.
				Config:           e2bOnTimeoutConfig(providerConfig, "20m", "pause"),
				ConfigPlanChecks: action(plancheck.ResourceActionUpdate),
				Check:            e2bOnTimeoutBox(fake, true, 1200, same(&second)),
			},
			{
				// pause -> kill: a new box again.
				Config:           e2bOnTimeoutConfig(providerConfig, "20m", "kill"),
				ConfigPlanChecks: action(plancheck.ResourceActionReplace),
				Check:            e2bOnTimeoutBox(fake, false, 1200, replaced(&second, &third)),
			},
			{
				// "kill" left out: E2B's default, the same box.
				Config:           e2bOnTimeoutConfig(providerConfig, "20m", ""),
				ConfigPlanChecks: action(plancheck.ResourceActionUpdate),
				Check:            e2bOnTimeoutBox(fake, false, 1200, same(&third)),
			},
		},
	})
}
