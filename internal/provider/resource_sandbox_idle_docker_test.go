package provider

import (
	"testing"

	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// sandboxIdleDockerErr is the plan-time refusal of idle_timeout = value on
// Docker: it names the attribute, the value and the platform, and says what
// is allowed (leaving idle_timeout out).
func sandboxIdleDockerErr(value string) string {
	return `(?s)idle_timeout = ` + value + ` is not supported on docker:.*idle_timeout`
}

// TestAccSandbox_idleTimeoutRefusedOnDocker: Docker never sees what a box
// does, so nothing records its last use and idle_timeout could give no
// deadline. A setting the provider would silently ignore is a plan-time
// error naming it: on create, when the value is known only after apply, and
// when it is added to a box that exists (which is left as it is).
func TestAccSandbox_idleTimeoutRefusedOnDocker(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-sandbox-idle")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             sandboxAccCheckDestroy(t, name),
		Steps: []resource.TestStep{
			{
				Config:      sandboxAccConfig(t, name, "running", `  idle_timeout = "10m"`),
				PlanOnly:    true,
				ExpectError: acctest.ErrorPattern(sandboxIdleDockerErr(`"10m"`)),
			},
			{
				Config: `
resource "terraform_data" "idle" {
  input = "10m"
}
` + sandboxAccConfig(t, name, "running", `  idle_timeout = terraform_data.idle.output`),
				PlanOnly:    true,
				ExpectError: acctest.ErrorPattern(sandboxIdleDockerErr(`\(known after apply\)`)),
			},
			{
				Config: sandboxAccConfig(t, name, "running", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: sandboxAccCheckContainer(t, "running"),
			},
			{
				Config:      sandboxAccConfig(t, name, "running", `  idle_timeout = "10m"`),
				PlanOnly:    true,
				ExpectError: acctest.ErrorPattern(sandboxIdleDockerErr(`"10m"`)),
			},
			{
				// The refused plan changed nothing: the box is as applied.
				Config: sandboxAccConfig(t, name, "running", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: sandboxAccCheckContainer(t, "running"),
			},
		},
	})
}
