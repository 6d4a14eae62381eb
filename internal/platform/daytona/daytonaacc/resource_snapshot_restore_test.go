package daytonaacc_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
)

// dtnWindowsTemplate is the name of the Windows-class snapshot the memory
// snapshot tests seed on the fake (Daytona's own Windows snapshots are
// seeded by Daytona, not built).
const dtnWindowsTemplate = "windows-11-acc"

// dtnSourceBox is the source box of the snapshot tests, of the template
// given as an HCL expression.
func dtnSourceBox(template string) string {
	return fmt.Sprintf(`
resource "sbx_sandbox" "b" {
  name        = "snap-source"
  template_id = %s
}
`, template)
}

// dtnSnapshotAndRestore is a snapshot of sbx_sandbox.b (memory is its
// include_memory line, "" to leave it out) and a new box restored from it.
func dtnSnapshotAndRestore(memory string) string {
	return fmt.Sprintf(`
resource "sbx_snapshot" "s" {
  sandbox_id = sbx_sandbox.b.id
  name       = "snap-ckpt"
  %s
}

resource "sbx_sandbox" "r" {
  name             = "snap-restored"
  from_snapshot_id = sbx_snapshot.s.id
}
`, memory)
}

// dtnRestoredFrom checks on the fake that the snapshot at sbx_snapshot.s
// was taken of the box at sbx_sandbox.b and that the box at sbx_sandbox.r
// started from it, and that both boxes are started.
func dtnRestoredFrom(fake *daytonafake.Server) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		snapID, err := acctest.ResourceID(s, "sbx_snapshot.s")
		if err != nil {
			return err
		}
		snap, ok := fake.Snapshot(snapID)
		if !ok {
			return fmt.Errorf("the fake holds no snapshot %s", snapID)
		}
		src, err := dtnBox(s, fake, "sbx_sandbox.b")
		if err != nil {
			return err
		}
		if snap.FromSandbox != src.ID {
			return fmt.Errorf("the fake's snapshot %s was taken of %q, want the box %s", snapID, snap.FromSandbox, src.ID)
		}
		if snap.State != "active" {
			return fmt.Errorf("the fake's snapshot %s is %s, want active", snapID, snap.State)
		}
		restored, err := dtnBox(s, fake, "sbx_sandbox.r")
		if err != nil {
			return err
		}
		if restored.Snapshot != snap.Name {
			return fmt.Errorf("the restored box %s started from %q, want the snapshot %s (%s)", restored.ID, restored.Snapshot, snap.Name, snapID)
		}
		for _, b := range []daytonafake.SandboxView{src, restored} {
			if b.State != "started" {
				return fmt.Errorf("the fake's box %s (%s) is %s, want started", b.ID, b.Name, b.State)
			}
		}
		return nil
	}
}

// A memory snapshot (include_memory = true) of a running box of a
// Windows-class template (seeded on the fake, as Daytona seeds its Windows
// snapshots: the only class Daytona takes memory snapshots of; the box names
// it by id), and a new box restored from it. The source box is
// running after it, the next plan is empty.
func TestAccDaytonaSnapshotMemoryWindowsRestore(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := dtnAccFake(t, daytonafake.Options{})
	windowsID := fake.SeedSnapshot(daytonafake.SnapshotSeed{
		Name: dtnWindowsTemplate, ImageName: "daytonaio/windows:11-acc",
		SandboxClass: daytonafake.ClassWindows, CPU: 2, MemoryGB: 4, DiskGB: 20,
	})
	base := cfg + dtnSourceBox(fmt.Sprintf("%q", windowsID))
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dtnAccFactories,
		CheckDestroy:             dtnFakeHoldsNothing(fake, windowsID),
		Steps: []resource.TestStep{
			{
				Config: base,
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.CaptureAttr("sbx_sandbox.b", "id", &id),
					dtnBoxState(fake, "started"),
				),
			},
			{
				Config:           base + dtnSnapshotAndRestore("include_memory = true"),
				ConfigPlanChecks: dtnEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					dtnSameID("sbx_sandbox.b", &id),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "status", "running"),
					resource.TestCheckResourceAttr("sbx_snapshot.s", "include_memory", "true"),
					resource.TestCheckResourceAttr("sbx_snapshot.s", "kind", "memory"),
					resource.TestCheckResourceAttr("sbx_sandbox.r", "status", "running"),
					dtnRestoredFrom(fake),
					dtnBoxCount(fake, 2),
					func(*terraform.State) error {
						if n := fake.Requests("POST /sandbox/{sandboxIdOrName}/stop"); n != 0 {
							return fmt.Errorf("the running box was stopped %d times for a memory snapshot, which Daytona takes of a started box", n)
						}
						return nil
					},
				),
			},
			{
				ResourceName:      "sbx_snapshot.s",
				ImportState:       true,
				ImportStateVerify: true,
				// Daytona reports neither a snapshot's source box nor
				// whether it holds memory (include_memory is Unreported in
				// its table): an import cannot read them back.
				ImportStateVerifyIgnore: []string{"timeouts", "sandbox_id", "include_memory", "kind"},
			},
		},
	})
}

