package platformtest

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// testDisappears: an object deleted outside Terraform is dropped from state
// on refresh and planned for creation; applying makes a new one.
func testDisappears(t *testing.T, h harness) {
	t.Run("sandbox", func(t *testing.T) {
		r := newRun(h)
		disappearCase(t, h, KindSandbox, "sbx_sandbox.s", r.config(r.template(), r.sandbox("s")))
	})
	t.Run("volume", func(t *testing.T) {
		r := newRun(h)
		disappearCase(t, h, KindVolume, "sbx_volume.v", r.config(r.volume("v")))
	})
	t.Run("snapshot", func(t *testing.T) {
		r := newRun(h)
		switch {
		case h.Capabilities.Accepts(platform.AttrSnapshotVolumeID) && h.Capabilities.SnapshotDelete:
			disappearCase(t, h, KindSnapshot, "sbx_snapshot.snap",
				r.config(r.volume("v"), r.snapshotOf("snap", "sbx_volume.v")))
		case h.Capabilities.Accepts(platform.AttrSnapshotSandboxID) && h.Capabilities.SnapshotDelete:
			disappearCase(t, h, KindSnapshot, "sbx_snapshot.snap",
				r.config(r.template(), r.sandbox("s"), r.snapshotOf("snap", "sbx_sandbox.s")))
		default:
			needs(t, false, "snapshots that can be deleted (SnapshotDelete with SandboxSnapshot or VolumeSnapshot)")
		}
	})
}

func disappearCase(t *testing.T, h harness, kind, addr, cfg string) {
	var oldID, newID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		CheckDestroy:             goneFromPlatform(t, h, map[string]*string{kind: &newID}),
		Steps: []resource.TestStep{
			{
				Config:           cfg,
				ConfigPlanChecks: emptyPlanAfterApply(),
				Check:            captureID(addr, &oldID),
			},
			{
				PreConfig: func() {
					h.OutOfBand.Delete(t, kind, oldID)
					if h.OutOfBand.Exists(t, kind, oldID) {
						t.Fatalf("%s %s still exists after the out-of-band delete", kind, oldID)
					}
				},
				Config:           cfg,
				ConfigPlanChecks: expectAction(addr, plancheck.ResourceActionCreate),
				// The planned create is the proof; the id may repeat where a
				// platform derives ids from names (Docker volumes).
				Check: resource.ComposeAggregateTestCheckFunc(
					captureID(addr, &newID),
					existsOnPlatform(t, h, kind, &newID),
				),
			},
		},
	})
}
