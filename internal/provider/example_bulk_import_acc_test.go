package provider

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	sbxacctest "github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// TestAccExampleBulkImport runs examples/bulk-import as the guide does:
// make-volumes.sh makes a team's volumes by hand (docker volume create),
// terraform query lists exactly them (not a volume of the team that a
// create of the provider made), -generate-config-out writes their
// configuration, the apply imports the three and the next plan is empty.
func TestAccExampleBulkImport(t *testing.T) {
	sbxacctest.SkipOnOpenTofu(t, "OpenTofu has no list resources (list blocks, a query command): Terraform ≥ 1.14 only")
	sbxacctest.SkipBelowTerraform(t, 1, 14)
	api := sbxacctest.RequireDocker(t)
	if _, err := exec.LookPath("docker"); err != nil {
		t.Fatalf("the example's make-volumes.sh runs the docker command line: %v", err)
	}
	example := filepath.Join("..", "..", "examples", "bulk-import")
	team := acctest.RandomWithPrefix("tf-acc-bulk")
	want := []string{team + "-cache-1", team + "-cache-2", team + "-cache-3"}
	t.Cleanup(func() {
		for _, name := range want {
			_ = api.VolumeRemove(context.Background(), name, true)
		}
	})
	if out, err := exec.Command("sh", filepath.Join(example, "make-volumes.sh"), team).CombinedOutput(); err != nil {
		t.Fatalf("make-volumes.sh: %v\n%s", err, out)
	}
	queryAccVolume(t, team+"-made-by-sbx", true, map[string]string{"team": team})

	s := sbxacctest.NewOtherState(t, New("test"))
	for _, name := range []string{"main.tf", "volumes.tfquery.hcl"} {
		content, err := os.ReadFile(filepath.Join(example, name))
		if err != nil {
			t.Fatal(err)
		}
		s.WriteFile(name, string(content))
	}
	// The test serves the provider as hashicorp/sbx; Terraform's override
	// files change the example's source without editing it.
	s.WriteFile("override.tf", "terraform {\n  required_providers {\n    sbx = { source = \"hashicorp/sbx\" }\n  }\n}\n")
	run := s.MustRun
	run("init", "-input=false", "-no-color")
	teamVar := "-var=team=" + team
	out := run("query", "-no-color", teamVar)
	listed := slices.Compact(slices.Sorted(slices.Values(regexp.MustCompile(regexp.QuoteMeta(team)+`-[a-z0-9-]+`).FindAllString(out, -1))))
	if !slices.Equal(listed, want) {
		t.Fatalf("terraform query listed %v, want %v\n%s", listed, want, out)
	}
	run("query", "-no-color", teamVar, "-generate-config-out=imported.tf")
	out = run("apply", "-auto-approve", "-input=false", "-no-color", teamVar)
	if !strings.Contains(out, "3 imported, 0 added, 0 changed, 0 destroyed") {
		t.Fatalf("the apply did not import the three volumes and nothing else:\n%s", out)
	}
	if out, err := s.Run("plan", "-detailed-exitcode", "-input=false", "-no-color", teamVar); err != nil {
		t.Fatalf("the plan after the import is not empty (%v):\n%s", err, out)
	}
}
