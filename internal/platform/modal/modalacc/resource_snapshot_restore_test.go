package modalacc_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
)

// modalSnapSourceHCL is the sandbox snapshots are taken of; memory says
// whether it is made able to take memory snapshots.
func modalSnapSourceHCL(memory bool) string {
	return fmt.Sprintf(`
resource "sbx_sandbox" "src" {
  name             = "snap-source"
  template_id      = sbx_template.t.id
  memory_snapshots = %t
}
`, memory)
}

// modalSnapRestoreHCL is a snapshot of sbx_sandbox.src (extra lines in its
// body) and a new sandbox started from it.
func modalSnapRestoreHCL(extra string) string {
	return fmt.Sprintf(`
resource "sbx_snapshot" "snap" {
  sandbox_id = sbx_sandbox.src.id
%s
}

resource "sbx_sandbox" "restored" {
  name             = "snap-restored"
  from_snapshot_id = sbx_snapshot.snap.id
}
`, extra)
}

// A memory snapshot (include_memory = true) of a sandbox made with
// memory_snapshots = true, restored into a new sandbox: the fake's new
// sandbox is restored from that memory snapshot. Taking a memory snapshot
// ends the source sandbox on Modal, so right after the apply the refresh
// finds the source gone: the plan after it is not empty, it creates the
// source again. That is Modal's behaviour, and the step says so. Destroy
// forgets the memory snapshot (Modal cannot delete one); it stays on the
// fake until it expires.
func TestAccModalMemorySnapshotRestore(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	ws, providerConfig := modalAccWorkspace(t)
	base := providerConfig + modalTemplateHCL("mem-tpl") + modalSnapSourceHCL(true)
	var srcID, snapID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: modalFactories(ws),
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			modalHoldsNothing(ws, nil),
			func(*terraform.State) error {
				if _, ok := ws.MemorySnapshot(snapID); !ok {
					return fmt.Errorf("the memory snapshot %s is gone after destroy; Modal cannot delete one, so destroy should only forget it", snapID)
				}
				return nil
			},
		),
		Steps: []resource.TestStep{
			{
				Config:           base,
				ConfigPlanChecks: modalEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.CaptureAttr("sbx_sandbox.src", "id", &srcID),
					resource.TestCheckResourceAttr("sbx_sandbox.src", "memory_snapshots", "true"),
					modalSandboxIs(ws, "sbx_sandbox.src", func(sb modalfake.SandboxView) error {
						if !sb.EnableSnapshot {
							return fmt.Errorf("made without enable_snapshot, want it (memory_snapshots = true)")
						}
						return nil
					}),
				),
			},
			{
				Config: base + modalSnapRestoreHCL(`  include_memory = true`),
				// The snapshot ended the source sandbox: the refresh after
				// the apply drops it, and the plan creates it again.
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("sbx_sandbox.src", plancheck.ResourceActionCreate),
					},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.CaptureAttr("sbx_snapshot.snap", "id", &snapID),
					resource.TestCheckResourceAttr("sbx_snapshot.snap", "kind", "memory"),
					resource.TestCheckResourceAttrSet("sbx_snapshot.snap", "expires_at"),
					func(*terraform.State) error {
						sn, ok := ws.MemorySnapshot(snapID)
						if !ok || sn.SandboxID != srcID {
							return fmt.Errorf("the fake's memory snapshot %s: %+v (found %t), want one of sandbox %s", snapID, sn, ok, srcID)
						}
						if src, ok := ws.Sandbox(srcID); !ok || !src.Finished {
							return fmt.Errorf("the source sandbox %s is still running after its memory snapshot; Modal ends it", srcID)
						}
						return nil
					},
					modalSandboxIs(ws, "sbx_sandbox.restored", func(sb modalfake.SandboxView) error {
						if sb.RestoredFrom != snapID {
							return fmt.Errorf("restored from %q, want the memory snapshot %s", sb.RestoredFrom, snapID)
						}
						return nil
					}),
					modalOneLive(ws),
				),
			},
			{
				// Modal cannot look a memory snapshot up, and its record
				// sits in the tags of a sandbox no longer listed: a
				// refresh keeps when it was made and when it expires.
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrSet("sbx_snapshot.snap", "created_at"),
					resource.TestCheckResourceAttrSet("sbx_snapshot.snap", "expires_at"),
					resource.TestCheckResourceAttr("sbx_snapshot.snap", "retention_rule", "memory_snapshot"),
				),
			},
		},
	})
}

// A memory snapshot (include_memory = true) of a sandbox made without
// memory_snapshots is refused at plan time, naming the setting to change:
// Modal takes memory snapshots only of sandboxes made able to. The sandbox
// is left running, untouched.
func TestAccModalMemorySnapshotNeedsMemorySnapshots(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	ws, providerConfig := modalAccWorkspace(t)
	base := providerConfig + modalTemplateHCL("nomem-tpl") + modalSnapSourceHCL(false)
	var srcID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: modalFactories(ws),
		CheckDestroy:             modalHoldsNothing(ws, nil),
		Steps: []resource.TestStep{
			{
				Config:           base,
				ConfigPlanChecks: modalEmptyAfterApply,
				Check:            acctest.CaptureAttr("sbx_sandbox.src", "id", &srcID),
			},
			{
				Config: base + `
resource "sbx_snapshot" "snap" {
  sandbox_id     = sbx_sandbox.src.id
  include_memory = true
}
`,
				PlanOnly:    true,
				ExpectError: acctest.ErrorPattern(`(?s)Memory snapshots are off for this sandbox.*memory_snapshots = true`),
			},
			{
				// Nothing changed: the same sandbox, still running.
				Config: base,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					modalSameID("sbx_sandbox.src", &srcID),
					modalOneLive(ws),
				),
			},
		},
	})
}
