package platformtest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// Scenario is one scenario the conformance runner runs on every kit, each
// on an instance of its own (its own fake and names, and what the instance
// holds is the scenario's alone), so that scenarios run in parallel.
type Scenario struct {
	// Name is the subtest's name.
	Name string
	// Pace is the pace the scenario asks of its instance.
	Pace Pace
	// Run runs the scenario on in, through the provider factories f.
	Run func(t *testing.T, in *Instance, f Factories)
}

// CLIScenarios are the scenarios of the newer CLI's features, once copied
// into each platform's *acc package: identity and list resources (Terraform
// >= 1.12 and 1.14), the two actions (1.14) and write-only env (1.11), each
// driven by the platform's attribute table and capabilities (a platform
// that lacks what one needs skips it saying which capability it lacks).
// The CLI matrix (scripts/acc-matrix.sh) runs them on every CLI; each
// gates itself by version.
func CLIScenarios() []Scenario {
	return []Scenario{
		{Name: "identity", Run: testIdentity},
		{Name: "list", Run: testList},
		{Name: "list_foreign", Run: testListForeign},
		{Name: "snapshot_action", Run: testSnapshotAction},
		{Name: "exec_action", Run: testExecAction},
		{Name: "env_wo", Run: testEnvWO},
	}
}

// needsTemplate skips a scenario that starts boxes on a platform that makes
// no template (the do-nothing platform).
func needsTemplate(t *testing.T, in *Instance) {
	t.Helper()
	needs(t, in.TemplateConfig != nil, "templates (the kit gives no TemplateConfig)")
}

// importIgnore is what an import of a resource of typ cannot read back on
// the instance's platform, timeouts included.
func importIgnore(in *Instance, typ string, more ...string) []string {
	return append(append([]string{"timeouts"}, slices.Clone(in.ImportStateVerifyIgnore[typ])...), more...)
}

// recordIDs records the id of every resource at addrs into ids.
func recordIDs(ids map[string]string, addrs ...string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		for _, addr := range addrs {
			rs, ok := s.RootModule().Resources[addr]
			if !ok || rs.Primary == nil || rs.Primary.ID == "" {
				return fmt.Errorf("%s is not in the state", addr)
			}
			ids[addr] = rs.Primary.ID
		}
		return nil
	}
}

// idOf checks a value is the id recorded for addr (by recordIDs).
func idOf(ids map[string]string, addr string) knownvalue.Check {
	return knownvalue.StringFunc(func(v string) error {
		if ids[addr] == "" || v != ids[addr] {
			return fmt.Errorf("%s: got id %q, want the id recorded at create, %q", addr, v, ids[addr])
		}
		return nil
	})
}

// identityOf is the identity of the object recorded for addr.
func identityOf(in *Instance, ids map[string]string, addr string) map[string]knownvalue.Check {
	return map[string]knownvalue.Check{"id": idOf(ids, addr), "platform": knownvalue.StringExact(in.Name)}
}

// holdsNothing is a CheckDestroy: the instance holds no sandbox, volume or
// snapshot, but the snapshots it cannot delete (Capabilities.SnapshotDelete
// false: they expire) and those named in kept (taken by an action, so in no
// state: not Terraform's to destroy); and no template of the run (by its
// name, or by an id in ids): a platform may hold images no resource made
// (Modal's registry base images, shared by content).
func holdsNothing(t *testing.T, in *Instance, r run, ids map[string]string, kept ...*string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		var left []string
		for _, o := range in.Objects(t) {
			if o.Kind == KindSnapshot && !in.Capabilities.SnapshotDelete {
				continue
			}
			if slices.ContainsFunc(kept, func(id *string) bool { return *id != "" && (*id == o.ID || *id == o.Name) }) {
				continue
			}
			if o.Kind == KindTemplate && !strings.HasPrefix(o.Name, r.name) && !slices.Contains(slices.Collect(maps.Values(ids)), o.ID) {
				continue
			}
			left = append(left, o.String())
		}
		if len(left) > 0 {
			return fmt.Errorf("%s still holds after destroy: %s", in.Name, strings.Join(left, "; "))
		}
		return nil
	}
}

// otherPlatform is a platform name that is not in's, for identities that
// name another platform.
func otherPlatform(in *Instance) string {
	if in.Name == "docker" {
		return "e2b"
	}
	return "docker"
}

// hclMap renders a map of strings as an HCL object, keys sorted.
func hclMap(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s = %q", k, m[k]))
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}
