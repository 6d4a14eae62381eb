package provider

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// stateV0SensitivePaths are the sensitive paths (sensitive_attributes) the
// first release recorded for each resource type in the fixture, each as
// its attribute names joined by "." (index steps left out), sorted. All
// instances of a type record the same ones.
func stateV0SensitivePaths(t *testing.T) (paths map[string][]string, raw map[string]json.RawMessage) {
	t.Helper()
	data, err := os.ReadFile(stateV0Fixture)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Resources []struct {
			Type      string
			Instances []struct {
				SensitiveAttributes json.RawMessage `json:"sensitive_attributes"`
			}
		}
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	paths, raw = map[string][]string{}, map[string]json.RawMessage{}
	for _, r := range file.Resources {
		for _, in := range r.Instances {
			var steps [][]struct{ Type, Value string }
			if err := json.Unmarshal(in.SensitiveAttributes, &steps); err != nil {
				t.Fatalf("the fixture's %s sensitive_attributes: %v", r.Type, err)
			}
			got := []string{}
			for _, p := range steps {
				var names []string
				for _, s := range p {
					if s.Type == "get_attr" {
						names = append(names, s.Value)
					}
				}
				got = append(got, strings.Join(names, "."))
			}
			slices.Sort(got)
			got = slices.Compact(got)
			if prev, ok := paths[r.Type]; ok && !slices.Equal(prev, got) {
				t.Fatalf("the fixture's %s instances record different sensitive paths: %v and %v", r.Type, prev, got)
			}
			paths[r.Type], raw[r.Type] = got, in.SensitiveAttributes
		}
	}
	return paths, raw
}

// schemaSensitivePaths are the attributes of block marked Sensitive, as
// stateV0SensitivePaths names them.
func schemaSensitivePaths(block *tfprotov6.SchemaBlock, prefix string) []string {
	out := []string{}
	for _, a := range block.Attributes {
		if a.Sensitive {
			out = append(out, prefix+a.Name)
		}
	}
	for _, b := range block.BlockTypes {
		out = append(out, schemaSensitivePaths(b.Block, prefix+b.TypeName+".")...)
	}
	slices.Sort(out)
	return out
}

// TestStateV0SensitivePaths: every attribute the current schemas mark
// Sensitive is one the first release's states record as sensitive, and
// the reverse. Terraform plans an update in place for any object whose
// recorded sensitive paths differ from the schema's (and a refresh keeps
// the recorded ones), so a mark dropped or added after a release makes
// every object of the type plan a change with no attribute changed:
// env_wo lost its mark at schema version 1 and every box of the release
// planned "update in-place".
func TestStateV0SensitivePaths(t *testing.T) {
	_, schemas := testProviderServer(t)
	recorded, _ := stateV0SensitivePaths(t)
	for _, typ := range []string{"sbx_sandbox", "sbx_snapshot", "sbx_template", "sbx_volume"} {
		want, ok := recorded[typ]
		if !ok {
			t.Errorf("the fixture holds no %s", typ)
			continue
		}
		got := schemaSensitivePaths(schemas.ResourceSchemas[typ].Block, "")
		if !slices.Equal(got, want) {
			t.Errorf("%s: the schema marks %v sensitive; the first release's states record %v", typ, got, want)
		}
	}
}

// TestAccStateUpgrade_v0Sensitive: objects saved by the first release,
// at schema version 0 with its attributes and its sensitive_attributes
// (env_wo and env on every box), plan no change through the terraform CLI
// with this release, neither before nor after `apply -refresh-only`; a
// state written by a build without env_wo's mark (schema version 1,
// sensitive_attributes without env_wo) plans none either.
// TestAccStateUpgrade_v0 writes the release's attributes but this
// release's sensitive paths, which is why it did not see the update
// planned for every box.
func TestAccStateUpgrade_v0Sensitive(t *testing.T) {
	acctest.RequireDocker(t)
	t.Parallel()
	_, sensitive := stateV0SensitivePaths(t)
	s, statePath := stateUpgradeAtV0(t, "tf-acc-upgrade-sens", `  env = { GREETING = "hello" }`, sensitive)

	planNoChange := func(when string) {
		t.Helper()
		out, err := s.Run("plan", "-detailed-exitcode", "-input=false", "-no-color")
		if err != nil {
			t.Fatalf("%s: plan -detailed-exitcode: %v\n%s", when, err, out)
		}
	}
	planNoChange("the first release's state")
	s.MustRun("apply", "-refresh-only", "-auto-approve", "-input=false", "-no-color")
	planNoChange("after apply -refresh-only")

	// A state without env_wo's mark, as the builds that had dropped it
	// wrote it: the schema's mark is added by the refresh, no change.
	stateUpgradeRewrite(t, statePath, func(typ string, in, _ map[string]any) {
		paths, _ := in["sensitive_attributes"].([]any)
		in["sensitive_attributes"] = slices.DeleteFunc(paths, func(p any) bool {
			b, _ := json.Marshal(p)
			return strings.Contains(string(b), `"env_wo"`)
		})
	})
	planNoChange("a state without env_wo's sensitive mark")
}
