package flyacc_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
)

// flyStateConfig is a template and one machine of it, in state.
func flyStateConfig(providerConfig, state string) string {
	return providerConfig + flyTemplateHCL("state-tpl") + fmt.Sprintf(`
resource "sbx_sandbox" "b" {
  name        = "state-box"
  template_id = sbx_template.t.id
  state       = %q
}
`, state)
}

// flyStateStep is a step moving the machine in place to state: the same
// machine (id *id) is, on the fake, in flyState, the state reads status
// state, the fake holds one machine, and the next plan is empty.
func flyStateStep(fake *flyfake.Server, cfg, state, flyState string, id *string) resource.TestStep {
	return resource.TestStep{
		Config:           flyStateConfig(cfg, state),
		ConfigPlanChecks: flyResInPlace("sbx_sandbox.b"),
		Check: resource.ComposeAggregateTestCheckFunc(
			flyResSameID("sbx_sandbox.b", id),
			resource.TestCheckResourceAttr("sbx_sandbox.b", "state", state),
			resource.TestCheckResourceAttr("sbx_sandbox.b", "status", state),
			flyResMachineState(fake, "sbx_sandbox.b", flyState),
			flyResMachineCount(fake, 1),
		),
	}
}

// A machine moved in place through Fly's states: running (started),
// paused (suspended, its memory snapshot kept), running again (resumed
// from the snapshot), stopped, running: always the same machine, each
// change an update in place with an empty plan after it. Then Fly suspends
// it on its own (as Fly Proxy's autostop does): the refresh reads it
// paused, and state = "running" resumes the same machine in place.
func TestAccFlySandboxSuspendResumeStopInPlace(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := flyAccFake(t, flyfake.Options{})
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: flyAccFactories,
		CheckDestroy:             flyResHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				Config:           flyStateConfig(cfg, "running"),
				ConfigPlanChecks: flyResEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.CaptureAttr("sbx_sandbox.b", "id", &id),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "platform", "fly"),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "status", "running"),
					flyResMachineState(fake, "sbx_sandbox.b", flyfake.StateStarted),
					flyResMachineCount(fake, 1),
				),
			},
			flyStateStep(fake, cfg, "paused", flyfake.StateSuspended, &id),
			{
				Config:           flyStateConfig(cfg, "running"),
				ConfigPlanChecks: flyResInPlace("sbx_sandbox.b"),
				Check: resource.ComposeAggregateTestCheckFunc(
					flyResSameID("sbx_sandbox.b", &id),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "status", "running"),
					flyResMachineState(fake, "sbx_sandbox.b", flyfake.StateStarted),
					flyResMachineCount(fake, 1),
					func(s *terraform.State) error {
						m, err := flyResMachine(s, fake, "sbx_sandbox.b")
						if err != nil {
							return err
						}
						if m.Resumes != 1 || m.ColdBoots != 0 {
							return fmt.Errorf("machine %s resumed %d times and cold-booted %d times, want one resume from its suspend snapshot", m.ID, m.Resumes, m.ColdBoots)
						}
						return nil
					},
				),
			},
			flyStateStep(fake, cfg, "stopped", flyfake.StateStopped, &id),
			flyStateStep(fake, cfg, "running", flyfake.StateStarted, &id),
			{
				// Behind Terraform's back; the refresh reads it paused.
				PreConfig:          func() { fake.SuspendOutOfBand(id) },
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: resource.ComposeAggregateTestCheckFunc(
					flyResSameID("sbx_sandbox.b", &id),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "status", "paused"),
					flyResMachineState(fake, "sbx_sandbox.b", flyfake.StateSuspended),
				),
			},
			// Planned back to running in place: the same machine resumes.
			flyStateStep(fake, cfg, "running", flyfake.StateStarted, &id),
			flyResSandboxImport("sbx_sandbox.b"),
		},
	})
}
