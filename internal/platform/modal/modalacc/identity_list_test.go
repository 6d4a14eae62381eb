package modalacc_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
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
)

// modalIdentityConfig is one object of each type on the Modal fake: the
// template is an Image, the volume a name, the snapshot a filesystem
// snapshot (an Image) of the box. labels are the box's tags, which the
// update step changes in place.
func modalIdentityConfig(providerConfig, labels string) string {
	return providerConfig + modalTemplateHCL("ident-tpl") + fmt.Sprintf(`
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
}
`, labels)
}

// modalIdentityAddrs are the resources of modalIdentityConfig.
var modalIdentityAddrs = []string{"sbx_template.t", "sbx_volume.v", "sbx_sandbox.s", "sbx_snapshot.snap"}

// modalIDOf checks a value is the id recorded for addr (by modalRecordIDs).
func modalIDOf(ids map[string]string, addr string) knownvalue.Check {
	return knownvalue.StringFunc(func(v string) error {
		if ids[addr] == "" || v != ids[addr] {
			return fmt.Errorf("%s: got id %q, want the id recorded at create, %q", addr, v, ids[addr])
		}
		return nil
	})
}

// modalIdentityOf is the identity of the object recorded for addr.
func modalIdentityOf(ids map[string]string, addr string) map[string]knownvalue.Check {
	return map[string]knownvalue.Check{"id": modalIDOf(ids, addr), "platform": knownvalue.StringExact("modal")}
}

// modalRecordIDs records the id of every resource of modalIdentityConfig.
func modalRecordIDs(ids map[string]string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		for _, addr := range modalIdentityAddrs {
			id, err := acctest.ResourceID(s, addr)
			if err != nil {
				return err
			}
			ids[addr] = id
		}
		return nil
	}
}

