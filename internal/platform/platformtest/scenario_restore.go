package platformtest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// testRestore: a snapshot of a running box (of the volume it mounts, where
// the platform snapshots volumes) restored into a new box (a new volume a
// new box mounts): the source keeps its id and runs on, the snapshot is of
// the platform's natural kind and names its source, the restored objects
// name the snapshot, both boxes run on the platform, the next plan is
// empty, and the snapshot and the restored objects import as the state
// holds them.
func testRestore(t *testing.T, in *Instance, f Factories) {
	needsTemplate(t, in)
	caps := in.Capabilities
	t.Run("sandbox", func(t *testing.T) {
		needs(t, caps.Accepts(platform.AttrSnapshotSandboxID) && caps.Accepts(platform.AttrSandboxFromSnapshotID),
			"sandbox snapshots restored into new sandboxes (SandboxSnapshot, SandboxFromSnapshot)")
		testRestoreSandbox(t, in, f)
	})
	t.Run("volume", func(t *testing.T) {
		needs(t, caps.Accepts(platform.AttrSnapshotVolumeID) && caps.Accepts(platform.AttrVolumeFromSnapshotID),
			"volume snapshots restored into new volumes (VolumeSnapshot, VolumeRestore)")
		testRestoreVolume(t, in, f)
	})
}

// boxesRun checks that the boxes at addrs run on the platform and that the
// instance runs no other box.
func boxesRun(t *testing.T, in *Instance, addrs ...string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		var ids []string
		for _, addr := range addrs {
			rs, ok := s.RootModule().Resources[addr]
			if !ok {
				return fmt.Errorf("%s is not in the state", addr)
			}
			if st := in.OutOfBand.SandboxState(t, rs.Primary.ID); st != platform.StateRunning {
				return fmt.Errorf("the box %s (%s) is %s on %s, want running", rs.Primary.ID, addr, st, in.Name)
			}
			ids = append(ids, rs.Primary.ID)
		}
		for _, o := range in.Objects(t) {
			if o.Kind == KindSandbox && !slices.Contains(ids, o.ID) {
				return fmt.Errorf("%s holds a box the configuration does not have: %s", in.Name, o)
			}
		}
		return nil
	}
}

// snapshotOfBoxReady checks, where the kit can say, that the platform holds
// the snapshot at snapAddr as a ready snapshot of the box at boxAddr.
func snapshotOfBoxReady(t *testing.T, in *Instance, snapAddr, boxAddr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rec, ok := in.OutOfBand.(SnapshotRecorder)
		if !ok {
			return nil
		}
		snap := s.RootModule().Resources[snapAddr].Primary.ID
		box := s.RootModule().Resources[boxAddr].Primary.ID
		for _, sn := range rec.SnapshotsOf(t, box) {
			if sn.ID == snap || sn.Name == snap {
				if !sn.Ready {
					return fmt.Errorf("the snapshot %s of the box %s is not ready on %s", snap, box, in.Name)
				}
				return nil
			}
		}
		return fmt.Errorf("%s holds no snapshot %s of the box %s", in.Name, snap, box)
	}
}

func testRestoreSandbox(t *testing.T, in *Instance, f Factories) {
	r := newRun(newHarness(in, f))
	caps := in.Capabilities
	ids := map[string]string{}
	var srcID, snapID, snap2ID string
	base := []string{r.template(), r.sandbox("src")}
	restore := func(extra ...string) string {
		return r.config(append(slices.Clone(base), r.snapshotOf("snap", "sbx_sandbox.src", extra...), `
resource "sbx_sandbox" "restored" {
  name             = "`+r.name+`-restored"
  from_snapshot_id = sbx_snapshot.snap.id
}
`)...)
	}
	includeMemory := "false"
	if r.sandboxSnapshotKind() == "memory" {
		includeMemory = "true"
	}
	steps := []resource.TestStep{
		{
			Config:           r.config(base...),
			ConfigPlanChecks: emptyPlanAfterApply(),
			Check: resource.ComposeAggregateTestCheckFunc(
				captureID("sbx_sandbox.src", &srcID),
				recordIDs(ids, "sbx_template.t"),
				boxesRun(t, in, "sbx_sandbox.src"),
			),
		},
		{
			Config:           restore(),
			ConfigPlanChecks: emptyPlanAfterApply(),
			Check: resource.ComposeAggregateTestCheckFunc(
				idIs("sbx_sandbox.src", &srcID),
				captureID("sbx_snapshot.snap", &snapID),
				resource.TestCheckResourceAttr("sbx_sandbox.src", "status", "running"),
				resource.TestCheckResourceAttr("sbx_sandbox.src", "state", "running"),
				resource.TestCheckResourceAttr("sbx_snapshot.snap", "kind", r.sandboxSnapshotKind()),
				resource.TestCheckResourceAttr("sbx_snapshot.snap", "include_memory", includeMemory),
				resource.TestCheckResourceAttrPair("sbx_snapshot.snap", "sandbox_id", "sbx_sandbox.src", "id"),
				resource.TestCheckResourceAttrPair("sbx_sandbox.restored", "from_snapshot_id", "sbx_snapshot.snap", "id"),
				resource.TestCheckResourceAttr("sbx_sandbox.restored", "status", "running"),
				snapshotOfBoxReady(t, in, "sbx_snapshot.snap", "sbx_sandbox.src"),
				boxesRun(t, in, "sbx_sandbox.src", "sbx_sandbox.restored"),
			),
		},
		{
			Config:                  restore(),
			ResourceName:            "sbx_snapshot.snap",
			ImportState:             true,
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: importIgnore(in, "sbx_snapshot"),
		},
		{
			Config:                  restore(),
			ResourceName:            "sbx_sandbox.restored",
			ImportState:             true,
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: importIgnore(in, "sbx_sandbox"),
		},
	}
	if caps.Attribute(platform.AttrSnapshotTTL).Support == platform.Replace {
		// A ttl is fixed when the snapshot is made: a change replaces it,
		// and with it the box restored from it; the source stays.
		steps = append(steps, resource.TestStep{
			Config: restore(`  ttl = "72h"`),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("sbx_snapshot.snap", plancheck.ResourceActionReplace),
					plancheck.ExpectResourceAction("sbx_sandbox.restored", plancheck.ResourceActionReplace),
					plancheck.ExpectResourceAction("sbx_sandbox.src", plancheck.ResourceActionNoop),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				captureID("sbx_snapshot.snap", &snap2ID),
				func(*terraform.State) error {
					if snap2ID == snapID {
						return fmt.Errorf("the snapshot kept its id %s across a ttl change", snapID)
					}
					if caps.SnapshotDelete && in.OutOfBand.Exists(t, KindSnapshot, snapID) {
						return fmt.Errorf("the replaced snapshot %s is still on %s", snapID, in.Name)
					}
					return nil
				},
				snapshotOfBoxReady(t, in, "sbx_snapshot.snap", "sbx_sandbox.src"),
				boxesRun(t, in, "sbx_sandbox.src", "sbx_sandbox.restored"),
			),
		})
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: f,
		CheckDestroy:             holdsNothing(t, in, r, ids),
		Steps:                    steps,
	})
}

