package modalacc_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
)

// modalTakenVolume is the name of a volume made on Modal outside Terraform.
const modalTakenVolume = "acc-taken"

// modalTakenConfig is an sbx_volume named modalTakenVolume.
func modalTakenConfig(providerConfig string) string {
	return providerConfig + fmt.Sprintf(`
resource "sbx_volume" "v" {
  name = %q
}
`, modalTakenVolume)
}

// A volume name already taken on Modal (a volume made outside Terraform)
// is not adopted by a create: the apply fails naming the import command
// with the volume's id (its name), and the volume is left alone. Then
// `terraform import` of that name brings it under the resource, whose plan
// is then empty; destroy, now that Terraform manages it, deletes it.
func TestAccModalVolumeNameTaken(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	ws, providerConfig := modalAccWorkspace(t)
	takenID := ws.CreateVolume(modalTakenVolume)
	cfg := modalTakenConfig(providerConfig)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: modalFactories(ws),
		CheckDestroy:             modalHoldsNothing(ws, nil, modalTakenVolume),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ExpectError: regexp.MustCompile(`(?s)already\s+exists.*terraform\s+import\s+<this\s+resource's\s+address>\s+` +
					regexp.QuoteMeta(modalTakenVolume)),
			},
			{
				// The refused create left the volume as it was.
				PreConfig: func() {
					if v, ok := ws.Volume(modalTakenVolume); !ok || v.ID != takenID {
						t.Fatalf("the volume %s after the refused create: %+v (found %t), want the one made outside Terraform, %s",
							modalTakenVolume, v, ok, takenID)
					}
				},
				Config:             cfg,
				ResourceName:       "sbx_volume.v",
				ImportState:        true,
				ImportStateId:      modalTakenVolume,
				ImportStatePersist: true,
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					if len(states) != 1 || states[0].ID != modalTakenVolume || states[0].Attributes["name"] != modalTakenVolume {
						return fmt.Errorf("imported %+v, want the one volume %s", states, modalTakenVolume)
					}
					return nil
				},
			},
			{
				Config:   cfg,
				PlanOnly: true, // fails unless the plan after the import is empty
			},
		},
	})
}

// modalMountConfig is a template, two volumes and a sandbox mounting data
// writable and ref read-only below a subpath.
func modalMountConfig(providerConfig string) string {
	return providerConfig + modalTemplateHCL("mount-tpl") + `
resource "sbx_volume" "data" {
  name = "acc-data"
}

resource "sbx_volume" "ref" {
  name = "acc-ref"
}

resource "sbx_sandbox" "s" {
  name        = "mount-box"
  template_id = sbx_template.t.id

  volume_mount {
    volume_id = sbx_volume.data.id
    path      = "/data"
  }

  volume_mount {
    volume_id = sbx_volume.ref.id
    path      = "/ref"
    read_only = true
    subpath   = "docs"
  }
}
`
}

// A sandbox mounting one volume writable and one read-only (below a
// subpath): the fake's sandbox has both mounts as configured, the read-only
// one read-only and the other not. Volumes are Modal volumes by name (their
// id is the name). Everything imports as the state holds it; destroy
// removes the sandbox and both volumes.
func TestAccModalVolumeMountReadOnly(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	ws, providerConfig := modalAccWorkspace(t)
	cfg := modalMountConfig(providerConfig)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: modalFactories(ws),
		CheckDestroy:             modalHoldsNothing(ws, nil, "acc-data", "acc-ref"),
		Steps: []resource.TestStep{
			{
				Config:           cfg,
				ConfigPlanChecks: modalEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("sbx_volume.data", "id", "acc-data"),
					resource.TestCheckResourceAttr("sbx_volume.ref", "id", "acc-ref"),
					resource.TestCheckResourceAttr("sbx_sandbox.s", "volume_mount.1.read_only", "true"),
					modalSandboxIs(ws, "sbx_sandbox.s", func(sb modalfake.SandboxView) error {
						data, ok1 := ws.Volume("acc-data")
						ref, ok2 := ws.Volume("acc-ref")
						if !ok1 || !ok2 {
							return fmt.Errorf("the fake holds volume acc-data %t and acc-ref %t, want both", ok1, ok2)
						}
						want := map[string]modalfake.MountView{
							"/data": {VolumeID: data.ID, Path: "/data"},
							"/ref":  {VolumeID: ref.ID, Path: "/ref", ReadOnly: true, SubPath: "docs"},
						}
						if len(sb.Mounts) != len(want) {
							return fmt.Errorf("mounts %+v, want %+v", sb.Mounts, want)
						}
						for _, m := range sb.Mounts {
							if w, ok := want[m.Path]; !ok || m != w {
								return fmt.Errorf("mounts %+v, want %+v", sb.Mounts, want)
							}
						}
						return nil
					}),
				),
			},
			// Mounting changed the volumes' computed attached_to after they
			// were saved; refresh so the state compared with is current.
			{RefreshState: true},
			modalImportStep("sbx_volume.ref"),
			modalImportStep("sbx_sandbox.s"),
		},
	})
}
