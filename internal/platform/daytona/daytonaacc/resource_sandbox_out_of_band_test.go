package daytonaacc_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

// dtnOOBConfig is a template and one box of it, kept running.
func dtnOOBConfig(providerConfig, name string) string {
	return providerConfig + dtnTemplateHCL(name) + fmt.Sprintf(`
resource "sbx_sandbox" "b" {
  name        = "%s-box"
  template_id = sbx_template.t.id
  state       = "running"
}
`, name)
}

// dtnOOBSteps are the steps of an out-of-band change of a running box:
// the box is created and started; act (given the box's id) changes it on
// the platform behind Terraform's back; a refresh reads the box as
// status (the fake shows it as fakeState); the plan is an in-place update
// back to running; the apply starts the same box again, and the next plan
// is empty. An import reads the box back as the state holds it.
func dtnOOBSteps(fake *daytonafake.Server, config, status, fakeState string, act func(id string)) []resource.TestStep {
	var id string
	return []resource.TestStep{
		{
			Config:           config,
			ConfigPlanChecks: dtnEmptyAfterApply,
			Check: resource.ComposeAggregateTestCheckFunc(
				acctest.CaptureAttr("sbx_sandbox.b", "id", &id),
				resource.TestCheckResourceAttr("sbx_sandbox.b", "status", "running"),
				resource.TestCheckResourceAttr("sbx_sandbox.b", "platform", "daytona"),
				dtnBoxState(fake, "started"),
				dtnBoxCount(fake, 1),
			),
		},
		{
			// Behind Terraform's back; the refresh reads it as it is.
			PreConfig:          func() { act(id) },
			RefreshState:       true,
			ExpectNonEmptyPlan: true,
			Check: resource.ComposeAggregateTestCheckFunc(
				dtnSameID("sbx_sandbox.b", &id),
				resource.TestCheckResourceAttr("sbx_sandbox.b", "status", status),
				// drift: the state read is what the box is in (an
				// archived box counts as stopped), so the plan moves it
				// back to the configured running
				resource.TestCheckResourceAttr("sbx_sandbox.b", "state", "stopped"),
				dtnBoxState(fake, fakeState),
			),
		},
		{
			// In place: the same box is started again.
			Config:           config,
			ConfigPlanChecks: dtnInPlace("sbx_sandbox.b"),
			Check: resource.ComposeAggregateTestCheckFunc(
				dtnSameID("sbx_sandbox.b", &id),
				resource.TestCheckResourceAttr("sbx_sandbox.b", "status", "running"),
				dtnBoxState(fake, "started"),
				dtnBoxCount(fake, 1),
			),
		},
		{
			ResourceName:            "sbx_sandbox.b",
			ImportState:             true,
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: []string{"timeouts", "status_since"},
		},
	}
}

// A box Daytona stopped (by hand in the dashboard, or by its auto-stop)
// reads as stopped, and state = "running" starts the same box again in
// place.
func TestAccDaytonaSandboxOutOfBandStop(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := dtnAccFake(t, daytonafake.Options{})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dtnAccFactories,
		CheckDestroy:             dtnFakeHoldsNothing(fake),
		Steps: dtnOOBSteps(fake, dtnOOBConfig(cfg, "oob-stop"), "stopped", "stopped", func(id string) {
			fake.StopOutOfBand(id)
		}),
	})
}

// A box Daytona archived (its disk moved to object storage) reads as
// status "archived", and state = "running" starts the same box again in
// place.
func TestAccDaytonaSandboxOutOfBandArchive(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := dtnAccFake(t, daytonafake.Options{})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dtnAccFactories,
		CheckDestroy:             dtnFakeHoldsNothing(fake),
		Steps: dtnOOBSteps(fake, dtnOOBConfig(cfg, "oob-archive"), "archived", "archived", func(id string) {
			fake.ArchiveOutOfBand(id)
		}),
	})
}

// The same on the clock: a box left idle is stopped by Daytona's
// auto-stop (15 minutes by default), then archived by its auto-archive
// (7 days stopped by default); time moves on one clock shared by the fake
// and the provider. The refresh reads the box as archived, and
// state = "running" starts the same box again in place.
func TestAccDaytonaSandboxAutoArchivedStartsInPlace(t *testing.T) {
	acctest.RequireTerraform(t)
	clock := clock.NewFake(time.Now().UTC().Truncate(time.Second))
	fake, cfg := dtnAccFake(t, daytonafake.Options{Clock: clock})
	hooks := acctest.NoWaitHooks()
	var id string
	config := dtnOOBConfig(cfg, "auto-archive")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dtnFactories(provider.Options{Clock: clock, Hooks: hooks}),
		CheckDestroy:             dtnFakeHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				Config:           config,
				ConfigPlanChecks: dtnEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.CaptureAttr("sbx_sandbox.b", "id", &id),
					dtnBoxState(fake, "started"),
				),
			},
			{
				// 16 minutes idle: stopped; then 7 days and a minute stopped: archived.
				PreConfig:          func() { clock.Advance(16*time.Minute + 7*24*time.Hour + time.Minute) },
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: resource.ComposeAggregateTestCheckFunc(
					dtnSameID("sbx_sandbox.b", &id),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "status", "archived"),
					dtnBoxState(fake, "archived"),
				),
			},
			{
				Config:           config,
				ConfigPlanChecks: dtnInPlace("sbx_sandbox.b"),
				Check: resource.ComposeAggregateTestCheckFunc(
					dtnSameID("sbx_sandbox.b", &id),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "status", "running"),
					dtnBoxState(fake, "started"),
					dtnBoxCount(fake, 1),
				),
			},
		},
	})
}
