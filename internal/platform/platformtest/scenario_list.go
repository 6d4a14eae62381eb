package platformtest

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// testList: the list resources find the objects of the identity
// configuration through `terraform query`: the box by its labels and
// state (and, asked for with include_resource, as an import would store
// it), the template by name prefix where the platform lists templates
// (elsewhere asking is an error saying so), the volume by name, the
// snapshot by name where snapshots have one (the most recent, where the
// platform says when each was made), else by its source, showing as its
// id; each result with its identity and display name. A filter nothing
// matches finds nothing. A volume made by hand is listed as well; where
// volumes carry labels, made_by_provider and owner tell it apart, and
// elsewhere they are an error.
func testList(t *testing.T, in *Instance, f Factories) {
	acctest.SkipOnOpenTofu(t, "OpenTofu has no list resources (list blocks, a query command): Terraform ≥ 1.14 only")
	needsTemplate(t, in)
	needs(t, in.Capabilities.Accepts(platform.AttrSnapshotSandboxID) || in.Capabilities.Accepts(platform.AttrSnapshotVolumeID),
		"snapshots (SnapshotSandboxID or SnapshotVolumeID)")
	caps := in.Capabilities
	r := newRun(newHarness(in, f))
	ids := map[string]string{}
	source := identitySnapshotSource(caps)
	sourceID := new(string)
	byID := func(addr string) queryfilter.QueryFilter {
		return queryfilter.ByResourceIdentity(identityOf(in, ids, addr))
	}
	teamA := map[string]string{"suite": r.name, "team": "a"}

	var q strings.Builder
	fmt.Fprintf(&q, `
variable "source_id" {
  type = string
}

list "sbx_sandbox" "team_a" {
  provider         = sbx
  include_resource = true
  config {
    labels = %s
    status = "running"
  }
}

list "sbx_sandbox" "team_b" {
  provider = sbx
  config {
    labels = { suite = %q, team = "b" }
  }
}

list "sbx_volume" "v" {
  provider = sbx
  config {
    name = %q
  }
}
`, hclMap(teamA), r.name, r.volumeName("v"))
	checks := []querycheck.QueryResultCheck{
		querycheck.ExpectLength("sbx_sandbox.team_a", 1),
		querycheck.ExpectIdentity("sbx_sandbox.team_a", identityOf(in, ids, "sbx_sandbox.s")),
		querycheck.ExpectResourceDisplayName("sbx_sandbox.team_a", byID("sbx_sandbox.s"), knownvalue.StringExact(r.name+"-s")),
		querycheck.ExpectResourceKnownValues("sbx_sandbox.team_a", byID("sbx_sandbox.s"), []querycheck.KnownValueCheck{
			{Path: tfjsonpath.New("id"), KnownValue: idOf(ids, "sbx_sandbox.s")},
			{Path: tfjsonpath.New("template_id"), KnownValue: idOf(ids, "sbx_template.t")},
			{Path: tfjsonpath.New("state"), KnownValue: knownvalue.StringExact("running")},
			{Path: tfjsonpath.New("labels"), KnownValue: knownvalue.MapExact(map[string]knownvalue.Check{
				"suite": knownvalue.StringExact(r.name), "team": knownvalue.StringExact("a")})},
			{Path: tfjsonpath.New("platform"), KnownValue: knownvalue.StringExact(in.Name)},
		}),
		querycheck.ExpectLength("sbx_sandbox.team_b", 0),
		querycheck.ExpectLength("sbx_volume.v", 1),
		querycheck.ExpectIdentity("sbx_volume.v", identityOf(in, ids, "sbx_volume.v")),
		querycheck.ExpectResourceDisplayName("sbx_volume.v", byID("sbx_volume.v"), knownvalue.StringExact(r.volumeName("v"))),
	}
	// A state the box is not in finds nothing, where the platform has one.
	for _, other := range []platform.SandboxState{platform.StatePaused, platform.StateStopped} {
		if caps.AcceptsValue(platform.AttrSandboxState, string(other)) {
			fmt.Fprintf(&q, `
list "sbx_sandbox" "not_running" {
  provider = sbx
  config {
    labels = { suite = %q }
    status = %q
  }
}
`, r.name, other)
			checks = append(checks, querycheck.ExpectLength("sbx_sandbox.not_running", 0))
			break
		}
	}
	if caps.TemplatesListed {
		fmt.Fprintf(&q, `
list "sbx_template" "t" {
  provider = sbx
  config {
    name_prefix = %q
  }
}
`, r.name+"-t")
		checks = append(checks,
			querycheck.ExpectLength("sbx_template.t", 1),
			querycheck.ExpectIdentity("sbx_template.t", identityOf(in, ids, "sbx_template.t")),
			querycheck.ExpectResourceDisplayName("sbx_template.t", byID("sbx_template.t"), knownvalue.StringExact(r.name+"-tpl")))
	}
	// A volume made by hand is listed too (a bulk import is for those);
	// where volumes carry labels, the provenance filters tell it from the
	// provider's, and elsewhere setting one is an error saying why.
	hand := r.volumeName("hand")
	handID := in.OutOfBand.Make(t, Foreign{Kind: KindVolume, Name: hand})
	t.Cleanup(func() {
		if in.OutOfBand.Exists(t, KindVolume, handID) {
			in.OutOfBand.Delete(t, KindVolume, handID)
		}
	})
	fmt.Fprintf(&q, "\nlist \"sbx_volume\" \"hand\" {\n  provider = sbx\n  config {\n    name = %q\n  }\n}\n", hand)
	checks = append(checks, querycheck.ExpectLength("sbx_volume.hand", 1),
		querycheck.ExpectResourceDisplayName("sbx_volume.hand", queryfilter.ByResourceIdentity(map[string]knownvalue.Check{
			"id": knownvalue.StringExact(handID), "platform": knownvalue.StringExact(in.Name)}), knownvalue.StringExact(hand)))
	provenanceFilters := caps.Accepts(platform.AttrVolumeLabels)
	if provenanceFilters {
		for _, l := range []struct {
			label, name, filter string
			want                int
		}{
			{"hand_by_provider", hand, "made_by_provider = true", 0},
			{"hand_by_others", hand, "made_by_provider = false", 1},
			{"v_by_others", r.volumeName("v"), "made_by_provider = false", 0},
			{"v_owner", r.volumeName("v"), fmt.Sprintf("owner = %q", in.Owner), 1},
			{"v_other_owner", r.volumeName("v"), `owner = "another-team"`, 0},
		} {
			fmt.Fprintf(&q, "\nlist \"sbx_volume\" %q {\n  provider = sbx\n  config {\n    name = %q\n    %s\n  }\n}\n", l.label, l.name, l.filter)
			checks = append(checks, querycheck.ExpectLength("sbx_volume."+l.label, l.want))
		}
	}
	snapDisplay := idOf(ids, "sbx_snapshot.snap")
	if caps.SnapshotNames {
		mostRecent := ""
		if caps.SnapshotCreatedAt {
			mostRecent = "    most_recent = true\n"
		}
		fmt.Fprintf(&q, "\nlist \"sbx_snapshot\" \"snap\" {\n  provider = sbx\n  config {\n    name = %q\n%s  }\n}\n",
			r.name+"-snap", mostRecent)
		snapDisplay = knownvalue.StringExact(r.name + "-snap")
	} else {
		attr := "volume_id"
		if source == "sbx_sandbox.s" {
			attr = "sandbox_id"
		}
		fmt.Fprintf(&q, "\nlist \"sbx_snapshot\" \"snap\" {\n  provider = sbx\n  config {\n    %s = var.source_id\n  }\n}\n", attr)
	}
	checks = append(checks,
		querycheck.ExpectLength("sbx_snapshot.snap", 1),
		querycheck.ExpectIdentity("sbx_snapshot.snap", identityOf(in, ids, "sbx_snapshot.snap")),
		querycheck.ExpectResourceDisplayName("sbx_snapshot.snap", byID("sbx_snapshot.snap"), snapDisplay))

	steps := []resource.TestStep{
		{
			Config: identityConfig(r, identityChange{}, false),
			Check: resource.ComposeAggregateTestCheckFunc(
				recordIDs(ids, identityAddrs...),
				captureID(source, sourceID),
			),
		},
		{
			Query:             true,
			ConfigVariables:   config.Variables{"source_id": acctest.LazyString{V: sourceID}},
			Config:            q.String(),
			QueryResultChecks: checks,
		},
	}
	if !caps.TemplatesListed {
		// A template is a record in state only here: nothing to list.
		steps = append(steps, resource.TestStep{
			Query:       true,
			Config:      "list \"sbx_template\" \"any\" {\n  provider = sbx\n  config {}\n}\n",
			ExpectError: regexp.MustCompile(`Templates are not listed on ` + regexp.QuoteMeta(in.Name)),
		})
	}
	if !provenanceFilters {
		steps = append(steps, resource.TestStep{
			Query:       true,
			Config:      "list \"sbx_volume\" \"any\" {\n  provider = sbx\n  config {\n    made_by_provider = true\n  }\n}\n",
			ExpectError: regexp.MustCompile(`made_by_provider cannot be told on ` + regexp.QuoteMeta(in.Name)),
		})
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: f,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		CheckDestroy:             holdsNothing(t, in, r, ids, &handID), // made by hand: no state holds it
		Steps:                    steps,
	})
}
