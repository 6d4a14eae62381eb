package provider

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

// retentionAccFactories serves a provider whose retention deadlines are
// judged by clock, which the test's PreConfig steps move.
func retentionAccFactories(clock clock.Clock) map[string]func() (tfprotov6.ProviderServer, error) {
	return acctest.Factories(NewWithClock("test", clock))
}

// retentionAccExpect checks the retention attributes of the test sandbox.
// The judgement (ok, expiring, expired) is in no state: plans warn on it
// (TestSandboxModifyPlanRetention), so the state stays the same as the
// clock moves and every plan stays empty.
func retentionAccExpect(rule, action string) []statecheck.StateCheck {
	return []statecheck.StateCheck{
		statecheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("platform"), knownvalue.StringExact("docker")),
		statecheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("retention_rule"), knownvalue.StringExact(rule)),
		statecheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("retention_action"), knownvalue.StringExact(action)),
	}
}

// retentionAccCheckDeadline checks expires_at = the attribute from + d.
func retentionAccCheckDeadline(from string, d time.Duration) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[sandboxAccAddr]
		if !ok {
			return fmt.Errorf("%s not in state", sandboxAccAddr)
		}
		start, err := time.Parse(time.RFC3339, rs.Primary.Attributes[from])
		if err != nil {
			return fmt.Errorf("%s = %q: %w", from, rs.Primary.Attributes[from], err)
		}
		want := start.Add(d).UTC().Format(time.RFC3339)
		if got := rs.Primary.Attributes["expires_at"]; got != want {
			return fmt.Errorf("expires_at = %q, want %s + %s = %s", got, from, d, want)
		}
		return nil
	}
}

// TestAccSandbox_retentionPaused walks a paused box through its retention
// deadline on an injected clock: ok, expiring, expired, then deleted out
// of band, which plans a create. Every step ends in an empty plan, so the
// retention attributes never cause a diff by themselves. (The plan warnings
// themselves are asserted in TestSandboxModifyPlanRetention and
// TestSandboxReadGonePastDeadline: plugin-testing does not expose warnings.)
func TestAccSandbox_retentionPaused(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-retention")
	t0 := time.Now().UTC().Truncate(time.Second)
	clock := clock.NewFake(t0)
	config := `
provider "sbx" {
  retention {
    warn_before    = "1h"
    paused_sandbox = "2h"
  }
}
` + sandboxAccConfig(t, name, "paused", "")
	at := func(d time.Duration) string { return t0.Add(d).Format(time.RFC3339) }
	var firstID string
	sameID := statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: retentionAccFactories(clock),
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             sandboxAccCheckDestroy(t, name),
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: append(retentionAccExpect("paused_sandbox", "delete"),
					sameID.AddStateValue(sandboxAccAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("status_since"), knownvalue.StringExact(at(0))),
					statecheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("expires_at"), knownvalue.StringExact(at(2*time.Hour))),
				),
				Check: sandboxAccCheckContainer(t, "paused"),
			},
			{
				// 30m before the deadline: within warn_before.
				PreConfig: func() { clock.Advance(90 * time.Minute) },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: append(retentionAccExpect("paused_sandbox", "delete"),
					sameID.AddStateValue(sandboxAccAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("status_since"), knownvalue.StringExact(at(0))),
					statecheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("expires_at"), knownvalue.StringExact(at(2*time.Hour))),
				),
			},
			{
				// 30m past it.
				PreConfig: func() { clock.Advance(time.Hour) },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: append(retentionAccExpect("paused_sandbox", "delete"),
					sameID.AddStateValue(sandboxAccAddr, tfjsonpath.New("id")),
				),
				Check: func(s *terraform.State) error {
					id, err := acctest.ResourceID(s, sandboxAccAddr)
					firstID = id
					return err
				},
			},
			{
				// Whoever acts on the deadline removes the box: the refresh
				// drops it (with the retention warning) and plans a create;
				// the new box counts from now.
				PreConfig: func() {
					if err := acctest.DockerClient(t).ContainerRemove(context.Background(), firstID,
						container.RemoveOptions{Force: true}); err != nil {
						t.Fatalf("removing the box out of band: %v", err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(sandboxAccAddr, plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: append(retentionAccExpect("paused_sandbox", "delete"),
					statecheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("status_since"), knownvalue.StringExact(at(150*time.Minute))),
					statecheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("expires_at"), knownvalue.StringExact(at(270*time.Minute))),
				),
				Check: sandboxAccCheckContainer(t, "paused"),
			},
		},
	})
}

