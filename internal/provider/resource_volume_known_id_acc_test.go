package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// On Docker a volume's id is its name, known before it exists. A volume
// removed out of band is planned for creation under the same id, so the
// snapshot taken of it is not replaced: the backup outlives its source.
func TestAccVolume_knownIDKeepsDownstream(t *testing.T) {
	acctest.RequireDocker(t)
	name := ownershipAccName("known")
	cfg := fmt.Sprintf(`
resource "sbx_volume" "v" {
  name = %q
}

resource "sbx_snapshot" "s" {
  volume_id = sbx_volume.v.id
}
`, name)
	var snapshotID string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				// The id is planned, not "(known after apply)".
				PreApply: []plancheck.PlanCheck{plancheck.ExpectKnownValue("sbx_volume.v", tfjsonpath.New("id"), knownvalue.StringExact(name))},
			},
			Check: resource.TestCheckResourceAttrWith("sbx_snapshot.s", "id", func(v string) error { snapshotID = v; return nil }),
		}, {
			PreConfig: func() {
				if err := acctest.DockerClient(t).VolumeRemove(context.Background(), name, true); err != nil {
					t.Fatal(err)
				}
			},
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("sbx_volume.v", plancheck.ResourceActionCreate),
					plancheck.ExpectResourceAction("sbx_snapshot.s", plancheck.ResourceActionNoop),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttr("sbx_volume.v", "id", name),
				resource.TestCheckResourceAttrWith("sbx_snapshot.s", "id", func(v string) error {
					if v != snapshotID {
						return fmt.Errorf("snapshot %s was replaced by %s", snapshotID, v)
					}
					return nil
				}),
			),
		}},
		CheckDestroy: volumeAccCheckDestroy(t, name),
	})
}
