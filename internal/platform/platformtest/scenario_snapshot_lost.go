package platformtest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// testRestoredSnapshotLost: a box restored from a snapshot holds its own
// data, so the snapshot deleted behind Terraform's back (or expired) never
// replaces it. The snapshot's resource is created anew, its id known only
// after apply (the same id again where a platform derives it from the
// name: E2B); the box is updated in place (its from_snapshot_id records
// the new snapshot's id), keeps its id, and the plan after is empty. A
// later change to another snapshot, while the recorded one exists,
// replaces the box as always.
func testRestoredSnapshotLost(t *testing.T, h harness) {
	caps := h.Capabilities
	needs(t, caps.Accepts(platform.AttrSnapshotSandboxID) && caps.Accepts(platform.AttrSandboxFromSnapshotID),
		"sandbox snapshots restored into new sandboxes (SandboxSnapshot, SandboxFromSnapshot)")
	r := newRun(h)
	needs(t, caps.SnapshotDelete && !slices.Contains(caps.SnapshotUndeletableKinds, platform.SnapshotKind(r.sandboxSnapshotKind())),
		"sandbox snapshots that can be deleted (SnapshotDelete)")
	// Where a running box holds its snapshot, the box is kept stopped, so
	// the snapshot can be lost.
	stopped := ""
	if h.SnapshotsHeldByRunningBoxes {
		needs(t, caps.AcceptsValue(platform.AttrSandboxState, string(platform.StateStopped)),
			"stopped sandboxes (a snapshot under a running box cannot be deleted)")
		stopped = "  state            = \"stopped\"\n"
	}
	var restoredID, snapID, otherID, replacedID string
	restoredFrom := func(snapshot string) string {
		return `resource "sbx_sandbox" "restored" {
  name             = "` + r.name + `-restored"
  from_snapshot_id = sbx_snapshot.` + snapshot + `.id
` + stopped + `}
`
	}
	base := []string{r.template(), r.sandbox("src"), r.snapshotOf("snap", "sbx_sandbox.src")}
	cfg := r.config(append(base, restoredFrom("snap"))...)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		CheckDestroy: goneFromPlatform(t, h, map[string]*string{
			KindSandbox: &replacedID, KindSnapshot: &otherID,
		}),
		Steps: []resource.TestStep{
			{
				Config:           cfg,
				ConfigPlanChecks: emptyPlanAfterApply(),
				Check: resource.ComposeAggregateTestCheckFunc(
					captureID("sbx_sandbox.restored", &restoredID),
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
						plancheck.ExpectResourceAction("sbx_sandbox.restored", plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue("sbx_sandbox.restored", tfjsonpath.New("from_snapshot_id")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					sameID("sbx_sandbox.restored", &restoredID),
					resource.TestCheckResourceAttrPair("sbx_sandbox.restored", "from_snapshot_id", "sbx_snapshot.snap", "id"),
					existsOnPlatform(t, h, KindSandbox, &restoredID),
				),
			},
			{
				// Once its snapshot exists again, a change to another
				// snapshot is a change of starting point: a new box.
				Config:           r.config(append(base, r.snapshotOf("other", "sbx_sandbox.src"), restoredFrom("other"))...),
				ConfigPlanChecks: expectAction("sbx_sandbox.restored", plancheck.ResourceActionReplace),
				Check: resource.ComposeAggregateTestCheckFunc(
					captureID("sbx_snapshot.other", &otherID),
					captureID("sbx_sandbox.restored", &replacedID),
					resource.TestCheckResourceAttrPair("sbx_sandbox.restored", "from_snapshot_id", "sbx_snapshot.other", "id"),
				),
			},
		},
	})
}

// sameID checks that addr still has the id captured in *want.
func sameID(addr string, want *string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		var got string
		if err := captureID(addr, &got)(s); err != nil {
			return err
		}
		if got != *want {
			return fmt.Errorf("%s is %s, want %s kept (it was replaced)", addr, got, *want)
		}
		return nil
	}
}