func testRestoreVolume(t *testing.T, in *Instance, f Factories) {
	r := newRun(newHarness(in, f))
	ids := map[string]string{}
	var volID, boxID string
	size := ""
	if in.Capabilities.Accepts(platform.AttrVolumeSizeGB) {
		size = "  size_gb = 1"
	}
	mount := func(vol string) string {
		return fmt.Sprintf("  volume_mount {\n    volume_id = %s.id\n    path      = \"/data\"\n  }", vol)
	}
	base := []string{r.template(), r.volume("v", size), r.sandbox("b", mount("sbx_volume.v"))}
	restored := r.config(append(slices.Clone(base),
		r.snapshotOf("snap", "sbx_volume.v"),
		r.volume("r", "  from_snapshot_id = sbx_snapshot.snap.id"),
		r.sandbox("r", mount("sbx_volume.r")))...)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: f,
		CheckDestroy:             holdsNothing(t, in, r, ids),
		Steps: []resource.TestStep{
			{
				Config:           r.config(base...),
				ConfigPlanChecks: emptyPlanAfterApply(),
				Check: resource.ComposeAggregateTestCheckFunc(
					captureID("sbx_volume.v", &volID),
					captureID("sbx_sandbox.b", &boxID),
					recordIDs(ids, "sbx_template.t"),
					boxesRun(t, in, "sbx_sandbox.b"),
				),
			},
			{
				Config:           restored,
				ConfigPlanChecks: emptyPlanAfterApply(),
				Check: resource.ComposeAggregateTestCheckFunc(
					idIs("sbx_volume.v", &volID),
					idIs("sbx_sandbox.b", &boxID),
					resource.TestCheckResourceAttr("sbx_snapshot.snap", "kind", "volume"),
					resource.TestCheckResourceAttrPair("sbx_snapshot.snap", "volume_id", "sbx_volume.v", "id"),
					resource.TestCheckResourceAttrPair("sbx_volume.r", "from_snapshot_id", "sbx_snapshot.snap", "id"),
					resource.TestCheckResourceAttr("sbx_sandbox.r", "status", "running"),
					resource.TestCheckResourceAttr("sbx_sandbox.r", "volume_mount.0.path", "/data"),
					resource.TestCheckResourceAttrPair("sbx_sandbox.r", "volume_mount.0.volume_id", "sbx_volume.r", "id"),
					func(s *terraform.State) error {
						if s.RootModule().Resources["sbx_volume.r"].Primary.ID == volID {
							return fmt.Errorf("the restored volume is the source volume %s", volID)
						}
						return nil
					},
					boxesRun(t, in, "sbx_sandbox.b", "sbx_sandbox.r"),
				),
			},
			{
				Config:                  restored,
				ResourceName:            "sbx_snapshot.snap",
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: importIgnore(in, "sbx_snapshot"),
			},
			{
				// sbx_volume.r was made before the box that mounts it: its
				// attached_to is read by the next refresh.
				RefreshState: true,
				Check:        resource.TestCheckResourceAttrPair("sbx_volume.r", "attached_to.0", "sbx_sandbox.r", "id"),
			},
			{
				// Which snapshot a volume was restored from is an input
				// the platforms do not report back (Fly does not say).
				Config:                  restored,
				ResourceName:            "sbx_volume.r",
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: importIgnore(in, "sbx_volume", "from_snapshot_id"),
			},
			{
				Config:                  restored,
				ResourceName:            "sbx_sandbox.r",
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: importIgnore(in, "sbx_sandbox"),
			},
		},
	})
}