// On Modal the four resources carry the identity {id, platform = "modal"}
// from their create (a volume's id is its name), keep it across a refresh
// and an in-place update (the box's tags), and import by it; an identity
// naming another platform is refused, naming both.
func TestAccModalIdentity(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	ws, providerConfig := modalAccWorkspace(t)
	ids := map[string]string{}
	cfg := modalIdentityConfig(providerConfig, `{ team = "a" }`)
	updated := modalIdentityConfig(providerConfig, `{ team = "a", tier = "gold" }`)
	tplID, snapID := new(string), new(string)
	steps := []resource.TestStep{{
		Config:           cfg,
		ConfigPlanChecks: modalEmptyAfterApply,
		Check: resource.ComposeAggregateTestCheckFunc(
			modalRecordIDs(ids),
			acctest.CaptureAttr("sbx_template.t", "id", tplID),
			acctest.CaptureAttr("sbx_snapshot.snap", "id", snapID),
		),
	}}
	// What Modal does not report (modalUnreported, and an Image's name) an
	// import takes from the configuration, recorded in place: the object
	// keeps its id.
	recorded := map[string]bool{"sbx_template.t": true}
	for _, addr := range modalIdentityAddrs {
		step := resource.TestStep{
			Config:          cfg,
			ResourceName:    addr,
			ImportState:     true,
			ImportStateKind: resource.ImportBlockWithResourceIdentity,
		}
		if recorded[addr] {
			step.ExpectNonEmptyPlan = true
			step.ImportPlanChecks.PreApply = []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				plancheck.ExpectKnownValue(addr, tfjsonpath.New("id"), modalIDOf(ids, addr)),
			}
		}
		steps = append(steps, step)
	}
	var checks []statecheck.StateCheck
	for _, addr := range modalIdentityAddrs {
		checks = append(checks,
			statecheck.ExpectIdentity(addr, modalIdentityOf(ids, addr)),
			statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New("id")))
	}
	steps = append(steps,
		resource.TestStep{
			// Refreshed and retagged in place, every identity is the one
			// its create recorded.
			Config:            updated,
			ConfigPlanChecks:  modalPlans("sbx_sandbox.s", plancheck.ResourceActionUpdate),
			ConfigStateChecks: checks,
		},
		resource.TestStep{
			Config: updated + `
import {
  to       = sbx_volume.other
  identity = { id = "ident-vol", platform = "daytona" }
}
resource "sbx_volume" "other" {
  name = "ident-vol"
}
`,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)names platform "daytona".*configuration uses\s+"modal"`),
		},
	)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: modalFactories(ws),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		CheckDestroy:             modalHoldsNothing(ws, []*string{tplID, snapID}, "ident-vol"),
		Steps:                    steps,
	})
}

// modalLazyString is a configuration variable whose value is read when the
// step writes it: an id recorded by an earlier step.
type modalLazyString struct{ v *string }

func (l modalLazyString) MarshalJSON() ([]byte, error) { return json.Marshal(*l.v) }

// The list resources find the objects on the Modal fake through
// `terraform query`: the box by its tags (and, asked for, as an import
// would store it), the volume by its name (the SDK finds volumes by name
// only), the snapshot by its box (Modal snapshots have no name: it shows
// as its id); a filter nothing matches finds nothing. Images are not
// listed: asking is an error saying so.
func TestAccModalList(t *testing.T) {
	acctest.RequireTerraform(t)
	acctest.SkipOnOpenTofu(t, "OpenTofu has no list resources (list blocks, a query command): Terraform ≥ 1.14 only")
	t.Parallel()
	ws, providerConfig := modalAccWorkspace(t)
	ids := map[string]string{}
	boxID, tplID, snapID := new(string), new(string), new(string)
	byID := func(addr string) queryfilter.QueryFilter {
		return queryfilter.ByResourceIdentity(modalIdentityOf(ids, addr))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: modalFactories(ws),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		CheckDestroy:             modalHoldsNothing(ws, []*string{tplID, snapID}, "ident-vol"),
		Steps: []resource.TestStep{
			{
				Config: modalIdentityConfig(providerConfig, `{ team = "a" }`),
				Check: resource.ComposeAggregateTestCheckFunc(
					modalRecordIDs(ids),
					acctest.CaptureAttr("sbx_sandbox.s", "id", boxID),
					acctest.CaptureAttr("sbx_template.t", "id", tplID),
					acctest.CaptureAttr("sbx_snapshot.snap", "id", snapID),
				),
			},
			{
				Query:           true,
				ConfigVariables: config.Variables{"sandbox_id": modalLazyString{boxID}},
				Config: `
variable "sandbox_id" {
  type = string
}

list "sbx_sandbox" "team_a" {
  provider         = sbx
  include_resource = true
  config {
    labels = { team = "a" }
  }
}

list "sbx_sandbox" "team_b" {
  provider = sbx
  config {
    labels = { team = "b" }
  }
}

list "sbx_volume" "ident" {
  provider = sbx
  config {
    name = "ident-vol"
  }
}

list "sbx_snapshot" "of_box" {
  provider = sbx
  config {
    sandbox_id = var.sandbox_id
  }
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("sbx_sandbox.team_a", 1),
					querycheck.ExpectIdentity("sbx_sandbox.team_a", modalIdentityOf(ids, "sbx_sandbox.s")),
					querycheck.ExpectResourceDisplayName("sbx_sandbox.team_a", byID("sbx_sandbox.s"), knownvalue.StringExact("ident-box")),
					querycheck.ExpectResourceKnownValues("sbx_sandbox.team_a", byID("sbx_sandbox.s"), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("id"), KnownValue: modalIDOf(ids, "sbx_sandbox.s")},
						{Path: tfjsonpath.New("template_id"), KnownValue: modalIDOf(ids, "sbx_template.t")},
						{Path: tfjsonpath.New("state"), KnownValue: knownvalue.StringExact("running")},
						{Path: tfjsonpath.New("labels"), KnownValue: knownvalue.MapExact(map[string]knownvalue.Check{"team": knownvalue.StringExact("a")})},
						{Path: tfjsonpath.New("platform"), KnownValue: knownvalue.StringExact("modal")},
					}),
					querycheck.ExpectLength("sbx_sandbox.team_b", 0),
					querycheck.ExpectLength("sbx_volume.ident", 1),
					querycheck.ExpectIdentity("sbx_volume.ident", modalIdentityOf(ids, "sbx_volume.v")),
					querycheck.ExpectResourceDisplayName("sbx_volume.ident", byID("sbx_volume.v"), knownvalue.StringExact("ident-vol")),
					querycheck.ExpectLength("sbx_snapshot.of_box", 1),
					querycheck.ExpectIdentity("sbx_snapshot.of_box", modalIdentityOf(ids, "sbx_snapshot.snap")),
					querycheck.ExpectResourceDisplayName("sbx_snapshot.of_box", byID("sbx_snapshot.snap"), modalIDOf(ids, "sbx_snapshot.snap")),
				},
			},
			{
				Query: true,
				Config: `
list "sbx_template" "any" {
  provider = sbx
  config {}
}
`,
				ExpectError: regexp.MustCompile(`Templates are not listed on modal`),
			},
		},
	})
}
