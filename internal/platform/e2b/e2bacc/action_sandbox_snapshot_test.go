package e2bacc_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// e2bActionConfig is a box, the sbx_sandbox_snapshot action of it (extra
// lines in its config), and a release marker whose every update invokes
// the action first.
func e2bActionConfig(providerConfig, release, extra string) string {
	return providerConfig + fmt.Sprintf(`
resource "sbx_template" "t" {
  name       = "actbox"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}

resource "sbx_sandbox" "b" {
  name        = "actbox-box"
  template_id = sbx_template.t.id
  timeout     = "10m"
}

action "sbx_sandbox_snapshot" "pre" {
  config {
    sandbox_id = sbx_sandbox.b.id
    name       = "actbox-pre-%[1]s"
%[2]s
  }
}

resource "terraform_data" "release" {
  input = %[1]q
  lifecycle {
    action_trigger {
      events  = [before_update]
      actions = [action.sbx_sandbox_snapshot.pre]
    }
  }
}
`, release, extra)
}

// On E2B the action takes the platform's natural snapshot (memory, E2B
// takes no other) of the box before the release changes, in no state (the
// plan after it is empty); an include_memory = false or a ttl E2B cannot
// honour fails the plan, naming the argument, before anything is snapshotted.
func TestAccE2BSandboxSnapshotAction(t *testing.T) {
	acctest.RequireTerraform(t)
	acctest.SkipOnOpenTofu(t, "OpenTofu has no actions: Terraform ≥ 1.14 only")
	fake, providerConfig := e2bAccFake(t, e2bfake.Options{})
	snapshots := func(want int) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			got := fake.Snapshots()
			if len(got) != want {
				return fmt.Errorf("the fake holds %d snapshots, want %d: %+v", len(got), want, got)
			}
			box := s.RootModule().Resources["sbx_sandbox.b"].Primary.ID
			for _, snap := range got {
				if snap.SandboxID != box {
					return fmt.Errorf("snapshot %s is of box %q, want %q", snap.SnapshotID, snap.SandboxID, box)
				}
			}
			return nil
		}
	}
	empty := resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		Steps: []resource.TestStep{
			{
				// Created: before_update does not fire.
				Config:           e2bActionConfig(providerConfig, "v1", ""),
				ConfigPlanChecks: empty,
				Check:            snapshots(0),
			},
			{
				Config:           e2bActionConfig(providerConfig, "v2", ""),
				ConfigPlanChecks: empty,
				Check:            snapshots(1),
			},
			{
				Config:      e2bActionConfig(providerConfig, "v3", `    ttl = "72h"`),
				ExpectError: regexp.MustCompile(`ttl = "72h" is not supported on e2b`),
			},
			{
				Config:      e2bActionConfig(providerConfig, "v3", "    include_memory = false"),
				ExpectError: regexp.MustCompile(`(?s)include_memory.*e2b|(?s)e2b.*include_memory`),
			},
			{
				// The refused plan took nothing.
				Config:           e2bActionConfig(providerConfig, "v2", ""),
				ConfigPlanChecks: empty,
				Check:            snapshots(1),
			},
		},
	})
}
