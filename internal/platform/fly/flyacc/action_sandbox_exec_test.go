package flyacc_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
)

// flyExecConfig is a machine with an env variable, the sbx_sandbox_exec
// action running command in it (extra lines in its config), and a release
// marker whose every update invokes the action first.
func flyExecConfig(providerConfig, release, command, extra string) string {
	return providerConfig + flyTemplateHCL("execbox-tpl") + fmt.Sprintf(`
resource "sbx_sandbox" "b" {
  name        = "execbox"
  template_id = sbx_template.t.id
  env         = { GREETING = "hello from the box" }
}

action "sbx_sandbox_exec" "run" {
  config {
    sandbox_id = sbx_sandbox.b.id
    command    = %s
%s
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
`, command, extra, release)
}

// flyExecRan checks the commands the fake ran, in order.
func flyExecRan(fake *flyfake.Server, want ...[]string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		runs := fake.ExecRuns()
		if len(runs) != len(want) {
			return fmt.Errorf("the fake ran %d commands (%+v), want %d", len(runs), runs, len(want))
		}
		for i, r := range runs {
			if !slices.Equal(r.Command, want[i]) {
				return fmt.Errorf("command %d: the fake ran %q, want %q", i, r.Command, want[i])
			}
			if r.Timeout != 300 {
				return fmt.Errorf("command %d was given Fly's timeout %d s, want the action's default 300", i, r.Timeout)
			}
		}
		return nil
	}
}

// The exec action runs its argv in the machine through Fly's exec when the
// release's update triggers it (the machine's env visible to it, the next
// plan empty); a command that exits 4 fails the apply saying so; env and
// working_dir, which Fly's exec does not take, fail the plan with the
// reason, before anything runs.
func TestAccFlySandboxExecAction(t *testing.T) {
	acctest.RequireTerraform(t)
	acctest.SkipOnOpenTofu(t, "OpenTofu has no actions: Terraform ≥ 1.14 only")
	fake, providerConfig := flyAccFake(t, flyfake.Options{})
	printenv := []string{"printenv", "GREETING"}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: flyAccFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		CheckDestroy:             flyResHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				// Created: before_update does not fire.
				Config:           flyExecConfig(providerConfig, "v1", `["printenv", "GREETING"]`, ""),
				ConfigPlanChecks: flyResEmptyAfterApply,
				Check:            flyExecRan(fake),
			},
			{
				Config:           flyExecConfig(providerConfig, "v2", `["printenv", "GREETING"]`, ""),
				ConfigPlanChecks: flyResEmptyAfterApply,
				Check:            flyExecRan(fake, printenv),
			},
			{
				Config:      flyExecConfig(providerConfig, "v3", `["/bin/sh", "-c", "echo it broke >&2; exit 4"]`, ""),
				ExpectError: acctest.ErrorPattern(`(?s)exited with code 4 .*it broke`),
			},
			{
				Config: flyExecConfig(providerConfig, "v3", `["printenv", "GREETING"]`, `    env = { TOKEN = "not-shown-4711" }`),
				ExpectError: acctest.ErrorPattern(
					`(?s)env \(values not shown\) is not supported on fly: Fly's exec API .*takes no environment`),
			},
			{
				Config: flyExecConfig(providerConfig, "v3", `["pwd"]`, `    working_dir = "/srv"`),
				ExpectError: acctest.ErrorPattern(
					`(?s)working_dir = "/srv" is not supported on fly: Fly's exec API .*takes no working directory`),
			},
			{
				// Back to the release that applied: nothing runs, nothing to plan.
				Config:           flyExecConfig(providerConfig, "v2", `["printenv", "GREETING"]`, ""),
				ConfigPlanChecks: flyResEmptyAfterApply,
				Check:            flyExecRan(fake, printenv, []string{"/bin/sh", "-c", "echo it broke >&2; exit 4"}),
			},
		},
	})
}
