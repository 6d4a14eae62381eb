package e2bacc_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// e2bAutoResumeConfig is one box with on_timeout and the auto_resume line.
func e2bAutoResumeConfig(providerConfig, onTimeout, autoResume string) string {
	return providerConfig + fmt.Sprintf(`
resource "sbx_template" "t" {
  name       = "autoresume"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}

resource "sbx_sandbox" "b" {
  name        = "autoresume-box"
  template_id = sbx_template.t.id
  timeout     = "10m"
  on_timeout  = %q
  %s
}
`, onTimeout, autoResume)
}

// auto_resume on E2B is the create request's autoResume {enabled}: read
// back on import, fixed at create (a change replaces the box; writing
// false out where it was left out is no change), and refused at plan time
// without on_timeout = "pause", as E2B resumes by traffic only a box paused
// with its memory.
func TestAccSandboxE2BAutoResume(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, providerConfig := e2bAccFake(t, e2bfake.Options{})
	empty := []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}
	autoResume := func(want bool) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			rs := s.RootModule().Resources["sbx_sandbox.b"]
			v, ok := fake.Sandbox(rs.Primary.ID)
			if !ok || v.AutoResume != want || !v.AutoPause {
				return fmt.Errorf("box %s: %+v, want autoResume %t with autoPause", rs.Primary.ID, v, want)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		Steps: []resource.TestStep{
			{
				Config:           e2bAutoResumeConfig(providerConfig, "pause", "auto_resume = true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: empty},
				Check:            resource.ComposeAggregateTestCheckFunc(autoResume(true), resource.TestCheckResourceAttr("sbx_sandbox.b", "auto_resume", "true")),
			},
			{
				ResourceName:            "sbx_sandbox.b",
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts", "status_since", "timeout"},
			},
			{
				Config: e2bAutoResumeConfig(providerConfig, "pause", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction("sbx_sandbox.b", plancheck.ResourceActionReplace)},
					PostApplyPostRefresh: empty,
				},
				Check: autoResume(false),
			},
			{
				Config:           e2bAutoResumeConfig(providerConfig, "pause", "auto_resume = false"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("sbx_sandbox.b", plancheck.ResourceActionUpdate)}},
			},
			{
				Config:      e2bAutoResumeConfig(providerConfig, "stop", "auto_resume = true"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`auto_resume needs on_timeout = "pause" on e2b`),
			},
		},
	})
}
