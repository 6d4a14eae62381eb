package flyacc_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
)

// flyExampleDir is examples/platforms/fly in this repository.
func flyExampleDir(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test file")
	}
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "examples", "platforms", "fly")
	if _, err := os.Stat(filepath.Join(dir, "main.tf")); err != nil {
		t.Fatalf("the Fly example: %v", err)
	}
	return dir
}

// flyExampleLive checks the fake holds the example's one machine, started
// with its one volume mounted, and that volume.
func flyExampleLive(fake *flyfake.Server) resource.TestCheckFunc {
	return func(*terraform.State) error {
		var machines []flyfake.MachineView
		for _, m := range fake.Machines() {
			if !m.Destroyed {
				machines = append(machines, m)
			}
		}
		if len(machines) != 1 || machines[0].State != flyfake.StateStarted || machines[0].VolumeID == "" {
			return fmt.Errorf("the fake holds machines %+v, want one started machine with a volume", machines)
		}
		return nil
	}
}

// examples/platforms/fly, unchanged, plans and applies against the fake:
// its main.tf is copied beside an override file (override.tf, Terraform's
// own mechanism) that points the provider at the fake and at the provider
// the test serves; then the next plan is empty, and destroy forgets the
// snapshot with a warning (Fly cannot delete one) and removes the rest.
func TestAccFlyExample(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, _ := flyAccFake(t, flyfake.Options{Apps: []string{"agents"}})
	dir := t.TempDir()
	mainTF, err := os.ReadFile(filepath.Join(flyExampleDir(t), "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), mainTF, 0o644); err != nil {
		t.Fatal(err)
	}
	override := fmt.Sprintf(`terraform {
  required_providers {
    sbx = { source = "hashicorp/sbx" }
  }
}

provider "sbx" {
  fly {
    api_token = %q
    app       = "agents"
    region    = "iad"
    api_url   = %q
  }
}
`, flyAccToken, fake.URL())
	if err := os.WriteFile(filepath.Join(dir, "override.tf"), []byte(override), 0o644); err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			for _, m := range fake.Machines() {
				if !m.Destroyed {
					return fmt.Errorf("machine %s left on the fake", m.ID)
				}
			}
			for _, v := range fake.Volumes() {
				if v.State == flyfake.VolumeCreated {
					return fmt.Errorf("volume %s left on the fake", v.ID)
				}
			}
			return nil
		},
		Steps: []resource.TestStep{{
			ProtoV6ProviderFactories: flyAccFactories,
			ConfigDirectory:          config.StaticDirectory(dir),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("sbx_template.agent", "status", "recorded"),
				resource.TestCheckResourceAttr("sbx_sandbox.box", "status", "running"),
				resource.TestCheckResourceAttr("sbx_volume.work", "snapshot_retention", "14"),
				resource.TestCheckResourceAttrSet("sbx_snapshot.checkpoint", "expires_at"),
				flyExampleLive(fake),
			),
		}},
	})
}
