package platformtest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// testListForeign: the journey a bulk import is for. A box made outside the
// provider (the platform's own command line or SDK, with a team's label) is
// listed by list "sbx_sandbox" next to the provider's own box;
// made_by_provider and owner tell the two apart. `terraform query
// -generate-config-out` writes a resource and an import block for it, the
// apply imports it and changes nothing else, and the next plan is empty.
// Where templates or snapshots carry no labels, made_by_provider on their
// lists is an error saying so.
func testListForeign(t *testing.T, in *Instance, f Factories) {
	acctest.SkipOnOpenTofu(t, "OpenTofu has no list resources (list blocks, a query command): Terraform ≥ 1.14 only")
	needsTemplate(t, in)
	needs(t, makesByHand(in, KindSandbox), "a box made by hand (the kit's OutOfBand.Make models no sandbox)")
	acctest.SkipBelowTerraform(t, 1, 14)
	r := newRun(newHarness(in, f))

	// The provider's own box, in the team's state.
	own := acctest.NewOtherStateServing(t, f["sbx"])
	own.Apply(r.config(r.template(), r.sandbox("s")))
	tplID, ownID := own.Attr("sbx_template.t", "id"), own.Attr("sbx_sandbox.s", "id")

	// A box made by hand from the same template, with the team's label.
	hand := r.name + "-hand"
	handID := in.OutOfBand.Make(t, Foreign{Kind: KindSandbox, Name: hand, SourceID: tplID,
		Labels: map[string]string{"suite": r.name, "by": "hand"}})
	t.Cleanup(func() {
		if in.OutOfBand.Exists(t, KindSandbox, handID) {
			in.OutOfBand.Delete(t, KindSandbox, handID)
		}
	})

	// The bulk import's own working directory.
	imp := acctest.NewOtherStateServing(t, f["sbx"])
	imp.WriteFile("main.tf", r.config())
	var q strings.Builder
	want := map[string][]string{}
	for _, l := range []struct {
		label, filter string
		ids           []string
	}{
		{"all", "", []string{handID, ownID}},
		{"by_provider", "made_by_provider = true", []string{ownID}},
		{"by_others", "made_by_provider = false", []string{handID}},
		{"owner", fmt.Sprintf("owner = %q", in.Owner), []string{ownID}},
		{"other_owner", `owner = "another-team"`, nil},
	} {
		fmt.Fprintf(&q, "list \"sbx_sandbox\" %q {\n  provider = sbx\n  config {\n    labels = { suite = %q }\n    %s\n  }\n}\n\n",
			l.label, r.name, l.filter)
		want["list.sbx_sandbox."+l.label] = l.ids
	}
	imp.WriteFile("boxes.tfquery.hcl", q.String())
	imp.MustRun("init", "-input=false", "-no-color")
	out := imp.MustRun("query", "-no-color")
	for addr, ids := range want {
		if got := queryListed(out, addr, []string{handID, ownID}); strings.Join(got, ",") != strings.Join(ids, ",") {
			t.Errorf("%s listed %v, want %v:\n%s", addr, got, ids, out)
		}
	}
	if t.Failed() {
		return
	}
	// Where a kind carries no labels, who made one cannot be told: asking
	// is an error naming the attribute and the platform.
	for _, k := range []struct{ typ, labels string }{
		{"sbx_template", platform.AttrTemplateLabels}, {"sbx_snapshot", platform.AttrSnapshotLabels},
	} {
		if in.Capabilities.Accepts(k.labels) {
			continue
		}
		imp.WriteFile("boxes.tfquery.hcl", fmt.Sprintf("list %q \"mine\" {\n  provider = sbx\n  config {\n    made_by_provider = true\n  }\n}\n", k.typ))
		out, err := imp.Run("query", "-no-color")
		if want := "made_by_provider cannot be told on " + in.Name; err == nil || !strings.Contains(out, want) {
			t.Errorf("list %q with made_by_provider: %v, want an error saying %q:\n%s", k.typ, err, want, out)
		}
	}

	// Take ownership of the box made by hand.
	imp.WriteFile("boxes.tfquery.hcl", fmt.Sprintf(
		"list \"sbx_sandbox\" \"team\" {\n  provider = sbx\n  config {\n    labels           = { suite = %q }\n    made_by_provider = false\n  }\n}\n", r.name))
	imp.MustRun("query", "-no-color", "-generate-config-out=generated.tf")
	gen, err := os.ReadFile(filepath.Join(imp.Dir(), "generated.tf"))
	if err != nil {
		t.Fatalf("reading the generated configuration: %v", err)
	}
	t.Logf("terraform query wrote:\n%s", gen)
	if got := strings.Count(string(gen), `resource "sbx_sandbox"`); got != 1 || !strings.Contains(string(gen), handID) {
		t.Fatalf("generated.tf holds %d sbx_sandbox resources, want the one made by hand (%s):\n%s", got, handID, gen)
	}
	out = imp.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
	if !importedOnly(out) {
		t.Fatalf("the apply did not import the box made by hand and do nothing else:\n%s", out)
	}
	if ids := imp.StateIDs("sbx_sandbox"); len(ids) != 1 || ids[0] != handID {
		t.Fatalf("the state holds sandboxes %v, want only %s", ids, handID)
	}
	if out, err := imp.Run("plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
		t.Fatalf("the plan after the import is not empty (%v):\n%s", err, out)
	}
	if !in.OutOfBand.Exists(t, KindSandbox, handID) {
		t.Fatalf("the box made by hand (%s) is gone after its import", handID)
	}
}

// importedOnly reports whether an apply's output says it imported one
// object and added, destroyed and changed nothing; the one change allowed
// is the import's record of what the platform does not report of an object
// made outside the provider (Modal: a box's memory snapshot setting),
// taken from the configuration in place with the warning saying so, which
// sends nothing to the platform.
func importedOnly(out string) bool {
	if strings.Contains(out, "1 imported, 0 added, 0 changed, 0 destroyed") {
		return true
	}
	return strings.Contains(out, "1 imported, 0 added, 1 changed, 0 destroyed") &&
		strings.Contains(out, "taken from the configuration")
}

// queryListed are those of ids that `terraform query` (human output)
// listed under the list block at addr, in the order of ids.
func queryListed(out, addr string, ids []string) []string {
	var got []string
	for _, id := range ids {
		if regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(addr) + `\s.*` + regexp.QuoteMeta(id)).MatchString(out) {
			got = append(got, id)
		}
	}
	return got
}
