package daytonaacc_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
)

// dtnIdentityConfig is one object of each type on the Daytona fake; labels
// are the box's, which the update step changes in place. A template and a
// snapshot are both Daytona snapshots: their names tell them apart.
func dtnIdentityConfig(providerConfig, labels string) string {
	return providerConfig + dtnTemplateHCL("tpl-ident") + fmt.Sprintf(`
resource "sbx_volume" "v" {
  name = "ident-vol"
}

resource "sbx_sandbox" "s" {
  name        = "ident-box"
  template_id = sbx_template.t.id
  labels      = %s
}

resource "sbx_snapshot" "snap" {
  sandbox_id = sbx_sandbox.s.id
  name       = "ckpt-ident"
}
`, labels)
}

// dtnIdentityAddrs are the resources of dtnIdentityConfig.
var dtnIdentityAddrs = []string{"sbx_template.t", "sbx_volume.v", "sbx_sandbox.s", "sbx_snapshot.snap"}

// dtnIDOf checks a value is the id recorded for addr (by dtnRecordIDs).
func dtnIDOf(ids map[string]string, addr string) knownvalue.Check {
	return knownvalue.StringFunc(func(v string) error {
		if ids[addr] == "" || v != ids[addr] {
			return fmt.Errorf("%s: got id %q, want the id recorded at create, %q", addr, v, ids[addr])
		}
		return nil
	})
}

// dtnIdentityOf is the identity of the object recorded for addr.
func dtnIdentityOf(ids map[string]string, addr string) map[string]knownvalue.Check {
	return map[string]knownvalue.Check{"id": dtnIDOf(ids, addr), "platform": knownvalue.StringExact("daytona")}
}

// dtnRecordIDs records the id of every resource of dtnIdentityConfig.
func dtnRecordIDs(ids map[string]string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		for _, addr := range dtnIdentityAddrs {
			id, err := acctest.ResourceID(s, addr)
			if err != nil {
				return err
			}
			ids[addr] = id
		}
		return nil
	}
}

