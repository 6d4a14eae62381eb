package e2bacc_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// A snapshot is a checkpoint, on E2B (the fake) as on Docker
// (TestAccSnapshot_sourceChangeKeepsSnapshot): the box it was taken of,
// killed out of band, is created again, and the snapshot, with its id,
// stays; the next plan is empty.
func TestAccSnapshotE2B_sourceLostKeepsSnapshot(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, providerConfig := e2bAccFake(t, e2bfake.Options{})
	config := e2bSnapshotConfig(providerConfig, "")
	var snapID, boxID string
	oneSnapshot := func(*terraform.State) error {
		snaps := fake.Snapshots()
		if len(snaps) != 1 || snaps[0].SnapshotID != snapID {
			return fmt.Errorf("the fake holds snapshots %+v, want only %s", snaps, snapID)
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.CaptureAttr("sbx_snapshot.s", "id", &snapID),
					acctest.CaptureAttr("sbx_sandbox.b", "id", &boxID),
				),
			},
			{
				PreConfig: func() { fake.KillOutOfBand(boxID) },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("sbx_sandbox.b", plancheck.ResourceActionCreate),
						plancheck.ExpectResourceAction("sbx_snapshot.s", plancheck.ResourceActionNoop),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					oneSnapshot,
					resource.TestCheckResourceAttrWith("sbx_snapshot.s", "sandbox_id", func(v string) error {
						if v != boxID {
							return fmt.Errorf("sandbox_id %s, want the box the snapshot was taken of, %s", v, boxID)
						}
						return nil
					}),
				),
			},
			{
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            oneSnapshot,
			},
		},
	})
}
