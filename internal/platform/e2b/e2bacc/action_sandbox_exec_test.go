package e2bacc_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// E2B runs commands through envd, not its API: the exec action's plan
// fails on sandbox_id saying so, before anything runs, and the release it
// was to run before stays as it was.
func TestAccE2BSandboxExecAction(t *testing.T) {
	acctest.RequireTerraform(t)
	acctest.SkipOnOpenTofu(t, "OpenTofu has no actions: Terraform ≥ 1.14 only")
	_, providerConfig := e2bAccFake(t, e2bfake.Options{})
	config := func(release string) string {
		return providerConfig + fmt.Sprintf(`
resource "sbx_template" "t" {
  name       = "execbox"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}

resource "sbx_sandbox" "b" {
  name        = "execbox-box"
  template_id = sbx_template.t.id
  timeout     = "10m"
}

action "sbx_sandbox_exec" "run" {
  config {
    sandbox_id = sbx_sandbox.b.id
    command    = ["echo", "hello"]
  }
}

resource "terraform_data" "release" {
  input = %q
  lifecycle {
    action_trigger {
      events  = [before_update]
      actions = [action.sbx_sandbox_exec.run]
    }
  }
}
`, release)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		Steps: []resource.TestStep{
			{Config: config("v1")},
			{
				Config:      config("v2"),
				ExpectError: regexp.MustCompile(`(?s)sbx_sandbox_exec is not supported on e2b.*E2B runs commands through envd`),
			},
			{
				Config: config("v1"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}
