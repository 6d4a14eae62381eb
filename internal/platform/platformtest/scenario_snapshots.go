package platformtest

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// testSnapshotRestore: what a box wrote survives a snapshot and shows up in a
// box restored from it; a snapshot of the restored box names the first one
// as its parent; a volume snapshot restores into a new volume with the data.
func testSnapshotRestore(t *testing.T, h harness) {
	t.Run("sandbox", func(t *testing.T) {
		needs(t, h.Capabilities.Accepts(platform.AttrSnapshotSandboxID) && h.Capabilities.Accepts(platform.AttrSandboxFromSnapshotID),
			"sandbox snapshots restored into new sandboxes (SandboxSnapshot, SandboxFromSnapshot)")
		testSandboxSnapshotRestore(t, h)
	})
	t.Run("volume", func(t *testing.T) {
		needs(t, h.Capabilities.Accepts(platform.AttrSnapshotVolumeID) && h.Capabilities.Accepts(platform.AttrVolumeFromSnapshotID),
			"volume snapshots restored into new volumes (VolumeSnapshot, VolumeRestore)")
		testVolumeSnapshotRestore(t, h)
	})
}

func testSandboxSnapshotRestore(t *testing.T, h harness) {
	r := newRun(h)
	const file = "/work/marker.txt"
	token := "kept-" + r.name
	var srcID, restoredID, snapID, snap2ID string
	source := r.sandbox("src", agentFiles(file, token))
	restored := `resource "sbx_sandbox" "restored" {
  name             = "` + r.name + `-restored"
  from_snapshot_id = sbx_snapshot.snap.id
}
`
	// A size the platform does not report is null, never a misleading 0.
	sizeCheck := reportedIsSet(h.Capabilities.SnapshotSize, "sbx_snapshot.snap", "size_bytes")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		CheckDestroy: goneFromPlatform(t, h, map[string]*string{
			KindSandbox: &srcID, KindSnapshot: &snapID,
		}),
		Steps: []resource.TestStep{
			{
				// The snapshot is taken in the next step, once the agent has
				// written its file, so the test never races the agent.
				Config:           r.config(r.template(), source),
				ConfigPlanChecks: emptyPlanAfterApply(),
				Check: resource.ComposeAggregateTestCheckFunc(
					captureID("sbx_sandbox.src", &srcID),
					fileEventually("the source sandbox", token, func() (string, bool) {
						return h.OutOfBand.ReadSandboxFile(t, srcID, file)
					}),
				),
			},
			{
				Config: r.config(r.template(), source,
					r.snapshotOf("snap", "sbx_sandbox.src", r.snapshotLabels(`generation = "1"`)),
					restored,
					r.snapshotOf("snap2", "sbx_sandbox.restored")),
				ConfigPlanChecks: emptyPlanAfterApply(),
				Check: resource.ComposeAggregateTestCheckFunc(
					captureID("sbx_snapshot.snap", &snapID),
					captureID("sbx_snapshot.snap2", &snap2ID),
					captureID("sbx_sandbox.restored", &restoredID),
					resource.TestCheckResourceAttr("sbx_snapshot.snap", "kind", r.sandboxSnapshotKind()),
					resource.TestCheckResourceAttrPair("sbx_snapshot.snap", "sandbox_id", "sbx_sandbox.src", "id"),
					r.snapshotLabelIs("sbx_snapshot.snap", "generation", "1"),
					reportedIsSet(h.Capabilities.SnapshotCreatedAt, "sbx_snapshot.snap", "created_at"),
					sizeCheck,
					resource.TestCheckNoResourceAttr("sbx_snapshot.snap", "parent_snapshot_id"),
					resource.TestCheckResourceAttrPair("sbx_sandbox.restored", "from_snapshot_id", "sbx_snapshot.snap", "id"),
					resource.TestCheckResourceAttr("sbx_sandbox.restored", "status", "running"),
					// lineage: the restored box's snapshot descends from the first
					resource.TestCheckResourceAttrPair("sbx_snapshot.snap2", "parent_snapshot_id", "sbx_snapshot.snap", "id"),
					existsOnPlatform(t, h, KindSnapshot, &snapID),
					fileEventually("the sandbox restored from the snapshot", token, func() (string, bool) {
						return h.OutOfBand.ReadSandboxFile(t, restoredID, file)
					}),
				),
			},
		},
	})
	for kind, id := range map[string]string{KindSandbox: restoredID, KindSnapshot: snap2ID} {
		if kind == KindSnapshot && !h.Capabilities.SnapshotDelete {
			continue // kept until it expires (goneFromPlatform)
		}
		if id != "" && h.OutOfBand.Exists(t, kind, id) {
			t.Errorf("%s %s still exists after destroy", kind, id)
		}
	}
}

func testVolumeSnapshotRestore(t *testing.T, h harness) {
	r := newRun(h)
	token := "volume-kept-" + r.name
	var volID, restoredID, snapID string
	base := []string{r.template(), r.volume("v"), r.sandbox("writer",
		agentFiles("/data/marker.txt", token),
		"  volume_mount {\n    volume_id = sbx_volume.v.id\n    path = \"/data\"\n  }")}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		CheckDestroy: goneFromPlatform(t, h, map[string]*string{
			KindVolume: &restoredID, KindSnapshot: &snapID,
		}),
		Steps: []resource.TestStep{
			{
				Config:           r.config(base...),
				ConfigPlanChecks: emptyPlanAfterApply(),
				Check: resource.ComposeAggregateTestCheckFunc(
					captureID("sbx_volume.v", &volID),
					fileEventually("the volume", token, func() (string, bool) {
						return h.OutOfBand.ReadVolumeFile(t, volID, "/marker.txt")
					}),
				),
			},
			{
				Config: r.config(append(base,
					r.snapshotOf("vsnap", "sbx_volume.v"),
					r.volume("restored", "  from_snapshot_id = sbx_snapshot.vsnap.id"))...),
				ConfigPlanChecks: emptyPlanAfterApply(),
				Check: resource.ComposeAggregateTestCheckFunc(
					captureID("sbx_snapshot.vsnap", &snapID),
					captureID("sbx_volume.restored", &restoredID),
					resource.TestCheckResourceAttr("sbx_snapshot.vsnap", "kind", "volume"),
					resource.TestCheckResourceAttrPair("sbx_snapshot.vsnap", "volume_id", "sbx_volume.v", "id"),
					resource.TestCheckNoResourceAttr("sbx_snapshot.vsnap", "sandbox_id"),
					resource.TestCheckResourceAttrPair("sbx_volume.restored", "from_snapshot_id", "sbx_snapshot.vsnap", "id"),
					fileEventually("the volume restored from the snapshot", token, func() (string, bool) {
						return h.OutOfBand.ReadVolumeFile(t, restoredID, "/marker.txt")
					}),
				),
			},
		},
	})
}