// include_memory = true on a box that is not Windows-class is a plan-time
// error naming include_memory: Daytona refuses memory snapshots of other
// classes. Nothing is snapshotted and the box is left as it was.
func TestAccDaytonaSnapshotMemoryContainerRefused(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := dtnAccFake(t, daytonafake.Options{})
	base := cfg + dtnTemplateHCL("snap-mem-tpl") + dtnSourceBox("sbx_template.t.id")
	before := 0
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dtnAccFactories,
		CheckDestroy:             dtnFakeHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				Config: base,
				Check: func(*terraform.State) error {
					before = len(fake.Snapshots())
					return nil
				},
			},
			{
				Config:      base + dtnSnapshotAndRestore("include_memory = true"),
				PlanOnly:    true,
				ExpectError: acctest.ErrorPattern(`(?s)include_memory needs a Windows sandbox on daytona.*of the container class`),
			},
			{
				Config:           base,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: dtnEmptyAfterApply.PostApplyPostRefresh},
				Check: resource.ComposeAggregateTestCheckFunc(
					dtnBoxState(fake, "started"),
					func(*terraform.State) error {
						if n := len(fake.Snapshots()); n != before {
							return fmt.Errorf("the fake holds %d snapshots after the refused plan, want %d", n, before)
						}
						if n := fake.Requests("POST /sandbox/{sandboxIdOrName}/snapshot"); n != 0 {
							return fmt.Errorf("POST /sandbox/{id}/snapshot reached the fake %d times after a plan-time refusal", n)
						}
						return nil
					},
				),
			},
		},
	})
}

// A filesystem snapshot of a running Windows-class box: Daytona snapshots
// a Windows box's files only when it is stopped, so the provider stops it
// for the snapshot and starts it again. The box ends running, with the
// same id, and the next plan is empty.
func TestAccDaytonaSnapshotWindowsFilesystemOfRunningBox(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := dtnAccFake(t, daytonafake.Options{})
	windowsID := fake.SeedSnapshot(daytonafake.SnapshotSeed{
		Name: dtnWindowsTemplate, ImageName: "daytonaio/windows:11-acc",
		SandboxClass: daytonafake.ClassWindows, CPU: 2, MemoryGB: 4, DiskGB: 20,
	})
	base := cfg + dtnSourceBox(fmt.Sprintf("%q", windowsID))
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dtnAccFactories,
		CheckDestroy:             dtnFakeHoldsNothing(fake, windowsID),
		Steps: []resource.TestStep{
			{
				Config: base,
				Check:  acctest.CaptureAttr("sbx_sandbox.b", "id", &id),
			},
			{
				Config:           base + dtnSnapshotAndRestore(""),
				ConfigPlanChecks: dtnEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					dtnSameID("sbx_sandbox.b", &id),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "status", "running"),
					resource.TestCheckResourceAttr("sbx_snapshot.s", "include_memory", "false"),
					resource.TestCheckResourceAttr("sbx_snapshot.s", "kind", "filesystem"),
					dtnRestoredFrom(fake),
					dtnBoxCount(fake, 2),
					func(*terraform.State) error {
						stops := fake.Requests("POST /sandbox/{sandboxIdOrName}/stop")
						starts := fake.Requests("POST /sandbox/{sandboxIdOrName}/start")
						if stops != 1 || starts != 1 {
							return fmt.Errorf("the box was stopped %d and started %d times, want once each (stopped for the snapshot, started after)", stops, starts)
						}
						return nil
					},
				),
			},
		},
	})
}

// include_memory = true of a container box made in the same apply: the
// box's id is not known at plan time, so Daytona's refusal comes at apply,
// still naming include_memory; nothing is snapshotted, and the box is left
// running as configured.
func TestAccDaytonaSnapshotMemoryContainerRefusedAtApply(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := dtnAccFake(t, daytonafake.Options{})
	base := cfg + dtnTemplateHCL("snap-mem-new-tpl") + dtnSourceBox("sbx_template.t.id")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dtnAccFactories,
		CheckDestroy:             dtnFakeHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				Config:      base + dtnSnapshotAndRestore("include_memory = true"),
				ExpectError: acctest.ErrorPattern(`(?s)include_memory.*windows class`),
			},
			{
				Config:           base,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: dtnEmptyAfterApply.PostApplyPostRefresh},
				Check: resource.ComposeAggregateTestCheckFunc(
					dtnBoxState(fake, "started"),
					dtnBoxCount(fake, 1),
					func(*terraform.State) error {
						for _, v := range fake.Snapshots() {
							if v.FromSandbox != "" {
								return fmt.Errorf("the refused snapshot was made: %s (%s)", v.ID, v.Name)
							}
						}
						return nil
					},
				),
			},
		},
	})
}
