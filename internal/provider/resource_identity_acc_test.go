package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	sbxacctest "github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// identityAccAddrs are the resources of identityAccConfig whose identity
// the tests check: one of each type (the adopted template: a built one
// imports as a rebuild, see TestAccTemplate_basic).
var identityAccAddrs = []string{"sbx_template.adopted", "sbx_volume.v", "sbx_sandbox.s", "sbx_snapshot.snap"}

// identityAccConfig is one object of each type on Docker: an adopted
// template, the agent's template and a box from it, a volume and a
// snapshot of the volume; volumeLabel and state are what the update step
// changes in place.
func identityAccConfig(t *testing.T, name, src, volumeLabel, state string) string {
	return sandboxAccTemplateHCL(t, name) + fmt.Sprintf(`
resource "sbx_template" "adopted" {
  name  = "%[1]s-adopted"
  image = %[2]q
}

resource "sbx_volume" "v" {
  name   = "%[1]s-v"
  labels = { test = %[1]q, step = %[3]q }
}

resource "sbx_sandbox" "s" {
  name        = "%[1]s-s"
  template_id = sbx_template.t.id
  state       = %[4]q
}

resource "sbx_snapshot" "snap" {
  volume_id = sbx_volume.v.id
  labels    = { test = %[1]q }
}
`, name, src, volumeLabel, state)
}

// identityAccSameID compares one state value across the steps of a test
// (statecheck.CompareValue).
type identityAccSameID interface {
	AddStateValue(resourceAddress string, attributePath tfjsonpath.Path) statecheck.StateCheck
}

// identityAccChecks checks every resource's identity: its id is the
// resource's id, its platform the configured one, and (sameIDs, one
// comparison per resource shared by the steps) the id never changes.
func identityAccChecks(platformName string, sameIDs map[string]identityAccSameID) []statecheck.StateCheck {
	var checks []statecheck.StateCheck
	for _, addr := range identityAccAddrs {
		checks = append(checks,
			statecheck.ExpectIdentity(addr, map[string]knownvalue.Check{
				"id":       knownvalue.NotNull(),
				"platform": knownvalue.StringExact(platformName),
			}),
			statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New("id")),
			sameIDs[addr].AddStateValue(addr, tfjsonpath.New("id")),
		)
	}
	return checks
}

// The four resources carry an identity (id, platform) from their create,
// keep it across a refresh and an in-place update, and import by it with
// an `import { identity = ... }` block as by id: the same existence check,
// the same state, a plan with nothing to change.
func TestAccResourceIdentity_docker(t *testing.T) {
	requireTerraformAtLeast(t, "1.12") // before building the image the test adopts
	cli := sbxacctest.DockerClient(t)
	name := acctest.RandomWithPrefix("tf-acc-ident")
	src := templateTestBuildSourceImage(t, cli, acctest.RandomWithPrefix("tf-acc-src")+":1")
	sameIDs := map[string]identityAccSameID{}
	for _, addr := range identityAccAddrs {
		sameIDs[addr] = statecheck.CompareValue(compare.ValuesSame())
	}
	config := identityAccConfig(t, name, src, "one", "running")
	steps := []resource.TestStep{
		{
			Config:            config,
			ConfigStateChecks: identityAccChecks("docker", sameIDs),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		},
		{
			// The same configuration again: a refresh reads every object
			// again, the plan is empty, the identity stays.
			Config:            config,
			ConfigStateChecks: identityAccChecks("docker", sameIDs),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		},
		{
			// In-place updates (a volume relabelled, a box paused) keep it too.
			Config: identityAccConfig(t, name, src, "two", "paused"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("sbx_volume.v", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("sbx_sandbox.s", plancheck.ResourceActionUpdate),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: identityAccChecks("docker", sameIDs),
		},
	}
	for _, addr := range identityAccAddrs {
		steps = append(steps,
			resource.TestStep{
				ResourceName:    addr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
			},
			resource.TestStep{
				ResourceName:            addr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: sandboxAccImportIgnore,
			},
		)
	}
	final := identityAccConfig(t, name, src, "two", "paused")
	steps = append(steps,
		resource.TestStep{
			// An identity naming another platform is refused, naming both.
			Config: final + fmt.Sprintf(`
import {
  to       = sbx_volume.other
  identity = { id = "%[1]s-v", platform = "e2b" }
}
resource "sbx_volume" "other" {
  name = "%[1]s-v"
}
`, name),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)names platform "e2b".*configuration uses\s+"docker"`),
		},
		resource.TestStep{
			// An identity naming nothing goes through the same lookup as an id.
			Config: final + fmt.Sprintf(`
import {
  to       = sbx_volume.other
  identity = { id = "%[1]s-nothing" }
}
resource "sbx_volume" "other" {
  name = "%[1]s-nothing"
}
`, name),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`Cannot import volume ` + regexp.QuoteMeta(name) + `-nothing`),
		},
	)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			volumeAccCheckDestroy(t, name+"-v"),
			sandboxAccCheckDestroy(t, name+"-s"),
			templateTestCheckDestroy(cli, name+"-adopted"),
		),
		Steps: steps,
	})
}
