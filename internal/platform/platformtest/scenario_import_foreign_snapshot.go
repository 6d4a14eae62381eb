package platformtest

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// testImportForeignSnapshot is import_foreign's journey for a snapshot a
// user took with the platform's own tools (`docker commit`, the platform's
// CLI or SDK) of a box or volume the configuration holds: an `import {}`
// block and a configuration naming only its source import it without
// replacing or destroying it, the next plan is empty, and the snapshot the
// state holds is the one that was taken, still there. Its id imported as a
// volume is an import error naming it, and the snapshot survives that too.
// The destroy deletes it (or forgets it where snapshots cannot be deleted):
// importing is taking ownership. Where an object is a snapshot only by the
// provider's marks (SnapshotsByMarksOnly: Docker), the one taken by hand is
// no snapshot to the provider: its import is an error saying what it is,
// and it survives.
func testImportForeignSnapshot(t *testing.T, h harness) {
	needs(t, handMakes(h.OutOfBand, KindSnapshot), "a snapshot made by hand (the kit's OutOfBand.Make models no snapshot)")
	r := newRun(h)
	var sourceAddr, sourceKind string
	var source []string
	switch {
	case h.Capabilities.Accepts(platform.AttrSnapshotSandboxID) && h.TemplateConfig != nil:
		sourceAddr, sourceKind, source = "sbx_sandbox.src", KindSandbox, []string{r.template(), r.sandbox("src")}
	case h.Capabilities.Accepts(platform.AttrSnapshotVolumeID):
		sourceAddr, sourceKind, source = "sbx_volume.src", KindVolume, []string{r.volume("src")}
	default:
		needs(t, false, "snapshots of sandboxes or volumes")
	}
	attr := "volume_id"
	if sourceKind == KindSandbox {
		attr = "sandbox_id"
	}
	var srcID, snapID string
	importBlock := "variable \"snapshot_id\" {\n  type = string\n}\n\nimport {\n  to = sbx_snapshot.hand\n  id = var.snapshot_id\n}\n"
	snapshot := fmt.Sprintf("resource \"sbx_snapshot\" \"hand\" {\n  %s = %s.id\n}\n", attr, sourceAddr)
	vars := config.Variables{"snapshot_id": acctest.LazyString{V: &snapID}}
	withSnapshot := append(append([]string{importBlock}, source...), snapshot)
	first := resource.TestStep{Config: r.config(source...), Check: captureID(sourceAddr, &srcID)}
	take := func() { snapID = h.OutOfBand.Make(t, Foreign{Kind: KindSnapshot, SourceID: srcID}) }
	if h.Capabilities.SnapshotsByMarksOnly {
		refuseForeignSnapshot(t, h, r, first, take, withSnapshot, vars, &snapID)
		return
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		CheckDestroy: goneFromPlatform(t, h, map[string]*string{
			KindSnapshot: &snapID, sourceKind: &srcID,
		}),
		Steps: []resource.TestStep{
			first,
			{
				// Taken by hand once the source exists.
				PreConfig:       take,
				Config:          r.config(withSnapshot...),
				ConfigVariables: vars,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{keepsObject("sbx_snapshot.hand")},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					idIs("sbx_snapshot.hand", &snapID),
					resource.TestCheckResourceAttrPair("sbx_snapshot.hand", attr, sourceAddr, "id"),
					existsOnPlatform(t, h, KindSnapshot, &snapID),
				),
			},
			{
				// Another kind's id: the volume import fails, saying the
				// id is a snapshot and how to import it, and changes
				// nothing.
				Config:          r.config(append(withSnapshot, "resource \"sbx_volume\" \"x\" {\n  name = \"x\"\n}\n")...),
				ConfigVariables: vars,
				ResourceName:    "sbx_volume.x",
				ImportState:     true,
				ImportStateIdFunc: func(*terraform.State) (string, error) {
					return snapID, nil
				},
				ExpectError: acctest.ErrorPattern(`(?s)Cannot import volume .* is a snapshot on ` + regexp.QuoteMeta(h.Name) + `: import it as sbx_snapshot`),
			},
			{
				Config:           r.config(withSnapshot...),
				ConfigVariables:  vars,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            resource.ComposeAggregateTestCheckFunc(idIs("sbx_snapshot.hand", &snapID), existsOnPlatform(t, h, KindSnapshot, &snapID)),
			},
		},
	})
}

// refuseForeignSnapshot is the journey where a snapshot is one only by the
// provider's marks: the import of one taken by hand fails, saying what it
// is instead, and the object is still there after it (and after the
// destroy of what the configuration made, which it does not hold).
func refuseForeignSnapshot(t *testing.T, h harness, r run, first resource.TestStep, take func(),
	withSnapshot []string, vars config.Variables, snapID *string) {
	t.Cleanup(func() {
		if *snapID != "" && h.OutOfBand.Exists(t, KindSnapshot, *snapID) {
			h.OutOfBand.Delete(t, KindSnapshot, *snapID)
		}
	})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		CheckDestroy:             existsOnPlatform(t, h, KindSnapshot, snapID),
		Steps: []resource.TestStep{
			first,
			{
				PreConfig:       take,
				Config:          r.config(withSnapshot...),
				ConfigVariables: vars,
				ExpectError:     acctest.ErrorPattern(`(?s)Cannot import snapshot .*: it is `),
			},
			{
				Config: first.Config,
				Check:  existsOnPlatform(t, h, KindSnapshot, snapID),
			},
		},
	})
}
