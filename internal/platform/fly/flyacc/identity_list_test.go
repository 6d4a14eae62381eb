package flyacc_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
)

// flyIdentityConfig is one object of each type on the Fly fake: the
// template is a record of an image, the snapshot one of the volume's.
// labels are the machine's, which the update step changes in place.
func flyIdentityConfig(providerConfig, labels string) string {
	return providerConfig + flyTemplateHCL("ident-tpl") + fmt.Sprintf(`
resource "sbx_volume" "v" {
  # Fly's default size, left out: an import reads it back as unset.
  name = "ident_vol"
}

resource "sbx_sandbox" "s" {
  name        = "ident-box"
  template_id = sbx_template.t.id
  labels      = %s
}

resource "sbx_snapshot" "snap" {
  volume_id = sbx_volume.v.id
}
`, labels)
}

// flyIdentityAddrs are the resources of flyIdentityConfig.
var flyIdentityAddrs = []string{"sbx_template.t", "sbx_volume.v", "sbx_sandbox.s", "sbx_snapshot.snap"}

// flyIDOf checks a value is the id recorded for addr (by flyRecordIDs).
func flyIDOf(ids map[string]string, addr string) knownvalue.Check {
	return knownvalue.StringFunc(func(v string) error {
		if ids[addr] == "" || v != ids[addr] {
			return fmt.Errorf("%s: got id %q, want the id recorded at create, %q", addr, v, ids[addr])
		}
		return nil
	})
}

// flyIdentityOf is the identity of the object recorded for addr.
func flyIdentityOf(ids map[string]string, addr string) map[string]knownvalue.Check {
	return map[string]knownvalue.Check{"id": flyIDOf(ids, addr), "platform": knownvalue.StringExact("fly")}
}

// flyRecordIDs records the id of every resource of flyIdentityConfig.
func flyRecordIDs(ids map[string]string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		for _, addr := range flyIdentityAddrs {
			id, err := acctest.ResourceID(s, addr)
			if err != nil {
				return err
			}
			ids[addr] = id
		}
		return nil
	}
}

