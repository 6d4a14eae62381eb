package platformtest

import (
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// testImport: every resource imports by id (terraform import) into exactly
// the state Terraform made for it, and the sandbox also through an
// `import {}` block, whose plan must be a pure import with nothing to change.
func testImport(t *testing.T, h harness) {
	r := newRun(h)
	blocks := []string{r.template(), r.volume("v"), r.sandbox("s",
		"  volume_mount {\n    volume_id = sbx_volume.v.id\n    path = \"/data\"\n  }")}
	addrs := []string{"sbx_template.t", "sbx_volume.v", "sbx_sandbox.s"}
	switch {
	case h.Capabilities.Accepts(platform.AttrSnapshotSandboxID):
		blocks = append(blocks, r.snapshotOf("snap", "sbx_sandbox.s", r.snapshotLabels(`kept = "yes"`)))
		addrs = append(addrs, "sbx_snapshot.snap")
	case h.Capabilities.Accepts(platform.AttrSnapshotVolumeID):
		blocks = append(blocks, r.snapshotOf("snap", "sbx_volume.v", r.snapshotLabels(`kept = "yes"`)))
		addrs = append(addrs, "sbx_snapshot.snap")
	default:
		t.Log("the platform has no snapshots; sbx_snapshot import does not apply")
	}
	cfg := r.config(blocks...)

	steps := []resource.TestStep{
		{Config: cfg, ConfigPlanChecks: emptyPlanAfterApply()},
		// Mounting the volume changed its computed attached_to after the
		// volume was saved; refresh so the state compared with is current.
		{RefreshState: true},
	}
	for _, addr := range addrs {
		typ, _, _ := strings.Cut(addr, ".")
		steps = append(steps, resource.TestStep{
			Config:                  cfg,
			ResourceName:            addr,
			ImportState:             true,
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: append([]string{"timeouts"}, slices.Clone(h.ImportStateVerifyIgnore[typ])...),
		})
	}
	steps = append(steps, resource.TestStep{
		Config:                  cfg,
		ResourceName:            "sbx_sandbox.s",
		ImportState:             true,
		ImportStateKind:         resource.ImportBlockWithID,
		ImportStateVerifyIgnore: append([]string{"timeouts"}, slices.Clone(h.ImportStateVerifyIgnore["sbx_sandbox"])...),
	})

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		Steps:                    steps,
	})
}

// testImportHeldElsewhere: a box another state made, imported into a
// second state, imports with a warning that another state may hold it,
// where the platform keeps the create's marks on boxes (MadeWith).
func testImportHeldElsewhere(t *testing.T, h harness) {
	r := newRun(h)
	first := acctest.NewOtherStateServing(t, h.ProviderFactories["sbx"])
	first.Apply(r.config(r.template(), r.sandbox("s")))
	id := first.Attr("sbx_sandbox.s", "id")

	second := acctest.NewOtherStateServing(t, h.ProviderFactories["sbx"])
	second.WriteFile("main.tf", r.config(r.template(), r.sandbox("s")))
	second.MustRun("init", "-input=false", "-no-color")
	out := second.MustRun("import", "-input=false", "-no-color", "sbx_sandbox.s", id)
	// The second state lets go, so that only the first one's destroy
	// deletes the box.
	second.MustRun("state", "rm", "sbx_sandbox.s")
	want := "Warning: Imported sandbox " + id + " may be held by another state"
	if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
		t.Fatalf("the import of a box another state made does not warn %q:\n%s", want, out)
	}
}
