package platformtest

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// testLookups: the data sources find what the resources made — snapshots by
// name, by labels (or, where snapshots carry no labels, by name_regex) with
// most_recent, all of them newest first; an ambiguous or empty lookup is an
// error that says so; volumes and templates by name. Where snapshots have
// no name nor labels (SnapshotNames, SnapshotLabels) they are selected by
// their source instead, and where templates are not held by the platform
// (TemplatesListed) the template lookup does not apply.
func testLookups(t *testing.T, h harness) {
	r := newRun(h)
	base := []string{r.template(), r.volume("v")}
	source, snapshots := "", 0
	switch {
	case h.Capabilities.Accepts(platform.AttrSnapshotVolumeID):
		source = "sbx_volume.v"
	case h.Capabilities.Accepts(platform.AttrSnapshotSandboxID):
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
			r.snapshotOf("a", source, r.snapshotLabels(fmt.Sprintf(`suite = %q, role = "x"`, r.name))),
			r.snapshotOf("b", source, r.snapshotLabels(fmt.Sprintf(`suite = %q, role = "x"`, r.name)), "  depends_on = [sbx_snapshot.a]"),
			r.snapshotOf("c", source, r.snapshotLabels(fmt.Sprintf(`suite = %q, role = "y"`, r.name)), "  depends_on = [sbx_snapshot.b]"),
		)
		snapshots = 3
	}
	// The selectors of the snapshot lookups: "x" picks a and b, "all" picks
	// all three. By labels where snapshots carry them; by name elsewhere (the
	// names "<run>-a", "-b", "-c" play the roles the labels play); by source
	// where snapshots have neither (then "x" is all three too, and the
	// newest of them is c).
	selectX := fmt.Sprintf(`labels = { suite = %q, role = "x" }`, r.name)
	selectAll := fmt.Sprintf(`labels = { suite = %q }`, r.name)
	xCount, xNewest, byName := 2, "b", h.Capabilities.SnapshotNames
	if !byName {
		t.Log("the platform's snapshots have no name (capability SnapshotNames); the lookups by name and name_regex do not apply")
	}
	if source != "" && !h.Capabilities.Accepts(platform.AttrSnapshotLabels) {
		switch {
		case byName:
			t.Log("the platform's snapshots carry no labels (capability SnapshotLabels); snapshots are looked up by name_regex instead of labels")
			selectX = fmt.Sprintf(`name_regex = "^%s-[ab]$"`, r.name)
			selectAll = fmt.Sprintf(`name_regex = "^%s-[abc]$"`, r.name)
		case h.Capabilities.SnapshotListsBySource:
			t.Log("the platform's snapshots carry no labels nor names (capabilities SnapshotLabels, SnapshotNames); snapshots are looked up by " +
				sourceAttr + " instead")
			selectAll = fmt.Sprintf(`%s = %s.id`, sourceAttr, source)
			selectX, xCount, xNewest = selectAll, 3, "c"
		default:
			t.Log("the platform's snapshots carry no labels nor names and cannot be listed by source (capabilities SnapshotLabels, " +
				"SnapshotNames, SnapshotListsBySource); no snapshot lookup applies")
			source = ""
		}
	}

	lookups := `
data "sbx_volume" "v" { name = sbx_volume.v.name }
`
	checks := []resource.TestCheckFunc{
		resource.TestCheckResourceAttrPair("data.sbx_volume.v", "id", "sbx_volume.v", "id"),
		resource.TestCheckResourceAttrPair("data.sbx_volume.v", "created_at", "sbx_volume.v", "created_at"),
	}
	if h.Capabilities.TemplatesListed {
		lookups += `
data "sbx_template" "t" { name = sbx_template.t.name }
`
		checks = append(checks,
			resource.TestCheckResourceAttrPair("data.sbx_template.t", "id", "sbx_template.t", "id"),
			resource.TestCheckResourceAttrPair("data.sbx_template.t", "build_id", "sbx_template.t", "build_id"),
			resource.TestCheckResourceAttrPair("data.sbx_template.t", "status", "sbx_template.t", "status"),
		)
	} else {
		t.Log("the platform holds no templates to look up (capability TemplatesListed: a template is a record in state); " +
			"the sbx_template data source does not apply")
	}
	// Without labels nothing on a volume marks it as the provider's, and
	// every platform then counts its volumes as the provider's: managed is
	// true either way.
	checks = append(checks, resource.TestCheckResourceAttr("data.sbx_volume.v", "managed", "true"))
	if h.Capabilities.Accepts(platform.AttrVolumeLabels) {
		checks = append(checks, resource.TestCheckResourceAttr("data.sbx_volume.v", "labels.suite", r.name))
	} else {
		t.Log("the platform's volumes carry no labels (capability VolumeLabels); the volume lookup's labels are not checked")
	}
	var steps []resource.TestStep
	if snapshots > 0 && h.Capabilities.SnapshotCreatedAt {
		// a, b and c are made one step each, more than a second apart: a
		// platform may report created_at to the second (Fly: RFC 3339), and
		// snapshots made within one second would tie in the ordering.
		for made := 1; made < snapshots; made++ {
			step := resource.TestStep{
				Config:           r.config(base[:len(base)-snapshots+made]...),
				ConfigPlanChecks: emptyPlanAfterApply(),
			}
			if made > 1 {
				step.PreConfig = func() { time.Sleep(1100 * time.Millisecond) }
			}
			steps = append(steps, step)
		}
	}
	first := resource.TestStep{
		Config:           r.config(base...),
		ConfigPlanChecks: emptyPlanAfterApply(),
	}
	if len(steps) > 0 {
		first.PreConfig = func() { time.Sleep(1100 * time.Millisecond) }
	}
	steps = append(steps, first)
	var sourceRefused *resource.TestStep

	if source != "" {
		lookups += fmt.Sprintf(`
data "sbx_snapshots" "all" {
  %s
  depends_on = [sbx_snapshot.c]
}
`, selectAll)
		// One snapshot found by a single lookup: a by name, else (no names)
		// the newest of the source's, c, where creation times order them.
		one, oneRole := "", "x"
		switch {
		case byName:
			lookups += `
data "sbx_snapshot" "one" { name = sbx_snapshot.a.name }
`
			one = "sbx_snapshot.a"
		case h.Capabilities.SnapshotCreatedAt:
			lookups += fmt.Sprintf(`
data "sbx_snapshot" "one" {
  %s
  most_recent = true
  depends_on  = [sbx_snapshot.c]
}
`, selectAll)
			one, oneRole = "sbx_snapshot.c", "y"
		default:
			t.Log("the platform's snapshots have no name and no creation time (capabilities SnapshotNames, SnapshotCreatedAt); " +
				"no single-snapshot lookup applies")
		}
		bySource := fmt.Sprintf(`
data "sbx_snapshots" "by_source" {
  %[2]s = %[3]s.id
  name_regex = "^%[1]s-[ab]$"
  depends_on = [sbx_snapshot.c]
}
`, r.name, sourceAttr, source)
		listsBySource := h.Capabilities.SnapshotListsBySource
		if listsBySource && !byName {
			// by_source would be the same lookup as all.
			t.Log("the platform's snapshots have no name (capability SnapshotNames); the " + sourceAttr +
				" lookup is the all lookup, narrowed by no name_regex")
			listsBySource = false
		} else if listsBySource {
			lookups += bySource
			checks = append(checks, resource.TestCheckResourceAttr("data.sbx_snapshots.by_source", "ids.#", "2"))
		} else {
			// A platform that records no source refuses the filter rather
			// than answer "none".
			t.Log("the platform cannot list a source's snapshots (capability SnapshotListsBySource); the " + sourceAttr +
				" filter must be a clear error")
			sourceRefused = &resource.TestStep{
				Config:      r.config(append(base, bySource)...),
				ExpectError: regexp.MustCompile(`(?s)` + sourceAttr + `\s+is\s+not\s+supported\s+on\s+` + regexp.QuoteMeta(h.Name)),
			}
		}
		checks = append(checks, resource.TestCheckResourceAttr("data.sbx_snapshots.all", "ids.#", "3"))
		if one != "" {
			checks = append(checks,
				resource.TestCheckResourceAttrPair("data.sbx_snapshot.one", "id", one, "id"),
				resource.TestCheckResourceAttrPair("data.sbx_snapshot.one", "kind", one, "kind"),
				r.snapshotLabelIs("data.sbx_snapshot.one", "role", oneRole),
				reportedIsSet(h.Capabilities.SnapshotCreatedAt, "data.sbx_snapshot.one", "created_at"),
			)
		}
		if one != "" && h.Capabilities.SnapshotSourceReported {
			checks = append(checks, resource.TestCheckResourceAttrPair("data.sbx_snapshot.one", sourceAttr, source, "id"))
		} else if one != "" {
			t.Log("the platform does not report a snapshot's source (capability SnapshotSourceReported); the lookup's " + sourceAttr + " is not checked")
		}
		if h.Capabilities.SnapshotCreatedAt {
			// Ordered by creation time: most_recent and newest first.
			lookups += fmt.Sprintf(`
data "sbx_snapshot" "recent" {
  %s
  most_recent = true
  depends_on  = [sbx_snapshot.c]
}
`, selectX)
			checks = append(checks,
				resource.TestCheckResourceAttrPair("data.sbx_snapshot.recent", "id", "sbx_snapshot."+xNewest, "id"),
				resource.TestCheckResourceAttrPair("data.sbx_snapshots.all", "ids.0", "sbx_snapshot.c", "id"),
				resource.TestCheckResourceAttrPair("data.sbx_snapshots.all", "ids.1", "sbx_snapshot.b", "id"),
				resource.TestCheckResourceAttrPair("data.sbx_snapshots.all", "ids.2", "sbx_snapshot.a", "id"),
			)
			if byName {
				checks = append(checks, resource.TestCheckResourceAttrPair("data.sbx_snapshots.all", "snapshots.0.name", "sbx_snapshot.c", "name"))
			}
			if listsBySource {
				checks = append(checks, resource.TestCheckResourceAttrPair("data.sbx_snapshots.by_source", "ids.0", "sbx_snapshot.b", "id"))
			}
		} else {
			t.Log("the platform reports no snapshot creation times (capability SnapshotCreatedAt); most_recent and " +
				"newest-first order do not apply, so the lookups are checked as sets")
			for _, s := range []string{"a", "b", "c"} {
				checks = append(checks, resource.TestCheckTypeSetElemAttrPair("data.sbx_snapshots.all", "ids.*", "sbx_snapshot."+s, "id"))
			}
			for _, s := range []string{"a", "b"} {
				if listsBySource {
					checks = append(checks, resource.TestCheckTypeSetElemAttrPair("data.sbx_snapshots.by_source", "ids.*", "sbx_snapshot."+s, "id"))
				}
			}
		}
	}
	found := resource.TestStep{
		Config:           r.config(append(base, lookups)...),
		ConfigPlanChecks: emptyPlanAfterApply(),
		Check:            resource.ComposeAggregateTestCheckFunc(checks...),
	}
	steps = append(steps, found)
	if sourceRefused != nil {
		steps = append(steps, *sourceRefused)
	}

	if source != "" {
		ambiguous := fmt.Sprintf(`
data "sbx_snapshot" "ambiguous" { %s }
`, selectX)
		none := fmt.Sprintf(`
data "sbx_snapshot" "none" { name = "%s-no-such-snapshot" }
`, r.name)
		// Where creation times are reported most_recent is the way out;
		// elsewhere it is refused and only narrower filters help.
		ambiguousErr := regexp.MustCompile(fmt.Sprintf(`(?s)%d snapshots matched.*most_recent = true`, xCount))
		if !h.Capabilities.SnapshotCreatedAt {
			ambiguousErr = regexp.MustCompile(fmt.Sprintf(`(?s)%d snapshots matched.*most_recent cannot choose.*narrow the filters`, xCount))
			steps = append(steps, resource.TestStep{
				Config: r.config(append(base, fmt.Sprintf(`
data "sbx_snapshot" "recent" {
  %s
  most_recent = true
}
`, selectX))...),
				ExpectError: regexp.MustCompile(`(?s)most_recent is not supported on.*does not report when a\s+snapshot was made`),
			})
		}
		steps = append(steps, resource.TestStep{
			Config:      r.config(append(base, ambiguous)...),
			ExpectError: ambiguousErr,
		})
		if byName {
			steps = append(steps, resource.TestStep{
				Config:      r.config(append(base, none)...),
				ExpectError: regexp.MustCompile(`(?s)no snapshot matched.*no-such-snapshot`),
			})
		} else {
			t.Log("the platform's snapshots have no name (capability SnapshotNames); the empty lookup by name does not apply")
		}
	}
	// End on a valid configuration: the final destroy plans with it.
	steps = append(steps, resource.TestStep{
		Config:           r.config(base...),
		ConfigPlanChecks: emptyPlanAfterApply(),
	})

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		Steps:                    steps,
	})
}
