package e2bacc_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// e2bSnapshotConfig is a box and a snapshot of it on the E2B fake; memory
// is the snapshot's include_memory line ("" leaves it out).
func e2bSnapshotConfig(providerConfig, memory string) string {
	return providerConfig + fmt.Sprintf(`
resource "sbx_template" "t" {
  name       = "snapmem"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}

resource "sbx_sandbox" "b" {
  name        = "snapmem-box"
  template_id = sbx_template.t.id
  timeout     = "10m"
}

resource "sbx_snapshot" "s" {
  sandbox_id = sbx_sandbox.b.id
  name       = "snapmem-ckpt"
  %s
}
`, memory)
}

// The HCL that snapshots on Docker (no include_memory) snapshots on E2B:
// a memory snapshot is planned and taken. What E2B does not report (size,
// creation time) is null, an import reads the same include_memory, size and
// time back (E2B does not report the source box: see ImportStateVerifyIgnore), and writing the
// natural value out or leaving it out again changes nothing.
func TestAccSnapshotE2BNaturalKind(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, providerConfig := e2bAccFake(t, e2bfake.Options{})
	config := e2bSnapshotConfig(providerConfig, "")
	empty := resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						// known at plan time, from the capability matrix
						plancheck.ExpectKnownValue("sbx_snapshot.s", tfjsonpath.New("include_memory"), knownvalue.Bool(true)),
						plancheck.ExpectKnownValue("sbx_snapshot.s", tfjsonpath.New("kind"), knownvalue.StringExact("memory")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("sbx_snapshot.s", "include_memory", "true"),
					resource.TestCheckResourceAttr("sbx_snapshot.s", "kind", "memory"),
					resource.TestCheckNoResourceAttr("sbx_snapshot.s", "size_bytes"),
					resource.TestCheckNoResourceAttr("sbx_snapshot.s", "created_at"),
					func(*terraform.State) error {
						if n := len(fake.Snapshots()); n != 1 {
							return fmt.Errorf("the fake holds %d snapshots, want 1", n)
						}
						return nil
					},
				),
			},
			{
				ResourceName:            "sbx_snapshot.s",
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts", "sandbox_id"}, // E2B does not report a snapshot's source
			},
			{
				Config:           e2bSnapshotConfig(providerConfig, "include_memory = true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config:           config,
				ConfigPlanChecks: empty,
			},
		},
	})
}

// e2bSnapshotSourceBoxes is a template and two boxes on the E2B fake, the
// base of every configuration of TestAccSnapshotE2BImportKeepsSource.
func e2bSnapshotSourceBoxes(providerConfig string) string {
	return providerConfig + `
resource "sbx_template" "t" {
  name       = "snapsrc"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}

resource "sbx_sandbox" "b" {
  name        = "snapsrc-box"
  template_id = sbx_template.t.id
  timeout     = "10m"
}

resource "sbx_sandbox" "other" {
  name        = "snapsrc-other"
  template_id = sbx_template.t.id
  timeout     = "10m"
}
`
}

// e2bSnapshotOf is the snapshot resource, a snapshot of the box named source.
func e2bSnapshotOf(source string) string {
	return fmt.Sprintf(`
resource "sbx_snapshot" "s" {
  sandbox_id = sbx_sandbox.%s.id
  name       = "snapsrc-ckpt"
}
`, source)
}

// E2B does not say which box a snapshot came from, so an imported snapshot
// has no sandbox_id in state. Importing it must never plan its
// destruction: the configured sandbox_id is recorded in place, whether the
// platform confirms it (snapshots listed by sandbox) or not (then with a
// warning): a snapshot is a checkpoint, and replacing it would delete its data.
func TestAccSnapshotE2BImportKeepsSource(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, providerConfig := e2bAccFake(t, e2bfake.Options{})
	boxes := e2bSnapshotSourceBoxes(providerConfig)
	forgotten := boxes + `
removed {
  from = sbx_snapshot.s
  lifecycle {
    destroy = false
  }
}
`
	imported := func(source string) string {
		return boxes + `
data "sbx_snapshot" "found" {
  name = "snapsrc-ckpt"
}

import {
  to = sbx_snapshot.s
  id = data.sbx_snapshot.found.id
}
` + e2bSnapshotOf(source)
	}
	oneSnapshot := func(*terraform.State) error {
		if n := len(fake.Snapshots()); n != 1 {
			return fmt.Errorf("the fake holds %d snapshots, want 1", n)
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		Steps: []resource.TestStep{
			{Config: boxes + e2bSnapshotOf("b"), Check: oneSnapshot},
			{Config: forgotten, Check: oneSnapshot},
			{
				// A source the platform does not confirm: recorded, not replaced.
				Config:             imported("other"),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPreRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("sbx_snapshot.s", plancheck.ResourceActionUpdate),
				}},
			},
			{
				Config: imported("b"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("sbx_snapshot.s", plancheck.ResourceActionUpdate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					oneSnapshot,
					resource.TestCheckResourceAttrPair("sbx_snapshot.s", "sandbox_id", "sbx_sandbox.b", "id"),
				),
			},
		},
	})
}
