package daytonaacc_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
)

// dtnSubpathConfig is a volume and a box mounting its sub-directory
// subpath at /work.
func dtnSubpathConfig(providerConfig, subpath string) string {
	return providerConfig + dtnTemplateHCL("subpath-tpl") + fmt.Sprintf(`
resource "sbx_volume" "v" {
  name = "agent-work"
}

resource "sbx_sandbox" "b" {
  name        = "subpath-box"
  template_id = sbx_template.t.id

  volume_mount {
    volume_id = sbx_volume.v.id
    path      = "/work"
    subpath   = %q
  }
}
`, subpath)
}

// dtnMountCheck checks the fake's box at sbx_sandbox.b: it mounts the
// volume sbx_volume.v at /work, its sub-directory subpath.
func dtnMountCheck(fake *daytonafake.Server, subpath string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		volID, err := acctest.ResourceID(s, "sbx_volume.v")
		if err != nil {
			return err
		}
		v, err := dtnBox(s, fake, "sbx_sandbox.b")
		if err != nil {
			return err
		}
		if len(v.Volumes) != 1 {
			return fmt.Errorf("the fake's box mounts %d volumes, want 1: %+v", len(v.Volumes), v.Volumes)
		}
		m := v.Volumes[0]
		if m.VolumeID != volID || m.MountPath != "/work" || m.Subpath != subpath {
			return fmt.Errorf("the fake's box mounts %+v, want volume %s at /work, subpath %q", m, volID, subpath)
		}
		return nil
	}
}

// A volume mounted with subpath: Daytona mounts that sub-directory of the
// volume; the state records it, an import reads the same mount back, and
// another subpath makes a new box (Daytona takes volumes at create only).
func TestAccDaytonaSandboxVolumeSubpath(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := dtnAccFake(t, daytonafake.Options{})
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dtnAccFactories,
		CheckDestroy:             dtnFakeHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				Config:           dtnSubpathConfig(cfg, "agent-1"),
				ConfigPlanChecks: dtnEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.CaptureAttr("sbx_sandbox.b", "id", &id),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "volume_mount.#", "1"),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "volume_mount.0.subpath", "agent-1"),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "volume_mount.0.path", "/work"),
					resource.TestCheckResourceAttrPair("sbx_sandbox.b", "volume_mount.0.volume_id", "sbx_volume.v", "id"),
					dtnMountCheck(fake, "agent-1"),
					dtnBoxState(fake, "started"),
				),
			},
			{
				// The volume was read before the box mounted it: a refresh
				// reads the box holding it.
				RefreshState: true,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("sbx_volume.v", "attached_to.#", "1"),
					resource.TestCheckResourceAttrPair("sbx_volume.v", "attached_to.0", "sbx_sandbox.b", "id"),
				),
			},
			{
				ResourceName:            "sbx_sandbox.b",
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts", "status_since"},
			},
			{
				ResourceName:            "sbx_volume.v",
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			},
			{
				Config:           dtnSubpathConfig(cfg, "agent-2"),
				ConfigPlanChecks: dtnEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrWith("sbx_sandbox.b", "id", func(v string) error {
						if v == id {
							return fmt.Errorf("the box %s was kept, want a new box for the new subpath", v)
						}
						return nil
					}),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "volume_mount.0.subpath", "agent-2"),
					dtnMountCheck(fake, "agent-2"),
					dtnBoxCount(fake, 1),
				),
			},
		},
	})
}
