package e2bacc_test

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
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// e2bIdentityConfig is one object of each type on the E2B fake; timeout
// is the box's, which the update step changes in place.
func e2bIdentityConfig(providerConfig, timeout string) string {
	return providerConfig + fmt.Sprintf(`
resource "sbx_template" "t" {
  name       = "ident"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
  # E2B's defaults, which an import reads back.
  cpu_count = 2
  memory_mb = 512
}

resource "sbx_volume" "v" {
  name = "ident-vol"
}

resource "sbx_sandbox" "s" {
  name        = "ident-box"
  template_id = sbx_template.t.id
  timeout     = %q
  labels      = { team = "a" }
}

resource "sbx_snapshot" "snap" {
  sandbox_id = sbx_sandbox.s.id
  name       = "ident-ckpt"
}
`, timeout)
}

// e2bIdentityAddrs are the resources of e2bIdentityConfig.
var e2bIdentityAddrs = []string{"sbx_template.t", "sbx_volume.v", "sbx_sandbox.s", "sbx_snapshot.snap"}

// e2bIdentityChecks: every resource's identity is its id on e2b, and that
// id is the one recorded at create (ids).
func e2bIdentityChecks(ids map[string]string) []statecheck.StateCheck {
	var checks []statecheck.StateCheck
	for _, addr := range e2bIdentityAddrs {
		checks = append(checks,
			statecheck.ExpectIdentity(addr, map[string]knownvalue.Check{
				"id":       e2bIDOf(ids, addr),
				"platform": knownvalue.StringExact("e2b"),
			}),
			statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New("id")),
		)
	}
	return checks
}

// e2bIDOf checks a value is the id recorded for addr (by e2bRecordIDs).
func e2bIDOf(ids map[string]string, addr string) knownvalue.Check {
	return knownvalue.StringFunc(func(v string) error {
		if ids[addr] == "" || v != ids[addr] {
			return fmt.Errorf("%s: got id %q, want the id recorded at create, %q", addr, v, ids[addr])
		}
		return nil
	})
}

// e2bRecordIDs records the id of every resource of e2bIdentityConfig.
func e2bRecordIDs(ids map[string]string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		for _, addr := range e2bIdentityAddrs {
			id, err := acctest.ResourceID(s, addr)
			if err != nil {
				return err
			}
			ids[addr] = id
		}
		return nil
	}
}

