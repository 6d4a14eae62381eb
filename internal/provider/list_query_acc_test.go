package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/docker/docker/api/types/volume"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	sbxacctest "github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// queryAccVolume makes a Docker volume outside Terraform, labelled as the
// provider labels the volumes it makes (managed, of kind volume, with an
// owner and a create token of its own) when managed is true, with the
// user's labels; the test removes it when it ends if nothing else did.
func queryAccVolume(t *testing.T, name string, managed bool, labels map[string]string) {
	t.Helper()
	cli := sbxacctest.DockerClient(t)
	all := map[string]string{}
	for k, v := range labels {
		all[k] = v
	}
	if managed {
		all[platform.LabelManaged] = "true"
		all[platform.LabelKind] = "volume"
		all[platform.LabelName] = name
		for k, v := range platform.NewMarks("another-team").Labels() {
			all[k] = v
		}
	}
	if _, err := cli.VolumeCreate(context.Background(), volume.CreateOptions{Name: name, Labels: all}); err != nil {
		t.Fatalf("creating volume %s: %v", name, err)
	}
	t.Cleanup(func() { _ = cli.VolumeRemove(context.Background(), name, true) })
}

// A team's 20 volumes, made by hand (`docker volume create` with a team
// label), come under Terraform in bulk: `terraform query` finds exactly
// them with a list "sbx_volume" block filtering on their label and on
// made_by_provider = false (neither a volume of another team nor one
// another state's create made), -generate-config-out writes a resource and
// an identity import block for each, the apply imports all 20, and the
// next plan is empty.
func TestAccListVolume_queryGenerateImport(t *testing.T) {
	sbxacctest.SkipOnOpenTofu(t, "OpenTofu has no list resources (list blocks, a query command): Terraform ≥ 1.14 only")
	sbxacctest.SkipBelowTerraform(t, 1, 14)
	sbxacctest.RequireDocker(t)
	prefix := acctest.RandomWithPrefix("tf-acc-query")
	const n = 20
	want := make([]string, 0, n)
	for i := range n {
		name := fmt.Sprintf("%s-%02d", prefix, i)
		want = append(want, name)
		queryAccVolume(t, name, false, map[string]string{"team": prefix, "purpose": "cache"})
	}
	queryAccVolume(t, prefix+"-other-team", false, map[string]string{"team": prefix + "-other"})
	queryAccVolume(t, prefix+"-made-by-sbx", true, map[string]string{"team": prefix})

	s := sbxacctest.NewOtherState(t, func() provider.Provider { return NewWithOptions("test", Options{})() })
	s.WriteFile("main.tf", "provider \"sbx\" {}\n")
	s.WriteFile("volumes.tfquery.hcl", fmt.Sprintf(`
list "sbx_volume" "team" {
  provider = sbx
  config {
    labels           = { team = %q }
    made_by_provider = false
  }
}
`, prefix))
	run := s.MustRun
	run("init", "-input=false", "-no-color")

	out := run("query", "-no-color", "-generate-config-out=generated.tf")
	listed := regexp.MustCompile(regexp.QuoteMeta(prefix)+`-[a-z0-9-]+`).FindAllString(out, -1)
	sort.Strings(listed)
	listed = slices.Compact(listed)
	if strings.Join(listed, ",") != strings.Join(want, ",") {
		t.Fatalf("terraform query listed %v, want %v\n%s", listed, want, out)
	}

	gen, err := os.ReadFile(filepath.Join(s.Dir(), "generated.tf"))
	if err != nil {
		t.Fatalf("reading the generated configuration: %v", err)
	}
	t.Logf("terraform query wrote:\n%s", gen)
	if got := strings.Count(string(gen), `resource "sbx_volume"`); got != n {
		t.Fatalf("generated.tf holds %d sbx_volume resources, want %d:\n%s", got, n, gen)
	}
	if got := len(regexp.MustCompile(`(?s)import \{.*?identity = \{`).FindAllString(string(gen), -1)); got != n {
		t.Fatalf("generated.tf holds %d import blocks by identity, want %d:\n%s", got, n, gen)
	}
	for _, name := range want {
		if !strings.Contains(string(gen), fmt.Sprintf("name = %q", name)) && !regexp.MustCompile(`name\s+= "`+regexp.QuoteMeta(name)+`"`).Match(gen) {
			t.Fatalf("generated.tf has no resource named %s:\n%s", name, gen)
		}
	}

	out = run("apply", "-auto-approve", "-input=false", "-no-color")
	if !strings.Contains(out, fmt.Sprintf("%d imported, 0 added, 0 changed, 0 destroyed", n)) {
		t.Fatalf("the apply did not import the %d volumes and nothing else:\n%s", n, out)
	}
	out, err = s.Run("plan", "-detailed-exitcode", "-input=false", "-no-color")
	if err != nil {
		t.Fatalf("the plan after the import is not empty (%v):\n%s", err, out)
	}
	var state []string
	for _, line := range strings.Split(run("state", "list"), "\n") {
		if strings.HasPrefix(line, "sbx_") {
			state = append(state, line)
		}
	}
	if len(state) != n {
		t.Fatalf("the state holds %d resources, want %d: %v", len(state), n, state)
	}
	var shown struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Type   string         `json:"type"`
					Values map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	shownJSON, err := s.Output("show", "-json", "-no-color")
	if err != nil {
		t.Fatalf("terraform show: %v", err)
	}
	if err := json.Unmarshal([]byte(shownJSON), &shown); err != nil {
		t.Fatalf("reading the state: %v", err)
	}
	ids := map[string]any{}
	for _, r := range shown.Values.RootModule.Resources {
		if r.Type == "sbx_volume" {
			ids[fmt.Sprint(r.Values["name"])] = r.Values["id"]
		}
	}
	for _, name := range want {
		if ids[name] != name {
			t.Fatalf("volume %s imported with id %v (state: %v)", name, ids[name], ids)
		}
	}
}
