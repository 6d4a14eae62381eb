package daytonaacc_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
)

// dtnActionConfig is a box, the sbx_sandbox_snapshot action of it (named
// after the release: Daytona snapshot names are unique), and a release
// marker whose every update invokes the action first.
func dtnActionConfig(providerConfig, release string) string {
	return dtnOneBox(providerConfig, "actbox") + fmt.Sprintf(`
action "sbx_sandbox_snapshot" "pre" {
  config {
    sandbox_id = sbx_sandbox.b.id
    name       = "actbox-pre-%[1]s"
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
`, release)
}

// dtnActionSnapshots checks that the fake holds exactly the snapshots
// named names taken of the box at sbx_sandbox.b (and no other snapshot of
// it), each active, and the box started again.
func dtnActionSnapshots(fake *daytonafake.Server, names ...string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		box, err := dtnBox(s, fake, "sbx_sandbox.b")
		if err != nil {
			return err
		}
		got := map[string]string{}
		for _, snap := range fake.Snapshots() {
			if snap.FromSandbox == box.ID && !snap.Removed {
				got[snap.Name] = snap.State
			}
		}
		if len(got) != len(names) {
			return fmt.Errorf("the fake holds %d snapshots of the box %s, want %d (%v): %v", len(got), box.ID, len(names), names, got)
		}
		for _, n := range names {
			if got[n] != "active" {
				return fmt.Errorf("the fake's snapshot %q of the box %s is %q, want active; snapshots of the box: %v", n, box.ID, got[n], got)
			}
		}
		if box.State != "started" {
			return fmt.Errorf("the box %s is %s after the snapshot, want started", box.ID, box.State)
		}
		return nil
	}
}

// On Daytona the action takes a snapshot of the box before the release
// changes (a filesystem snapshot, Daytona's natural kind), in no state: the
// plan after it is empty, and the box keeps running. The snapshot is not
// Terraform's to destroy: only the template, the box and the marker go.
func TestAccDaytonaSandboxSnapshotAction(t *testing.T) {
	acctest.RequireTerraform(t)
	acctest.SkipOnOpenTofu(t, "OpenTofu has no actions: Terraform ≥ 1.14 only")
	fake, providerConfig := dtnAccFake(t, daytonafake.Options{})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dtnAccFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		CheckDestroy:             dtnFakeHoldsNothing(fake, "actbox-pre-v2"),
		Steps: []resource.TestStep{
			{
				// Created: before_update does not fire.
				Config:           dtnActionConfig(providerConfig, "v1"),
				ConfigPlanChecks: dtnEmptyAfterApply,
				Check:            dtnActionSnapshots(fake),
			},
			{
				Config:           dtnActionConfig(providerConfig, "v2"),
				ConfigPlanChecks: dtnEmptyAfterApply,
				Check:            dtnActionSnapshots(fake, "actbox-pre-v2"),
			},
		},
	})
}
