package e2bacc_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// On E2B every paused box reads as paused, whether it kept its memory or
// not: a stopped or paused status filter finds every box E2B reports
// paused, never nothing and never only half of them.
func TestAccSandboxesDataSourceE2BPauseKind(t *testing.T) {
	acctest.RequireTerraform(t)
	_, providerConfig := e2bAccFake(t, e2bfake.Options{})
	config := providerConfig + `
resource "sbx_template" "t" {
  name       = "pausekind"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}

resource "sbx_sandbox" "run" {
  name        = "pk-run"
  template_id = sbx_template.t.id
  timeout     = "10m"
}

resource "sbx_sandbox" "paused" {
  name        = "pk-paused"
  template_id = sbx_template.t.id
  timeout     = "10m"
  state       = "paused"
}

resource "sbx_sandbox" "stopped" {
  name        = "pk-stopped"
  template_id = sbx_template.t.id
  timeout     = "10m"
  state       = "stopped"
}

data "sbx_sandboxes" "stopped" {
  status     = "stopped"
  depends_on = [sbx_sandbox.run, sbx_sandbox.paused, sbx_sandbox.stopped]
}

data "sbx_sandboxes" "paused" {
  status     = "paused"
  depends_on = [sbx_sandbox.run, sbx_sandbox.paused, sbx_sandbox.stopped]
}

data "sbx_sandboxes" "running" {
  status     = "running"
  depends_on = [sbx_sandbox.run, sbx_sandbox.paused, sbx_sandbox.stopped]
}
`
	bothPaused := func(ds string) resource.TestCheckFunc {
		return resource.ComposeAggregateTestCheckFunc(
			resource.TestCheckResourceAttr(ds, "ids.#", "2"),
			resource.TestCheckTypeSetElemAttrPair(ds, "ids.*", "sbx_sandbox.paused", "id"),
			resource.TestCheckTypeSetElemAttrPair(ds, "ids.*", "sbx_sandbox.stopped", "id"),
			// E2B's own word for both
			resource.TestCheckResourceAttr(ds, "sandboxes.0.status", "paused"),
			resource.TestCheckResourceAttr(ds, "sandboxes.1.status", "paused"),
		)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeAggregateTestCheckFunc(
					bothPaused("data.sbx_sandboxes.stopped"),
					bothPaused("data.sbx_sandboxes.paused"),
					resource.TestCheckResourceAttr("data.sbx_sandboxes.running", "ids.#", "1"),
					resource.TestCheckResourceAttrPair("data.sbx_sandboxes.running", "ids.0", "sbx_sandbox.run", "id"),
				),
			},
			{
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}