// On Fly the four resources (a template is a record of an image, a
// snapshot one of a volume's) carry the identity {id, platform = "fly"}
// from their create, keep it across a refresh and an in-place update (a
// machine update), and import by it with nothing to change; an identity
// naming another platform is refused, naming both.
func TestAccFlyIdentity(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, providerConfig := flyAccFake(t, flyfake.Options{})
	ids := map[string]string{}
	cfg := flyIdentityConfig(providerConfig, `{ team = "a" }`)
	updated := flyIdentityConfig(providerConfig, `{ team = "a", tier = "gold" }`)
	steps := []resource.TestStep{{
		Config:           cfg,
		Check:            flyRecordIDs(ids),
		ConfigPlanChecks: flyResEmptyAfterApply,
	}}
	for _, addr := range flyIdentityAddrs {
		steps = append(steps, resource.TestStep{
			Config:          cfg,
			ResourceName:    addr,
			ImportState:     true,
			ImportStateKind: resource.ImportBlockWithResourceIdentity,
		})
	}
	var checks []statecheck.StateCheck
	for _, addr := range flyIdentityAddrs {
		checks = append(checks,
			statecheck.ExpectIdentity(addr, flyIdentityOf(ids, addr)),
			statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New("id")))
	}
	steps = append(steps,
		resource.TestStep{
			// Refreshed and relabelled in place, every identity is the one
			// its create recorded.
			Config:            updated,
			ConfigPlanChecks:  flyResInPlace("sbx_sandbox.s"),
			ConfigStateChecks: checks,
		},
		resource.TestStep{
			Config: updated + `
import {
  to       = sbx_volume.other
  identity = { id = "vol_other", platform = "modal" }
}
resource "sbx_volume" "other" {
  name = "other"
}
`,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)names platform "modal".*configuration uses\s+"fly"`),
		},
	)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: flyAccFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		CheckDestroy:             flyResHoldsNothing(fake),
		Steps:                    steps,
	})
}

// flyLazyString is a configuration variable whose value is read when the
// step writes it: an id recorded by an earlier step.
type flyLazyString struct{ v *string }

func (l flyLazyString) MarshalJSON() ([]byte, error) { return json.Marshal(*l.v) }

// The list resources find the objects on the Fly fake through `terraform
// query`: the machine by labels and state (and, asked for, as an import
// would store it), the volume by regular expression, the snapshot by its
// volume (Fly snapshots have no name: it shows as its id); a filter
// nothing matches finds nothing. Templates, records in state only, are not
// listed: asking is an error saying so.
func TestAccFlyList(t *testing.T) {
	acctest.RequireTerraform(t)
	acctest.SkipOnOpenTofu(t, "OpenTofu has no list resources (list blocks, a query command): Terraform ≥ 1.14 only")
	fake, providerConfig := flyAccFake(t, flyfake.Options{})
	ids := map[string]string{}
	volID := new(string)
	byID := func(addr string) queryfilter.QueryFilter {
		return queryfilter.ByResourceIdentity(flyIdentityOf(ids, addr))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: flyAccFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		CheckDestroy:             flyResHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				Config: flyIdentityConfig(providerConfig, `{ team = "a" }`),
				Check: resource.ComposeAggregateTestCheckFunc(
					flyRecordIDs(ids),
					acctest.CaptureAttr("sbx_volume.v", "id", volID),
				),
			},
			{
				Query:           true,
				ConfigVariables: config.Variables{"volume_id": flyLazyString{volID}},
				Config: `
variable "volume_id" {
  type = string
}

list "sbx_sandbox" "team_a" {
  provider         = sbx
  include_resource = true
  config {
    labels = { team = "a" }
    status = "running"
  }
}

list "sbx_sandbox" "stopped" {
  provider = sbx
  config {
    status = "stopped"
  }
}

list "sbx_volume" "ident" {
  provider = sbx
  config {
    name_regex = "^ident_"
  }
}

list "sbx_snapshot" "of_volume" {
  provider = sbx
  config {
    volume_id = var.volume_id
  }
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("sbx_sandbox.team_a", 1),
					querycheck.ExpectIdentity("sbx_sandbox.team_a", flyIdentityOf(ids, "sbx_sandbox.s")),
					querycheck.ExpectResourceDisplayName("sbx_sandbox.team_a", byID("sbx_sandbox.s"), knownvalue.StringExact("ident-box")),
					querycheck.ExpectResourceKnownValues("sbx_sandbox.team_a", byID("sbx_sandbox.s"), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("id"), KnownValue: flyIDOf(ids, "sbx_sandbox.s")},
						{Path: tfjsonpath.New("template_id"), KnownValue: flyIDOf(ids, "sbx_template.t")},
						{Path: tfjsonpath.New("state"), KnownValue: knownvalue.StringExact("running")},
						{Path: tfjsonpath.New("labels"), KnownValue: knownvalue.MapExact(map[string]knownvalue.Check{"team": knownvalue.StringExact("a")})},
						{Path: tfjsonpath.New("platform"), KnownValue: knownvalue.StringExact("fly")},
					}),
					querycheck.ExpectLength("sbx_sandbox.stopped", 0),
					querycheck.ExpectLength("sbx_volume.ident", 1),
					querycheck.ExpectIdentity("sbx_volume.ident", flyIdentityOf(ids, "sbx_volume.v")),
					querycheck.ExpectResourceDisplayName("sbx_volume.ident", byID("sbx_volume.v"), knownvalue.StringExact("ident_vol")),
					querycheck.ExpectLength("sbx_snapshot.of_volume", 1),
					querycheck.ExpectIdentity("sbx_snapshot.of_volume", flyIdentityOf(ids, "sbx_snapshot.snap")),
					querycheck.ExpectResourceDisplayName("sbx_snapshot.of_volume", byID("sbx_snapshot.snap"), flyIDOf(ids, "sbx_snapshot.snap")),
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
				ExpectError: regexp.MustCompile(`Templates are not listed on fly`),
			},
		},
	})
}
