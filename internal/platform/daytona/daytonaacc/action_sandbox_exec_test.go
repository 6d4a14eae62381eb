package daytonaacc_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
)

// dtnExecConfig is a box with an env variable, the sbx_sandbox_exec action
// running command in it (extra lines in its config), and a release marker
// whose every update invokes the action first.
func dtnExecConfig(providerConfig, release, command, extra string) string {
	return providerConfig + dtnTemplateHCL("execbox-tpl") + fmt.Sprintf(`
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

// dtnExecRun is a command the fake should have run: its argv, as the
// daemon split the command string, and its working directory.
type dtnExecRun struct {
	argv []string
	cwd  string
}

// dtnExecRan checks the commands the fake ran, in order, each given the
// action's default timeout.
func dtnExecRan(fake *daytonafake.Server, want ...dtnExecRun) resource.TestCheckFunc {
	return func(*terraform.State) error {
		runs := fake.ExecRuns()
		if len(runs) != len(want) {
			return fmt.Errorf("the fake ran %d commands (%+v), want %d", len(runs), runs, len(want))
		}
		for i, r := range runs {
			if !slices.Equal(r.Argv, want[i].argv) || r.Cwd != want[i].cwd || r.Timeout != 300 {
				return fmt.Errorf("command %d: the fake ran %q in %s with timeout %d s (sent as %q), want %q in %s with 300 s",
					i, r.Argv, r.Cwd, r.Timeout, r.Command, want[i].argv, want[i].cwd)
			}
		}
		return nil
	}
}

// The exec action runs its argv in the box through the toolbox when the
// release's update triggers it: arguments with spaces and quotes arrive
// as given, in working_dir, with the box's env (the next plan empty); a
// command that exits 4 fails the apply saying so; env, which Daytona's
// execute does not take, fails the plan with the reason before anything
// runs.
func TestAccDaytonaSandboxExecAction(t *testing.T) {
	acctest.RequireTerraform(t)
	acctest.SkipOnOpenTofu(t, "OpenTofu has no actions: Terraform ≥ 1.14 only")
	fake, providerConfig := dtnAccFake(t, daytonafake.Options{})
	echo := dtnExecRun{argv: []string{"echo", "it's", `"quoted" words`, "$GREETING"}, cwd: "/srv"}
	failing := dtnExecRun{argv: []string{"/bin/sh", "-c", "echo it broke >&2; exit 4"}, cwd: "/home/daytona"}
	echoHCL := `["echo", "it's", "\"quoted\" words", "$GREETING"]`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dtnAccFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		CheckDestroy:             dtnFakeHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				// Created: before_update does not fire.
				Config:           dtnExecConfig(providerConfig, "v1", echoHCL, `    working_dir = "/srv"`),
				ConfigPlanChecks: dtnEmptyAfterApply,
				Check:            dtnExecRan(fake),
			},
			{
				Config:           dtnExecConfig(providerConfig, "v2", echoHCL, `    working_dir = "/srv"`),
				ConfigPlanChecks: dtnEmptyAfterApply,
				Check:            dtnExecRan(fake, echo),
			},
			{
				Config:      dtnExecConfig(providerConfig, "v3", `["/bin/sh", "-c", "echo it broke >&2; exit 4"]`, ""),
				ExpectError: acctest.ErrorPattern(`(?s)exited with code 4 .*it broke`),
			},
			{
				Config: dtnExecConfig(providerConfig, "v3", `["printenv", "GREETING"]`, `    env = { TOKEN = "not-shown-4711" }`),
				ExpectError: acctest.ErrorPattern(
					`(?s)env \(values not shown\) is not supported on daytona: Daytona's toolbox execute API .*no environment`),
			},
			{
				// Back to the release that applied: nothing runs, nothing to plan.
				Config:           dtnExecConfig(providerConfig, "v2", echoHCL, `    working_dir = "/srv"`),
				ConfigPlanChecks: dtnEmptyAfterApply,
				Check:            dtnExecRan(fake, echo, failing),
			},
		},
	})
}