// On Daytona the four resources carry the identity {id, platform =
// "daytona"} from their create, keep it across a refresh and an in-place
// update, and import by it (an import block with an identity); an identity
// naming another platform is refused, naming both.
func TestAccDaytonaIdentity(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, providerConfig := dtnAccFake(t, daytonafake.Options{})
	ids := map[string]string{}
	config := dtnIdentityConfig(providerConfig, `{ team = "a" }`)
	updated := dtnIdentityConfig(providerConfig, `{ team = "a", tier = "gold" }`)
	steps := []resource.TestStep{{
		Config:           config,
		Check:            dtnRecordIDs(ids),
		ConfigPlanChecks: dtnEmptyAfterApply,
	}}
	for _, addr := range dtnIdentityAddrs {
		step := resource.TestStep{
			Config:          config,
			ResourceName:    addr,
			ImportState:     true,
			ImportStateKind: resource.ImportBlockWithResourceIdentity,
		}
		if addr == "sbx_snapshot.snap" {
			// Daytona names no snapshot's source box (capability
			// SnapshotSourceReported): the configured sandbox_id is
			// recorded in place, and the snapshot keeps its id.
			step.ExpectNonEmptyPlan = true
			step.ImportPlanChecks.PreApply = []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				plancheck.ExpectKnownValue(addr, tfjsonpath.New("id"), dtnIDOf(ids, addr)),
			}
		}
		steps = append(steps, step)
	}
	var checks []statecheck.StateCheck
	for _, addr := range dtnIdentityAddrs {
		checks = append(checks,
			statecheck.ExpectIdentity(addr, dtnIdentityOf(ids, addr)),
			statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New("id")))
	}
	steps = append(steps,
		resource.TestStep{
			// Refreshed and relabelled in place, every identity is the one
			// its create recorded.
			Config:            updated,
			ConfigPlanChecks:  dtnInPlace("sbx_sandbox.s"),
			ConfigStateChecks: checks,
		},
		resource.TestStep{
			Config: updated + `
import {
  to       = sbx_volume.other
  identity = { id = "ident-vol", platform = "e2b" }
}
resource "sbx_volume" "other" {
  name = "ident-vol"
}
`,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)names platform "e2b".*configuration uses\s+"daytona"`),
		},
	)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dtnAccFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		CheckDestroy:             dtnFakeHoldsNothing(fake),
		Steps:                    steps,
	})
}

// The list resources find the objects on the Daytona fake through
// `terraform query`, by labels and state, name prefix, regular expression
// and exact name: each result with its identity and display name and,
// asked for (include_resource), the box as an import would store it; a
// filter nothing matches finds nothing.
func TestAccDaytonaList(t *testing.T) {
	acctest.RequireTerraform(t)
	acctest.SkipOnOpenTofu(t, "OpenTofu has no list resources (list blocks, a query command): Terraform ≥ 1.14 only")
	fake, providerConfig := dtnAccFake(t, daytonafake.Options{})
	ids := map[string]string{}
	byID := func(addr string) queryfilter.QueryFilter {
		return queryfilter.ByResourceIdentity(dtnIdentityOf(ids, addr))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dtnAccFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		CheckDestroy:             dtnFakeHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				Config: dtnIdentityConfig(providerConfig, `{ team = "a" }`),
				Check:  dtnRecordIDs(ids),
			},
			{
				Query: true,
				Config: `
list "sbx_sandbox" "team_a" {
  provider         = sbx
  include_resource = true
  config {
    labels = { team = "a" }
    status = "running"
  }
}

list "sbx_sandbox" "team_b" {
  provider = sbx
  config {
    labels = { team = "b" }
  }
}

list "sbx_template" "ident" {
  provider = sbx
  config {
    name_prefix = "tpl-"
  }
}

list "sbx_volume" "ident" {
  provider = sbx
  config {
    name_regex = "^ident-v"
  }
}

list "sbx_snapshot" "ident" {
  provider = sbx
  config {
    name = "ckpt-ident"
  }
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("sbx_sandbox.team_a", 1),
					querycheck.ExpectIdentity("sbx_sandbox.team_a", dtnIdentityOf(ids, "sbx_sandbox.s")),
					querycheck.ExpectResourceDisplayName("sbx_sandbox.team_a", byID("sbx_sandbox.s"), knownvalue.StringExact("ident-box")),
					querycheck.ExpectResourceKnownValues("sbx_sandbox.team_a", byID("sbx_sandbox.s"), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("id"), KnownValue: dtnIDOf(ids, "sbx_sandbox.s")},
						{Path: tfjsonpath.New("template_id"), KnownValue: dtnIDOf(ids, "sbx_template.t")},
						{Path: tfjsonpath.New("state"), KnownValue: knownvalue.StringExact("running")},
						{Path: tfjsonpath.New("labels"), KnownValue: knownvalue.MapExact(map[string]knownvalue.Check{"team": knownvalue.StringExact("a")})},
						{Path: tfjsonpath.New("platform"), KnownValue: knownvalue.StringExact("daytona")},
					}),
					querycheck.ExpectLength("sbx_sandbox.team_b", 0),
					querycheck.ExpectLength("sbx_template.ident", 1),
					querycheck.ExpectIdentity("sbx_template.ident", dtnIdentityOf(ids, "sbx_template.t")),
					querycheck.ExpectResourceDisplayName("sbx_template.ident", byID("sbx_template.t"), knownvalue.StringExact("tpl-ident")),
					querycheck.ExpectLength("sbx_volume.ident", 1),
					querycheck.ExpectIdentity("sbx_volume.ident", dtnIdentityOf(ids, "sbx_volume.v")),
					querycheck.ExpectResourceDisplayName("sbx_volume.ident", byID("sbx_volume.v"), knownvalue.StringExact("ident-vol")),
					querycheck.ExpectLength("sbx_snapshot.ident", 1),
					querycheck.ExpectIdentity("sbx_snapshot.ident", dtnIdentityOf(ids, "sbx_snapshot.snap")),
					querycheck.ExpectResourceDisplayName("sbx_snapshot.ident", byID("sbx_snapshot.snap"), knownvalue.StringExact("ckpt-ident")),
				},
			},
		},
	})
}
