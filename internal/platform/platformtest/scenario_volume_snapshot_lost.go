package platformtest

import (
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// testRestoredVolumeSnapshotLost: a volume restored from a snapshot holds
// its own data, so the snapshot deleted behind Terraform's back (or
// expired: Fly drops volume snapshots after snapshot_retention) never
// replaces it, as testRestoredSnapshotLost shows for a box. The
// snapshot's resource is created anew, its id known only after apply; the
// volume is updated in place (its from_snapshot_id records the new
// snapshot's id), keeps its id, and the plan after is empty. A later
// change to another snapshot, while the recorded one exists, replaces the
// volume as always.
func testRestoredVolumeSnapshotLost(t *testing.T, h harness) {
	caps := h.Capabilities
	needs(t, caps.Accepts(platform.AttrSnapshotVolumeID) && caps.Accepts(platform.AttrVolumeFromSnapshotID),
		"volume snapshots restored into new volumes (VolumeSnapshot, VolumeRestore)")
	needs(t, caps.SnapshotDelete && !slices.Contains(caps.SnapshotUndeletableKinds, platform.SnapshotVolume),
		"volume snapshots that can be deleted (SnapshotDelete)")
	r := newRun(h)
	var restoredID, snapID, otherID, replacedID string
	restoredFrom := func(snapshot string) string {
		return r.volume("restored", "  from_snapshot_id = sbx_snapshot."+snapshot+".id")
	}
	base := []string{r.volume("src"), r.snapshotOf("snap", "sbx_volume.src")}
	cfg := r.config(append(base, restoredFrom("snap"))...)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		CheckDestroy: goneFromPlatform(t, h, map[string]*string{
			KindVolume: &replacedID, KindSnapshot: &otherID,
		}),
		Steps: []resource.TestStep{
			{
				Config:           cfg,
				ConfigPlanChecks: emptyPlanAfterApply(),
				Check: resource.ComposeAggregateTestCheckFunc(
					captureID("sbx_volume.restored", &restoredID),
					captureID("sbx_snapshot.snap", &snapID),
				),
			},
			{
				PreConfig: func() {
					h.OutOfBand.Delete(t, KindSnapshot, snapID)
					if h.OutOfBand.Exists(t, KindSnapshot, snapID) {
						t.Fatalf("snapshot %s still exists after the out-of-band delete", snapID)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("sbx_snapshot.snap", plancheck.ResourceActionCreate),
						plancheck.ExpectResourceAction("sbx_volume.restored", plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue("sbx_volume.restored", tfjsonpath.New("from_snapshot_id")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					sameID("sbx_volume.restored", &restoredID),
					resource.TestCheckResourceAttrPair("sbx_volume.restored", "from_snapshot_id", "sbx_snapshot.snap", "id"),
					existsOnPlatform(t, h, KindVolume, &restoredID),
				),
			},
			{
				// Once its snapshot exists again, a change to another
				// snapshot is a change of starting point: a new volume.
				Config:           r.config(append(base, r.snapshotOf("other", "sbx_volume.src"), restoredFrom("other"))...),
				ConfigPlanChecks: expectAction("sbx_volume.restored", plancheck.ResourceActionReplace),
				Check: resource.ComposeAggregateTestCheckFunc(
					captureID("sbx_snapshot.other", &otherID),
					captureID("sbx_volume.restored", &replacedID),
					resource.TestCheckResourceAttrPair("sbx_volume.restored", "from_snapshot_id", "sbx_snapshot.other", "id"),
				),
			},
		},
	})
}
