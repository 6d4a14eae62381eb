package flyacc_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
)

// flyGrowConfig is a volume of sizeGB and a running machine mounting it.
func flyGrowConfig(providerConfig string, sizeGB int) string {
	return providerConfig + flyTemplateHCL("grow-tpl") + fmt.Sprintf(`
resource "sbx_volume" "v" {
  name    = "grow_data"
  size_gb = %d
}

resource "sbx_sandbox" "b" {
  name        = "grow-box"
  template_id = sbx_template.t.id
  state       = "running"

  volume_mount {
    volume_id = sbx_volume.v.id
    path      = "/data"
  }
}
`, sizeGB)
}

// flyGrowMounted checks on the fake that the volume at sbx_volume.v is
// sizeGB, mounted by the started machine at sbx_sandbox.b at /data.
func flyGrowMounted(fake *flyfake.Server, sizeGB int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		v, err := flyResVolume(s, fake, "sbx_volume.v")
		if err != nil {
			return err
		}
		m, err := flyResMachine(s, fake, "sbx_sandbox.b")
		if err != nil {
			return err
		}
		if v.SizeGB != sizeGB {
			return fmt.Errorf("the fake's volume %s is %d GB, want %d", v.ID, v.SizeGB, sizeGB)
		}
		if v.AttachedMachineID != m.ID || m.VolumeID != v.ID || m.MountPath != "/data" {
			return fmt.Errorf("the fake's volume %s is attached to %q, machine %s mounts %q at %q; want the volume mounted by the machine at /data",
				v.ID, v.AttachedMachineID, m.ID, m.VolumeID, m.MountPath)
		}
		if m.State != flyfake.StateStarted {
			return fmt.Errorf("the fake's machine %s is %s, want started", m.ID, m.State)
		}
		return nil
	}
}

// A volume mounted by a started machine grows in place (size_gb 1 → 3,
// Fly's extend): the same volume id, the same machine, which is started
// after it (Fly asks for a restart to see the new size, and the provider
// restarts it), and an empty plan.
func TestAccFlyVolumeGrowInPlaceMounted(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := flyAccFake(t, flyfake.Options{})
	var volID, boxID string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: flyAccFactories,
		CheckDestroy:             flyResHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				Config:           flyGrowConfig(cfg, 1),
				ConfigPlanChecks: flyResEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.CaptureAttr("sbx_volume.v", "id", &volID),
					acctest.CaptureAttr("sbx_sandbox.b", "id", &boxID),
					resource.TestCheckResourceAttr("sbx_volume.v", "size_gb", "1"),
					flyGrowMounted(fake, 1),
				),
			},
			{
				Config: flyGrowConfig(cfg, 3),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("sbx_volume.v", plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction("sbx_sandbox.b", plancheck.ResourceActionNoop),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					flyResSameID("sbx_volume.v", &volID),
					flyResSameID("sbx_sandbox.b", &boxID),
					resource.TestCheckResourceAttr("sbx_volume.v", "size_gb", "3"),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "status", "running"),
					flyGrowMounted(fake, 3),
					flyResMachineCount(fake, 1),
					func(*terraform.State) error {
						if n := fake.Requests("PUT /apps/{app_name}/volumes/{volume_id}/extend"); n != 1 {
							return fmt.Errorf("the volume was extended %d times, want once", n)
						}
						if n := len(fake.Volumes()); n != 1 {
							return fmt.Errorf("the fake made %d volumes, want 1 (grown in place, not replaced)", n)
						}
						return nil
					},
				),
			},
			flyResVolumeImport("sbx_volume.v"),
		},
	})
}
