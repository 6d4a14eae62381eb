package e2bacc_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// e2bPausedSnapshotConfig is a box in the given state and, with snapshot,
// a snapshot of it, on the E2B fake.
func e2bPausedSnapshotConfig(providerConfig, state string, snapshot bool) string {
	cfg := providerConfig + fmt.Sprintf(`
resource "sbx_template" "t" {
  name       = "snappaused"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}

resource "sbx_sandbox" "b" {
  name        = "snappaused-box"
  template_id = sbx_template.t.id
  timeout     = "10m"
  state       = %q
}
`, state)
	if snapshot {
		cfg += `
resource "sbx_snapshot" "s" {
  sandbox_id = sbx_sandbox.b.id
  name       = "snappaused-ckpt"
}
`
	}
	return cfg
}

// e2bPausedBox checks the fake's one box is paused, with its memory kept
// or not, and (with snapshots > 0) that it was snapshotted.
func e2bPausedBox(fake *e2bfake.Server, memory bool, snapshots int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources["sbx_sandbox.b"]
		if !ok {
			return fmt.Errorf("sbx_sandbox.b not in state")
		}
		v, ok := fake.Sandbox(rs.Primary.ID)
		if !ok {
			return fmt.Errorf("the fake holds no sandbox %s", rs.Primary.ID)
		}
		if v.State != "paused" || v.PausedWithMemory != memory {
			return fmt.Errorf("box %s: state %s, memory kept %t; want paused, memory kept %t", v.ID, v.State, v.PausedWithMemory, memory)
		}
		if got := len(fake.Snapshots()); got != snapshots {
			return fmt.Errorf("the fake holds %d snapshots, want %d", got, snapshots)
		}
		if snapshots > 0 && fake.Snapshots()[0].SandboxID != v.ID {
			return fmt.Errorf("the snapshot is of %s, want %s", fake.Snapshots()[0].SandboxID, v.ID)
		}
		return nil
	}
}

// E2B snapshots only running boxes (it answers "not found" for a paused
// one): a snapshot of a box whose state is "paused" or "stopped" resumes
// it, takes the snapshot and pauses it again, so the box is the same box,
// paused as before, and the plan is empty. E2B does not tell a stopped box
// from a paused one: a box stopped in the same apply is stopped again
// without its memory; one stopped before is paused again with the memory
// of its fresh boot, and still reads as stopped.
func TestAccSnapshotE2BOfPausedSandbox(t *testing.T) {
	acctest.RequireTerraform(t)
	for _, tc := range []struct {
		name          string
		before, state string
		memory        bool
	}{
		{name: "paused", before: "paused", state: "paused", memory: true},
		{name: "stopped in the same apply", before: "running", state: "stopped", memory: false},
		{name: "stopped before", before: "stopped", state: "stopped", memory: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake, providerConfig := e2bAccFake(t, e2bfake.Options{})
			empty := []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}
			boxAction := plancheck.ResourceActionNoop
			if tc.before != tc.state {
				boxAction = plancheck.ResourceActionUpdate
			}
			var id string
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: accFactories,
				Steps: []resource.TestStep{
					{
						Config:           e2bPausedSnapshotConfig(providerConfig, tc.before, false),
						ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: empty},
						Check:            resource.TestCheckResourceAttrWith("sbx_sandbox.b", "id", func(v string) error { id = v; return nil }),
					},
					{
						Config: e2bPausedSnapshotConfig(providerConfig, tc.state, true),
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply: []plancheck.PlanCheck{
								plancheck.ExpectResourceAction("sbx_sandbox.b", boxAction),
								plancheck.ExpectResourceAction("sbx_snapshot.s", plancheck.ResourceActionCreate),
							},
							PostApplyPostRefresh: empty,
						},
						Check: resource.ComposeAggregateTestCheckFunc(
							e2bPausedBox(fake, tc.memory, 1),
							resource.TestCheckResourceAttrPtr("sbx_sandbox.b", "id", &id),
							resource.TestCheckResourceAttr("sbx_sandbox.b", "state", tc.state),
							resource.TestCheckResourceAttr("sbx_sandbox.b", "status", tc.state),
						),
					},
				},
			})
		})
	}
}
