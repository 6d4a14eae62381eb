package flyacc_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

// flySnapSourceHCL is a 1 GB volume and a running machine mounting it.
const flySnapSourceHCL = `
resource "sbx_volume" "v" {
  name    = "snap_source"
  size_gb = 1
}

resource "sbx_sandbox" "b" {
  name        = "snap-source-box"
  template_id = sbx_template.t.id

  volume_mount {
    volume_id = sbx_volume.v.id
    path      = "/data"
  }
}
`

// flySnapHCL is a snapshot of the volume at sbx_volume.v.
const flySnapHCL = `
resource "sbx_snapshot" "s" {
  volume_id = sbx_volume.v.id
}
`

// flySnapRestoreHCL is a new volume restored from the snapshot and a new
// machine mounting it.
const flySnapRestoreHCL = `
resource "sbx_volume" "r" {
  name             = "snap_restored"
  from_snapshot_id = sbx_snapshot.s.id
}

resource "sbx_sandbox" "r" {
  name        = "snap-restored-box"
  template_id = sbx_template.t.id

  volume_mount {
    volume_id = sbx_volume.r.id
    path      = "/data"
  }
}
`

// flySnapOnFake is the fake's snapshot behind the provider's snapshot id
// ("<volume id>:<snapshot id>"), among its volume's.
func flySnapOnFake(fake *flyfake.Server, id string) (flyfake.SnapshotView, error) {
	volID, snapID, found := strings.Cut(id, ":")
	if !found {
		return flyfake.SnapshotView{}, fmt.Errorf("snapshot id %q is not <volume id>:<snapshot id>", id)
	}
	for _, sn := range fake.Snapshots(volID) {
		if sn.ID == snapID {
			return sn, nil
		}
	}
	return flyfake.SnapshotView{}, fmt.Errorf("the fake lists no snapshot %s of volume %s", snapID, volID)
}

// flySnapRestored checks on the fake that sbx_snapshot.s is a created,
// on-demand snapshot of sbx_volume.v, that sbx_volume.r was restored from
// it and is mounted by sbx_sandbox.r, and that both machines are started.
func flySnapRestored(fake *flyfake.Server) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		snapID, err := acctest.ResourceID(s, "sbx_snapshot.s")
		if err != nil {
			return err
		}
		sn, err := flySnapOnFake(fake, snapID)
		if err != nil {
			return err
		}
		src, err := flyResVolume(s, fake, "sbx_volume.v")
		if err != nil {
			return err
		}
		if sn.VolumeID != src.ID || sn.Automatic || sn.Status != flyfake.SnapshotCreated {
			return fmt.Errorf("the fake's snapshot %s is of volume %s (automatic %t, %s), want an on-demand created snapshot of %s",
				sn.ID, sn.VolumeID, sn.Automatic, sn.Status, src.ID)
		}
		restored, err := flyResVolume(s, fake, "sbx_volume.r")
		if err != nil {
			return err
		}
		if restored.ID == src.ID || restored.RestoredFrom != sn.ID {
			return fmt.Errorf("the fake's volume %s was restored from %q, want the snapshot %s", restored.ID, restored.RestoredFrom, sn.ID)
		}
		if restored.SizeGB < sn.VolumeSizeGB {
			return fmt.Errorf("the restored volume %s is %d GB, smaller than the snapshot's volume (%d GB)", restored.ID, restored.SizeGB, sn.VolumeSizeGB)
		}
		box, err := flyResMachine(s, fake, "sbx_sandbox.r")
		if err != nil {
			return err
		}
		if box.VolumeID != restored.ID || restored.AttachedMachineID != box.ID {
			return fmt.Errorf("the new machine %s mounts %q and the restored volume %s is attached to %q; want one mounting the other",
				box.ID, box.VolumeID, restored.ID, restored.AttachedMachineID)
		}
		for _, addr := range []string{"sbx_sandbox.b", "sbx_sandbox.r"} {
			m, err := flyResMachine(s, fake, addr)
			if err != nil {
				return err
			}
			if m.State != flyfake.StateStarted {
				return fmt.Errorf("the fake's machine %s (%s) is %s, want started", m.ID, addr, m.State)
			}
		}
		return nil
	}
}