// TestAccSandbox_retentionTimeout: timeout on a running Docker box is
// tracked as started_at + timeout; changing it (and on_timeout) is an
// in-place update; moving the clock turns it expiring, then expired.
func TestAccSandbox_retentionTimeout(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-retention")
	// The clock starts once the test runs, not while it waits for a
	// parallel slot: the engine stamps the box's times from the real one.
	t.Parallel()
	clock := clock.NewFake(time.Now().UTC())
	provider := `
provider "sbx" {
  retention {
    warn_before = "30m"
  }
}
`
	oneHour := provider + sandboxAccConfig(t, name, "running", `  timeout = "1h"`)
	twoHours := provider + sandboxAccConfig(t, name, "running", "  timeout    = \"2h\"\n  on_timeout = \"stop\"")
	sameID := statecheck.CompareValue(compare.ValuesSame())
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: retentionAccFactories(clock),
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             sandboxAccCheckDestroy(t, name),
		Steps: []resource.TestStep{
			{
				Config: oneHour,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: append(retentionAccExpect("running_sandbox", "kill"),
					sameID.AddStateValue(sandboxAccAddr, tfjsonpath.New("id"))),
				Check: resource.ComposeTestCheckFunc(
					retentionAccCheckDeadline("started_at", time.Hour),
					sandboxAccCheckContainer(t, "running"),
				),
			},
			{
				Config: twoHours,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(sandboxAccAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: append(retentionAccExpect("running_sandbox", "stop"),
					sameID.AddStateValue(sandboxAccAddr, tfjsonpath.New("id"))),
				Check: retentionAccCheckDeadline("started_at", 2*time.Hour),
			},
			{
				// Tracked, not enforced: the box keeps running past it.
				PreConfig: func() { clock.Advance(100 * time.Minute) },
				Config:    twoHours,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: retentionAccExpect("running_sandbox", "stop"),
			},
			{
				PreConfig: func() { clock.Advance(time.Hour) },
				Config:    twoHours,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: retentionAccExpect("running_sandbox", "stop"),
				Check:             sandboxAccCheckContainer(t, "running"),
			},
		},
	})
}

// TestAccSnapshot_retentionOverride: Docker snapshots have no deadline of
// their own; an override tracks one from created_at, and the clock turns it
// expiring with no diff in the plan.
func TestAccSnapshot_retentionOverride(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-retention")
	// The clock starts once the test runs, not while it waits for a
	// parallel slot: the engine stamps the box's times from the real one.
	t.Parallel()
	clock := clock.NewFake(time.Now().UTC())
	const snap = "sbx_snapshot.s"
	config := `
provider "sbx" {
  retention {
    warn_before         = "1h"
    filesystem_snapshot = "2h"
  }
}
` + sandboxAccConfig(t, name, "running", "") + `
resource "sbx_snapshot" "s" {
  sandbox_id = sbx_sandbox.test.id
}
`
	expect := func() []statecheck.StateCheck {
		return []statecheck.StateCheck{
			statecheck.ExpectKnownValue(snap, tfjsonpath.New("platform"), knownvalue.StringExact("docker")),
			statecheck.ExpectKnownValue(snap, tfjsonpath.New("retention_rule"), knownvalue.StringExact("filesystem_snapshot")),
			statecheck.ExpectKnownValue(snap, tfjsonpath.New("retention_action"), knownvalue.StringExact("expire")),
		}
	}
	checkDeadline := func(s *terraform.State) error {
		rs := s.RootModule().Resources[snap]
		created, err := time.Parse(time.RFC3339, rs.Primary.Attributes["created_at"])
		if err != nil {
			return err
		}
		if want := created.Add(2 * time.Hour).UTC().Format(time.RFC3339); rs.Primary.Attributes["expires_at"] != want {
			return fmt.Errorf("snapshot expires_at = %q, want created_at + 2h = %s", rs.Primary.Attributes["expires_at"], want)
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: retentionAccFactories(clock),
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             sandboxAccCheckDestroy(t, name),
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: expect(),
				Check:             checkDeadline,
			},
			{
				PreConfig: func() { clock.Advance(90 * time.Minute) },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: expect(),
				Check:             checkDeadline,
			},
			{
				ResourceName:      snap,
				ImportState:       true,
				ImportStateVerify: true,
			},
		},
	})
}
