package flyacc_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
)

// flyActionConfig is a machine mounting a volume, the sbx_sandbox_snapshot
// action of the machine, and a release marker whose every update invokes
// the action first.
func flyActionConfig(providerConfig, release string) string {
	return providerConfig + flyTemplateHCL("actbox-tpl") + fmt.Sprintf(`
resource "sbx_volume" "v" {
  name = "actbox_data"
}

resource "sbx_sandbox" "b" {
  name        = "actbox"
  template_id = sbx_template.t.id

  volume_mount {
    volume_id = sbx_volume.v.id
    path      = "/data"
  }
}

action "sbx_sandbox_snapshot" "pre" {
  config {
    sandbox_id = sbx_sandbox.b.id
  }
}

resource "terraform_data" "release" {
  input = %q
  lifecycle {
    action_trigger {
      events  = [before_update]
      actions = [action.sbx_sandbox_snapshot.pre]
    }
  }
}
`, release)
}

// flyNoSnapshots checks that the fake holds no snapshot of the volume at
// sbx_volume.v.
func flyNoSnapshots(fake *flyfake.Server) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		v, err := flyResVolume(s, fake, "sbx_volume.v")
		if err != nil {
			return err
		}
		if snaps := fake.Snapshots(v.ID); len(snaps) != 0 {
			return fmt.Errorf("the fake holds %d snapshots of the volume %s, want none: %+v", len(snaps), v.ID, snaps)
		}
		return nil
	}
}

// Fly snapshots volumes, not machines: the action's plan, once the
// release's update triggers it, fails naming sandbox_id and saying why,
// before anything is snapshotted or updated (the configuration that
// applied still plans nothing).
func TestAccFlySandboxSnapshotAction(t *testing.T) {
	acctest.RequireTerraform(t)
	acctest.SkipOnOpenTofu(t, "OpenTofu has no actions: Terraform ≥ 1.14 only")
	fake, providerConfig := flyAccFake(t, flyfake.Options{})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: flyAccFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		CheckDestroy:             flyResHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				// Created: before_update does not fire.
				Config:           flyActionConfig(providerConfig, "v1"),
				ConfigPlanChecks: flyResEmptyAfterApply,
				Check:            flyNoSnapshots(fake),
			},
			{
				Config:      flyActionConfig(providerConfig, "v2"),
				ExpectError: acctest.ErrorPattern(`(?s)Failed to plan action .*sandbox_id = "[^"]+" is not supported on fly: Fly snapshots volumes, not machines`),
			},
			{
				Config:           flyActionConfig(providerConfig, "v1"),
				ConfigPlanChecks: flyResEmptyAfterApply,
				Check:            flyNoSnapshots(fake),
			},
		},
	})
}
