package platformtest

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// testLookups: the data sources find what the resources made — snapshots by
// name, by labels with most_recent, all of them newest first; an ambiguous
// or empty lookup is an error that says so; volumes and templates by name.
func testLookups(t *testing.T, h Harness) {
	r := newRun(h)
	base := []string{r.template(), r.volume("v")}
	source := ""
	switch {
	case h.Capabilities.VolumeSnapshot:
		source = "sbx_volume.v"
	case h.Capabilities.SandboxSnapshot:
		source = "sbx_sandbox.s"
		base = append(base, r.sandbox("s"))
	default:
		t.Log("the platform has no snapshots (SandboxSnapshot, VolumeSnapshot); only volume and template lookups apply")
	}
	sourceAttr := "volume_id"
	if source == "sbx_sandbox.s" {
		sourceAttr = "sandbox_id"
	}
	if source != "" {
		// Made one after another so their created_at are ordered a < b < c.
		base = append(base,
			r.snapshotOf("a", source, fmt.Sprintf(`  labels = { suite = %q, role = "x" }`, r.name)),
			r.snapshotOf("b", source, fmt.Sprintf(`  labels = { suite = %q, role = "x" }`, r.name), "  depends_on = [sbx_snapshot.a]"),
			r.snapshotOf("c", source, fmt.Sprintf(`  labels = { suite = %q, role = "y" }`, r.name), "  depends_on = [sbx_snapshot.b]"),
		)
	}

	lookups := `
data "sbx_volume" "v" { name = sbx_volume.v.name }
data "sbx_template" "t" { name = sbx_template.t.name }
`
	checks := []resource.TestCheckFunc{
		resource.TestCheckResourceAttrPair("data.sbx_volume.v", "id", "sbx_volume.v", "id"),
		resource.TestCheckResourceAttrPair("data.sbx_volume.v", "created_at", "sbx_volume.v", "created_at"),
		resource.TestCheckResourceAttr("data.sbx_volume.v", "managed", "true"),
		resource.TestCheckResourceAttr("data.sbx_volume.v", "labels.suite", r.name),
		resource.TestCheckResourceAttrPair("data.sbx_template.t", "id", "sbx_template.t", "id"),
		resource.TestCheckResourceAttrPair("data.sbx_template.t", "build_id", "sbx_template.t", "build_id"),
		resource.TestCheckResourceAttrPair("data.sbx_template.t", "status", "sbx_template.t", "status"),
	}
	steps := []resource.TestStep{{
		Config:           r.config(base...),
		ConfigPlanChecks: emptyPlanAfterApply(),
	}}

	if source != "" {
		lookups += fmt.Sprintf(`
data "sbx_snapshot" "by_name" { name = sbx_snapshot.a.name }
data "sbx_snapshot" "recent" {
  labels      = { suite = %[1]q, role = "x" }
  most_recent = true
  depends_on  = [sbx_snapshot.c]
}
data "sbx_snapshots" "all" {
  labels     = { suite = %[1]q }
  depends_on = [sbx_snapshot.c]
}
data "sbx_snapshots" "by_source" {
  %[2]s = %[3]s.id
  name_regex = "^%[1]s-[ab]$"
  depends_on = [sbx_snapshot.c]
}
`, r.name, sourceAttr, source)
		checks = append(checks,
			resource.TestCheckResourceAttrPair("data.sbx_snapshot.by_name", "id", "sbx_snapshot.a", "id"),
			resource.TestCheckResourceAttrPair("data.sbx_snapshot.by_name", "kind", "sbx_snapshot.a", "kind"),
			resource.TestCheckResourceAttrPair("data.sbx_snapshot.by_name", sourceAttr, source, "id"),
			resource.TestCheckResourceAttr("data.sbx_snapshot.by_name", "labels.role", "x"),
			resource.TestCheckResourceAttrSet("data.sbx_snapshot.by_name", "created_at"),
			resource.TestCheckResourceAttrPair("data.sbx_snapshot.recent", "id", "sbx_snapshot.b", "id"),
			resource.TestCheckResourceAttr("data.sbx_snapshots.all", "ids.#", "3"),
			resource.TestCheckResourceAttrPair("data.sbx_snapshots.all", "ids.0", "sbx_snapshot.c", "id"),
			resource.TestCheckResourceAttrPair("data.sbx_snapshots.all", "ids.1", "sbx_snapshot.b", "id"),
			resource.TestCheckResourceAttrPair("data.sbx_snapshots.all", "ids.2", "sbx_snapshot.a", "id"),
			resource.TestCheckResourceAttrPair("data.sbx_snapshots.all", "snapshots.0.name", "sbx_snapshot.c", "name"),
			resource.TestCheckResourceAttr("data.sbx_snapshots.by_source", "ids.#", "2"),
			resource.TestCheckResourceAttrPair("data.sbx_snapshots.by_source", "ids.0", "sbx_snapshot.b", "id"),
		)
	}
	found := resource.TestStep{
		Config:           r.config(append(base, lookups)...),
		ConfigPlanChecks: emptyPlanAfterApply(),
		Check:            resource.ComposeAggregateTestCheckFunc(checks...),
	}
	steps = append(steps, found)

	if source != "" {
		ambiguous := fmt.Sprintf(`
data "sbx_snapshot" "ambiguous" { labels = { suite = %q, role = "x" } }
`, r.name)
		none := fmt.Sprintf(`
data "sbx_snapshot" "none" { name = "%s-no-such-snapshot" }
`, r.name)
		steps = append(steps,
			resource.TestStep{
				Config:      r.config(append(base, ambiguous)...),
				ExpectError: regexp.MustCompile(`(?s)2 snapshots matched.*most_recent = true`),
			},
			resource.TestStep{
				Config:      r.config(append(base, none)...),
				ExpectError: regexp.MustCompile(`(?s)no snapshot matched.*no-such-snapshot`),
			},
		)
	}
	// End on a valid configuration: the final destroy plans with it.
	steps = append(steps, resource.TestStep{
		Config:           r.config(base...),
		ConfigPlanChecks: emptyPlanAfterApply(),
	})

	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { h.PreCheck(t) },
		ProtoV6ProviderFactories: h.ProviderFactories,
		Steps:                    steps,
	})
}