// On a platform reached over its REST API (the E2B fake), the four
// resources carry a stable identity from their create, keep it across a
// refresh and an in-place update, and import by it as by id; an identity of
// another platform is refused naming both.
func TestAccE2BIdentity(t *testing.T) {
	acctest.RequireTerraform(t)
	_, providerConfig := e2bAccFake(t, e2bfake.Options{})
	ids := map[string]string{}
	// The timeout as an import reads it back (Go's form), so an import
	// plans no change.
	config := e2bIdentityConfig(providerConfig, "10m0s")
	updated := e2bIdentityConfig(providerConfig, "20m0s")
	steps := []resource.TestStep{
		{
			Config: config,
			Check:  e2bRecordIDs(ids),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		},
	}
	// What E2B does not report, each resource's import verification
	// leaves out (as the conformance suite does); the template's build
	// inputs are taken from the configuration after the import.
	ignore := map[string][]string{
		"sbx_template.t":    {"dockerfile", "context_dir", "context_hash", "start_cmd", "ready_cmd"},
		"sbx_volume.v":      nil,
		"sbx_sandbox.s":     {"env", "status_since", "timeout"},
		"sbx_snapshot.snap": {"sandbox_id"},
	}
	for _, addr := range e2bIdentityAddrs {
		byIdentity := resource.TestStep{
			Config:          config,
			ResourceName:    addr,
			ImportState:     true,
			ImportStateKind: resource.ImportBlockWithResourceIdentity,
		}
		if addr == "sbx_template.t" || addr == "sbx_snapshot.snap" {
			// As by id: E2B keeps no Dockerfile, so an imported built
			// template plans a rebuild in place, and reports no snapshot's
			// source, so the configured one is recorded in place; both
			// keep their id.
			byIdentity.ExpectNonEmptyPlan = true
			byIdentity.ImportPlanChecks.PreApply = []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				plancheck.ExpectKnownValue(addr, tfjsonpath.New("id"), e2bIDOf(ids, addr)),
			}
		}
		steps = append(steps,
			byIdentity,
			resource.TestStep{
				Config:                  config,
				ResourceName:            addr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: append([]string{"timeouts"}, ignore[addr]...),
			},
		)
	}
	steps = append(steps,
		resource.TestStep{
			// Refreshed and updated in place (the box's timeout), every
			// identity is the one its create recorded.
			Config: updated,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction("sbx_sandbox.s", plancheck.ResourceActionUpdate)},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: e2bIdentityChecks(ids),
		},
		resource.TestStep{
			Config: updated + `
import {
  to       = sbx_volume.other
  identity = { id = "ident-vol", platform = "docker" }
}
resource "sbx_volume" "other" {
  name = "ident-vol"
}
`,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)names platform "docker".*configuration uses\s+"e2b"`),
		},
	)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		Steps:                    steps,
	})
}

// The list resources find the four objects on the E2B fake by the data
// sources' filters through `terraform query`: each result with its
// identity and display name and, asked for (include_resource), the object
// as an import would store it; a filter nothing matches finds nothing.
func TestAccE2BList(t *testing.T) {
	acctest.RequireTerraform(t)
	acctest.SkipOnOpenTofu(t, "OpenTofu has no list resources (list blocks, a query command): Terraform ≥ 1.14 only")
	_, providerConfig := e2bAccFake(t, e2bfake.Options{})
	ids := map[string]string{}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		Steps: []resource.TestStep{
			{
				Config: e2bIdentityConfig(providerConfig, "10m0s"),
				Check:  e2bRecordIDs(ids),
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

list "sbx_sandbox" "paused" {
  provider = sbx
  config {
    status = "paused"
  }
}

list "sbx_template" "ident" {
  provider = sbx
  config {
    name_prefix = "ide"
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
    name        = "ident-ckpt"
    most_recent = true
  }
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("sbx_sandbox.team_a", 1),
					querycheck.ExpectIdentity("sbx_sandbox.team_a", map[string]knownvalue.Check{
						"id": e2bIDOf(ids, "sbx_sandbox.s"), "platform": knownvalue.StringExact("e2b"),
					}),
					querycheck.ExpectResourceDisplayName("sbx_sandbox.team_a",
						queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"id": e2bIDOf(ids, "sbx_sandbox.s"), "platform": knownvalue.StringExact("e2b")}),
						knownvalue.StringExact("ident-box")),
					querycheck.ExpectResourceKnownValues("sbx_sandbox.team_a",
						queryfilter.ByDisplayName(knownvalue.StringExact("ident-box")),
						[]querycheck.KnownValueCheck{
							{Path: tfjsonpath.New("id"), KnownValue: e2bIDOf(ids, "sbx_sandbox.s")},
							{Path: tfjsonpath.New("template_id"), KnownValue: e2bIDOf(ids, "sbx_template.t")},
							{Path: tfjsonpath.New("state"), KnownValue: knownvalue.StringExact("running")},
							{Path: tfjsonpath.New("labels"), KnownValue: knownvalue.MapExact(map[string]knownvalue.Check{"team": knownvalue.StringExact("a")})},
							{Path: tfjsonpath.New("platform"), KnownValue: knownvalue.StringExact("e2b")},
						}),
					querycheck.ExpectLength("sbx_sandbox.paused", 0),
					querycheck.ExpectLength("sbx_template.ident", 1),
					querycheck.ExpectIdentity("sbx_template.ident", map[string]knownvalue.Check{
						"id": e2bIDOf(ids, "sbx_template.t"), "platform": knownvalue.StringExact("e2b"),
					}),
					querycheck.ExpectLength("sbx_volume.ident", 1),
					querycheck.ExpectIdentity("sbx_volume.ident", map[string]knownvalue.Check{
						"id": e2bIDOf(ids, "sbx_volume.v"), "platform": knownvalue.StringExact("e2b"),
					}),
					querycheck.ExpectLength("sbx_snapshot.ident", 1),
					querycheck.ExpectIdentity("sbx_snapshot.ident", map[string]knownvalue.Check{
						"id": e2bIDOf(ids, "sbx_snapshot.snap"), "platform": knownvalue.StringExact("e2b"),
					}),
				},
			},
		},
	})
}
