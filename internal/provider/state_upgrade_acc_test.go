package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// TestAccStateUpgrade_v0: a box, its snapshot and its template saved at
// schema version 0, with the attributes the first release wrote
// (TestStateUpgradeFromV0 holds the fixture to that shape), plan no change
// through the terraform CLI with this release: nothing is replaced or
// updated. The next refresh saves them at version 1 without the dropped
// attributes.
func TestAccStateUpgrade_v0(t *testing.T) {
	acctest.RequireDocker(t)
	t.Parallel()
	s, statePath := stateUpgradeAtV0(t, "tf-acc-upgrade", "", nil)

	s.MustRun("plan", "-detailed-exitcode", "-input=false", "-no-color")
	s.MustRun("apply", "-refresh-only", "-auto-approve", "-input=false", "-no-color")
	stateUpgradeRewrite(t, statePath, func(typ string, in, attrs map[string]any) {
		if v, _ := in["schema_version"].(float64); v != 1 {
			t.Errorf("%s saved at schema version %v after the refresh, want 1", typ, in["schema_version"])
		}
		for _, name := range stateUpgradeDropped[typ] {
			if _, ok := attrs[name]; ok {
				t.Errorf("%s still holds %s after the refresh", typ, name)
			}
		}
	})
	s.MustRun("plan", "-detailed-exitcode", "-input=false", "-no-color")
}

// stateUpgradeAtV0 applies a box (with env, when env is not empty), its
// snapshot and its template, then rewrites the state as the first release
// saved it: schema version 0 with the attributes it wrote (the fixture's)
// and, when sensitive is not nil, the sensitive_attributes it recorded
// for each type. It returns the working directory and its state file.
func stateUpgradeAtV0(t *testing.T, prefix, env string, sensitive map[string]json.RawMessage) (*acctest.OtherState, string) {
	t.Helper()
	name := sdkacctest.RandomWithPrefix(prefix)
	s := acctest.NewOtherState(t, New("test"))
	s.WriteFile("main.tf", sandboxAccConfig(t, name, "running", env)+`
resource "sbx_snapshot" "s" {
  sandbox_id = sbx_sandbox.test.id
}
`)
	s.MustRun("apply", "-auto-approve", "-input=false", "-no-color")

	statePath := filepath.Join(s.Dir(), "terraform.tfstate")
	release := map[string]map[string]json.RawMessage{}
	for _, in := range readStateV0Fixture(t) {
		release[in.typ] = in.attrs
	}
	stateUpgradeRewrite(t, statePath, func(typ string, in, attrs map[string]any) {
		for _, name := range stateUpgradeDropped[typ] {
			var v any
			if err := json.Unmarshal(release[typ][name], &v); err != nil {
				t.Fatalf("the fixture's %s.%s: %v", typ, name, err)
			}
			attrs[name] = v
		}
		if sensitive != nil {
			var paths any
			if err := json.Unmarshal(sensitive[typ], &paths); err != nil {
				t.Fatalf("the fixture's %s sensitive_attributes: %v", typ, err)
			}
			in["sensitive_attributes"] = paths
		}
		in["schema_version"] = 0
	})
	return s, statePath
}

// stateUpgradeDropped are the attributes schema version 1 dropped.
var stateUpgradeDropped = map[string][]string{
	"sbx_sandbox":  {"platform_status", "retention_status"},
	"sbx_snapshot": {"retention_status"},
	"sbx_template": {"retention_status"},
}

// stateUpgradeRewrite calls edit on every instance of the resource types
// version 1 changed (the instance and its attributes), in the local state
// file at path, and writes the file back.
func stateUpgradeRewrite(t *testing.T, path string, edit func(typ string, instance, attrs map[string]any)) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var state map[string]any
	if err := json.Unmarshal(raw, &state); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	resources, _ := state["resources"].([]any)
	for _, r := range resources {
		res, _ := r.(map[string]any)
		typ, _ := res["type"].(string)
		if _, ok := stateUpgradeDropped[typ]; !ok {
			continue
		}
		instances, _ := res["instances"].([]any)
		for _, i := range instances {
			in, _ := i.(map[string]any)
			attrs, ok := in["attributes"].(map[string]any)
			if !ok {
				t.Fatalf("a %s instance without attributes in the state: %v", typ, in)
			}
			edit(typ, in, attrs)
			seen[typ] = true
		}
	}
	if len(seen) != len(stateUpgradeDropped) {
		t.Fatalf("the state holds %v of %v", seen, stateUpgradeDropped)
	}
	out, err := json.MarshalIndent(state, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(fmt.Errorf("writing the state back: %w", err))
	}
}
