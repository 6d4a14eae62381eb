package provider

import (
	"fmt"
	"testing"

	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// unknownPlanAccConfig is the quickstart's shape with every argument that
// can be unknown at plan time taken from a resource created in the same
// apply: the terraform_data id is known only after apply, and so are the
// labels, env, lifecycle durations, template_id, volume_id, sandbox_id and
// from_snapshot_id built from it. seed changes the terraform_data triggers_replace,
// which replaces it and makes its id unknown again.
func unknownPlanAccConfig(t *testing.T, name, seed string) string {
	return fmt.Sprintf(`
resource "terraform_data" "seed" {
  triggers_replace = %[2]q
}

locals {
  seed = terraform_data.seed.id
  # Known only after apply, but always the same valid duration.
  timeout = length(local.seed) > 0 ? "2h" : "1h"
}
`, name, seed) + sandboxAccTemplateHCL(t, name) + fmt.Sprintf(`
resource "sbx_volume" "v" {
  name = %[1]q
}

resource "sbx_sandbox" "test" {
  name         = %[1]q
  template_id  = sbx_template.t.id
  labels       = { seed = local.seed }
  env          = { SEED = local.seed }
  timeout      = local.timeout
  on_timeout   = length(local.seed) > 0 ? "stop" : "kill"
  # idle_timeout is refused on Docker; auto_delete_after is a lifecycle
  # duration Docker tracks.
  auto_delete_after = local.timeout
  volume_mount {
    volume_id = sbx_volume.v.id
    path      = "/data"
  }
}

resource "sbx_snapshot" "s" {
  sandbox_id = sbx_sandbox.test.id
  name       = %[1]q
  labels     = { seed = local.seed }
}

resource "sbx_sandbox" "restored" {
  name             = "%[1]s-restored"
  from_snapshot_id = sbx_snapshot.s.id
  labels           = { seed = local.seed }
  timeout          = local.timeout
}
`, name)
}

// TestAccUnknownPlan_everythingFromTheSameApply plans and applies a config
// whose every dependent argument is unknown at plan time, first on create
// and then when the seed is replaced (replacements and an in-place
// template rebuild): no error, no "inconsistent result after apply", the
// unknown values land in state, and the plan after each apply is empty.
func TestAccUnknownPlan_everythingFromTheSameApply(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-unknown")
	seedIs := func(addr string) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(addr, tfjsonpath.New("labels").AtMapKey("seed"), knownvalue.NotNull())
	}
	step := func(seed string) resource.TestStep {
		return resource.TestStep{
			Config: unknownPlanAccConfig(t, name, seed),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(sandboxAccAddr, tfjsonpath.New("labels").AtMapKey("seed")),
					plancheck.ExpectUnknownValue(sandboxAccAddr, tfjsonpath.New("timeout")),
					plancheck.ExpectUnknownValue("sbx_snapshot.s", tfjsonpath.New("sandbox_id")),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				seedIs(sandboxAccAddr), seedIs("sbx_snapshot.s"), seedIs("sbx_sandbox.restored"),
				statecheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("timeout"), knownvalue.StringExact("2h")),
				statecheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("on_timeout"), knownvalue.StringExact("stop")),
				statecheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("retention_rule"), knownvalue.NotNull()),
				statecheck.ExpectKnownValue("sbx_sandbox.restored", tfjsonpath.New("status"), knownvalue.StringExact("running")),
			},
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy: resource.ComposeTestCheckFunc(
			sandboxAccCheckDestroy(t, name),
			sandboxAccCheckDestroy(t, name+"-restored"),
			volumeAccCheckDestroy(t, name),
		),
		Steps: []resource.TestStep{step("one"), step("two")},
	})
}
