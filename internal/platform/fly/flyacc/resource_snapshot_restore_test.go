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
