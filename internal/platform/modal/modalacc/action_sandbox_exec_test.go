package modalacc_test

import (
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
)

// modalExecSecret is the value the tests pass through env.
const modalExecSecret = "modal-exec-secret-value"

// modalExecConfig is a box, the sbx_sandbox_exec action running command
// in it (extra lines in its config), and a release marker whose every
// update invokes the action first.
func modalExecConfig(providerConfig, release, command, extra string) string {
	return providerConfig + modalTemplateHCL("execbox-tpl") + fmt.Sprintf(`
resource "sbx_sandbox" "b" {
  name        = "execbox"
  template_id = sbx_template.t.id
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

// modalExecsRan checks the commands the fake ran in the box at
// sbx_sandbox.b: as many as want, the last one check's.
func modalExecsRan(ws *modalfake.Workspace, want int, check func(modalfake.ExecView) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		box, err := modalSandboxAt(s, ws, "sbx_sandbox.b")
		if err != nil {
			return err
		}
		execs := ws.Execs(box.ID)
		if len(execs) != want {
			return fmt.Errorf("the fake ran %d commands in %s, want %d: %+v", len(execs), box.ID, want, execs)
		}
		if want == 0 || check == nil {
			return nil
		}
		return check(execs[want-1])
	}
}

// On Modal the action runs the command through the task command router in
// the running box, with env and working_dir (Modal takes both): the
// update of the release runs it once and changes no state; a failing
// command fails the apply with its code; a command past its timeout fails
// it and Modal kills it; a relative working_dir is refused at plan time.
func TestAccModalSandboxExecAction(t *testing.T) {
	acctest.RequireTerraform(t)
	acctest.SkipOnOpenTofu(t, "OpenTofu has no actions: Terraform ≥ 1.14 only")
	t.Parallel()
	ws, providerConfig := modalAccWorkspace(t)
	tplID := new(string)
	printenv := `["printenv", "TOKEN", "BOX_HOME"]`
	withEnv := fmt.Sprintf("    env         = { TOKEN = %q, BOX_HOME = \"/work\" }\n    working_dir = \"/work\"", modalExecSecret)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: modalFactories(ws),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		CheckDestroy:             modalHoldsNothing(ws, []*string{tplID}),
		Steps: []resource.TestStep{
			{
				// Created: before_update does not fire.
				Config:           modalExecConfig(providerConfig, "v1", printenv, withEnv),
				ConfigPlanChecks: modalEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.CaptureAttr("sbx_template.t", "id", tplID),
					modalExecsRan(ws, 0, nil),
				),
			},
			{
				Config:           modalExecConfig(providerConfig, "v2", printenv, withEnv),
				ConfigPlanChecks: modalEmptyAfterApply,
				Check: modalExecsRan(ws, 1, func(e modalfake.ExecView) error {
					if !slices.Equal(e.Command, []string{"printenv", "TOKEN", "BOX_HOME"}) || e.Env["TOKEN"] != modalExecSecret ||
						e.Env["BOX_HOME"] != "/work" || e.Workdir != "/work" || e.TimeoutSecs != 300 || !e.Done || e.ExitCode != 0 ||
						string(e.Stdout) != modalExecSecret+"\n/work\n" {
						return fmt.Errorf("the command run: %+v", e)
					}
					return nil
				}),
			},
			{
				Config:      modalExecConfig(providerConfig, "v3", `["sh", "-c", "echo it broke >&2; exit 3"]`, ""),
				ExpectError: regexp.MustCompile(`exited with code 3`),
			},
			{
				Config:      modalExecConfig(providerConfig, "v4", `["sleep", "30"]`, `    timeout = "1s"`),
				ExpectError: regexp.MustCompile(`did not end within 1s`),
			},
			{
				Config:      modalExecConfig(providerConfig, "v5", printenv, `    working_dir = "relative"`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`give an absolute path`),
			},
			{
				// The failed applies left the release at v2: nothing runs. The
				// failed and timed-out commands ran once each, and Modal killed
				// the one past its timeout.
				Config:           modalExecConfig(providerConfig, "v2", printenv, withEnv),
				ConfigPlanChecks: modalEmptyAfterApply,
				Check: modalExecsRan(ws, 3, func(e modalfake.ExecView) error {
					if e.Command[0] != "sleep" || e.TimeoutSecs != 1 || e.Signal != 9 {
						return fmt.Errorf("the last command run: %+v, want the sleep", e)
					}
					return nil
				}),
			},
		},
	})
}
