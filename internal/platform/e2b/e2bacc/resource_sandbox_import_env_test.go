package e2bacc_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// e2bImportEnvBox is a template and one box with env on the E2B fake; env
// is the body of its env map.
func e2bImportEnvBox(providerConfig, env string) string {
	return providerConfig + fmt.Sprintf(`
resource "sbx_template" "t" {
  name       = "importenv"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}

resource "sbx_sandbox" "b" {
  template_id = sbx_template.t.id
  timeout     = "10m"
  on_timeout  = "kill"
  labels      = { purpose = "importenv" }
  env         = { %s }
}
`, env)
}

// e2bImportEnvCheck checks that state and the fake agree on the one box:
// the same id as *id (when set; else it is recorded), and state's env holds
// exactly the variables the box was given. Values are compared, never printed.
func e2bImportEnvCheck(fake *e2bfake.Server, id *string, want map[string]string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources["sbx_sandbox.b"]
		if !ok {
			return fmt.Errorf("sbx_sandbox.b not in state")
		}
		if n := len(fake.Sandboxes()); n != 1 {
			return fmt.Errorf("the fake holds %d sandboxes, want 1", n)
		}
		if *id == "" {
			*id = rs.Primary.ID
		} else if rs.Primary.ID != *id {
			return fmt.Errorf("sandbox id %s, want %s: the box was replaced", rs.Primary.ID, *id)
		}
		v, ok := fake.Sandbox(*id)
		if !ok {
			return fmt.Errorf("the fake holds no sandbox %s", *id)
		}
		if !maps.Equal(v.EnvVars, want) {
			return fmt.Errorf("the box was given env variables %v, want %v (or other values)",
				slices.Sorted(maps.Keys(v.EnvVars)), slices.Sorted(maps.Keys(want)))
		}
		if n := rs.Primary.Attributes["env.%"]; n != fmt.Sprint(len(want)) {
			return fmt.Errorf("state holds %s env variables, want %d", n, len(want))
		}
		for k, val := range want {
			if rs.Primary.Attributes["env."+k] != val {
				return fmt.Errorf("state's env.%s is not the configured value", k)
			}
		}
		return nil
	}
}

// E2B does not report a sandbox's env (Get returns Env == nil), so an
// imported box has no env in state. Importing a box whose configuration
// sets env must not plan its replacement (a new box, the old one deleted):
// the configured env is accepted as the box's, recorded in place without a
// call to E2B, and every later plan is empty. A real change of env after
// that still replaces the box.
func TestAccSandboxE2BImportKeepsConfiguredEnv(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, providerConfig := e2bAccFake(t, e2bfake.Options{})
	const env = `TASK = "fix the build", LEVEL = "3"`
	wantEnv := map[string]string{"TASK": "fix the build", "LEVEL": "3"}
	box := e2bImportEnvBox(providerConfig, env)
	forgotten := providerConfig + `
resource "sbx_template" "t" {
  name       = "importenv"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}

removed {
  from = sbx_sandbox.b
  lifecycle {
    destroy = false
  }
}
`
	imported := box + `
data "sbx_sandboxes" "found" {
  labels = { purpose = "importenv" }
}

import {
  to = sbx_sandbox.b
  id = data.sbx_sandboxes.found.ids[0]
}
`
	var id, replacedID string
	empty := []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		Steps: []resource.TestStep{
			{
				Config:           box,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: empty},
				Check:            e2bImportEnvCheck(fake, &id, wantEnv),
			},
			{
				Config: forgotten,
				Check:  e2bAccBoxCount(fake, 1),
			},
			{
				// The import keeps the box: the configured env is recorded in
				// place (E2B cannot say what it is), never a replacement.
				Config: imported,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("sbx_sandbox.b", plancheck.ResourceActionUpdate),
					},
					PostApplyPostRefresh: empty,
				},
				Check: e2bImportEnvCheck(fake, &id, wantEnv),
			},
			{
				Config:           imported,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: empty},
			},
			{
				Config:           box,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: empty},
				Check:            e2bImportEnvCheck(fake, &id, wantEnv),
			},
			{
				// Once recorded, a changed env is a new box, as for any box.
				Config: e2bImportEnvBox(providerConfig, `TASK = "ship it"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("sbx_sandbox.b", plancheck.ResourceActionReplace),
					},
					PostApplyPostRefresh: empty,
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					func(s *terraform.State) error {
						if got := s.RootModule().Resources["sbx_sandbox.b"].Primary.ID; got == id {
							return fmt.Errorf("sandbox id is still %s: a changed env did not replace the box", got)
						}
						return nil
					},
					e2bImportEnvCheck(fake, &replacedID, map[string]string{"TASK": "ship it"}),
				),
			},
		},
	})
}

// The same through `terraform import`: the import and the plan run in two
// commands, with a refresh between them, and the configured env is still
// recorded in place rather than replacing the box.
func TestAccSandboxE2BImportCommandKeepsConfiguredEnv(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, providerConfig := e2bAccFake(t, e2bfake.Options{})
	wantEnv := map[string]string{"TASK": "fix the build", "LEVEL": "3"}
	box := e2bImportEnvBox(providerConfig, `TASK = "fix the build", LEVEL = "3"`)
	forgotten := box[:strings.Index(box, `resource "sbx_sandbox" "b"`)] + `
removed {
  from = sbx_sandbox.b
  lifecycle {
    destroy = false
  }
}
`
	var id string
	empty := []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		Steps: []resource.TestStep{
			{
				Config:           box,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: empty},
				Check:            e2bImportEnvCheck(fake, &id, wantEnv),
			},
			{Config: forgotten, Check: e2bAccBoxCount(fake, 1)},
			{
				Config:             box,
				ResourceName:       "sbx_sandbox.b",
				ImportState:        true,
				ImportStatePersist: true,
				ImportStateIdFunc:  func(*terraform.State) (string, error) { return id, nil },
			},
			{
				Config: box,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("sbx_sandbox.b", plancheck.ResourceActionUpdate),
					},
					PostApplyPostRefresh: empty,
				},
				Check: e2bImportEnvCheck(fake, &id, wantEnv),
			},
			{
				Config:           box,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: empty},
			},
		},
	})
}