// A snapshot of a volume a running machine mounts (sbx_snapshot with
// volume_id), restored into a new volume (from_snapshot_id) that a new
// machine mounts: the source volume and machine keep their ids, the
// restored volume holds the snapshot, the next plan is empty, and the
// snapshot and the new volume and machine import as the state holds them.
func TestAccFlySnapshotRestoreIntoNewVolume(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := flyAccFake(t, flyfake.Options{})
	base := cfg + flyTemplateHCL("snap-tpl") + flySnapSourceHCL
	var volID, boxID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: flyAccFactories,
		CheckDestroy:             flyResHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				Config:           base,
				ConfigPlanChecks: flyResEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.CaptureAttr("sbx_volume.v", "id", &volID),
					acctest.CaptureAttr("sbx_sandbox.b", "id", &boxID),
					flyResMachineState(fake, "sbx_sandbox.b", flyfake.StateStarted),
				),
			},
			{
				Config:           base + flySnapHCL + flySnapRestoreHCL,
				ConfigPlanChecks: flyResEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					flyResSameID("sbx_volume.v", &volID),
					flyResSameID("sbx_sandbox.b", &boxID),
					resource.TestCheckResourceAttrPair("sbx_snapshot.s", "volume_id", "sbx_volume.v", "id"),
					resource.TestCheckResourceAttrPair("sbx_volume.r", "from_snapshot_id", "sbx_snapshot.s", "id"),
					resource.TestCheckResourceAttr("sbx_sandbox.r", "status", "running"),
					flyResMachineState(fake, "sbx_sandbox.r", flyfake.StateStarted),
					resource.TestCheckResourceAttr("sbx_sandbox.r", "volume_mount.0.path", "/data"),
					resource.TestCheckResourceAttrPair("sbx_sandbox.r", "volume_mount.0.volume_id", "sbx_volume.r", "id"),
					flySnapRestored(fake),
					flyResMachineCount(fake, 2),
				),
			},
			{
				ResourceName:            "sbx_snapshot.s",
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			},
			{
				// sbx_volume.r was made before the machine that mounts it:
				// its attached_to is read by the next refresh.
				RefreshState: true,
				Check:        resource.TestCheckResourceAttrPair("sbx_volume.r", "attached_to.0", "sbx_sandbox.r", "id"),
			},
			// Fly does not say what snapshot a volume was restored from.
			flyResVolumeImport("sbx_volume.r", "from_snapshot_id"),
			flyResSandboxImport("sbx_sandbox.r"),
		},
	})
}

// flySnapLeftOnFake checks that the fake still lists the snapshot whose
// provider id *id holds.
func flySnapLeftOnFake(fake *flyfake.Server, id *string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		sn, err := flySnapOnFake(fake, *id)
		if err != nil {
			return fmt.Errorf("after the snapshot's destroy: %w (Fly cannot delete snapshots: it must stay until it expires)", err)
		}
		if sn.Status != flyfake.SnapshotCreated {
			return fmt.Errorf("the fake's snapshot %s is %s after the destroy, want created", sn.ID, sn.Status)
		}
		return nil
	}
}

// Destroying a snapshot on Fly, which cannot delete snapshots, succeeds:
// it is removed from state only, and Fly still lists it (it expires after
// the volume's snapshot_retention). The volume stays, and the next plan is
// empty.
func TestAccFlySnapshotDestroyForgets(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := flyAccFake(t, flyfake.Options{})
	base := cfg + flyTemplateHCL("snap-forget-tpl") + flySnapSourceHCL
	var snapID, volID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: flyAccFactories,
		CheckDestroy:             flyResHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				Config:           base + flySnapHCL,
				ConfigPlanChecks: flyResEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.CaptureAttr("sbx_snapshot.s", "id", &snapID),
					acctest.CaptureAttr("sbx_volume.v", "id", &volID),
					flySnapLeftOnFake(fake, &snapID),
				),
			},
			{
				Config:           base,
				ConfigPlanChecks: flyResEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					flyResSameID("sbx_volume.v", &volID),
					func(s *terraform.State) error {
						if _, err := acctest.ResourceID(s, "sbx_snapshot.s"); err == nil {
							return fmt.Errorf("sbx_snapshot.s is still in the state after its destroy")
						}
						return nil
					},
					flySnapLeftOnFake(fake, &snapID),
				),
			},
		},
	})
}

// The same destroy through the terraform CLI's own output: it ends without
// error, with the warning that the snapshot was removed from state only,
// naming it; Fly still lists it.
func TestAccFlySnapshotDestroyWarns(t *testing.T) {
	// The provider served in-process for the second state logs every
	// request at trace level to the test's stderr: quiet it.
	for _, v := range []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER", "TF_LOG_PROVIDER_SBX"} {
		t.Setenv(v, "off")
	}
	fake, cfg := flyAccFake(t, flyfake.Options{})
	other := acctest.NewOtherState(t, provider.NewWithOptions("test",
		provider.Options{Platforms: flyPlatforms(), Hooks: acctest.NoWaitHooks()}))
	base := cfg + flyTemplateHCL("snap-warn-tpl") + flySnapSourceHCL
	other.Apply(base + flySnapHCL)
	snapID := other.Attr("sbx_snapshot.s", "id")
	out, err := other.TryApply(base)
	if err != nil {
		t.Fatalf("destroying the snapshot failed, want a warning only: %v\n%s", err, out)
	}
	for _, want := range []string{
		`Warning: Snapshot removed from state only`,
		`cannot delete snapshots: snapshot "` + snapID + `" was removed from the Terraform state but still exists`,
	} {
		if !acctest.ErrorPattern(regexp.QuoteMeta(want)).MatchString(out) {
			t.Errorf("the destroy's output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Error:") {
		t.Errorf("the destroy's output has an error:\n%s", out)
	}
	if err := flySnapLeftOnFake(fake, &snapID)(nil); err != nil {
		t.Error(err)
	}
	// Everything else goes; the snapshot stays.
	other.Apply(cfg)
	if err := flyResHoldsNothing(fake)(nil); err != nil {
		t.Error(err)
	}
	if err := flySnapLeftOnFake(fake, &snapID)(nil); err != nil {
		t.Error(err)
	}
}
