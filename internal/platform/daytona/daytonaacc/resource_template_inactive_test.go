package daytonaacc_test

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

// dtnSnapshotState checks the state of the Daytona snapshot behind the
// template sbx_template.t (active, inactive...).
func dtnSnapshotState(fake *daytonafake.Server, want string) resource.TestCheckFunc {
	const addr = "sbx_template.t"
	return func(s *terraform.State) error {
		id, err := acctest.ResourceID(s, addr)
		if err != nil {
			return err
		}
		v, ok := fake.Snapshot(id)
		if !ok {
			return fmt.Errorf("the fake holds no snapshot %s (%s)", id, addr)
		}
		if v.State != want {
			return fmt.Errorf("the fake's snapshot %s (%s) is %s, want %s", id, addr, v.State, want)
		}
		return nil
	}
}

// dtnInactiveSteps: a template is built (active on the fake); deactivate
// makes Daytona deactivate it; a refresh reads status "inactive"; the plan
// is an in-place update of the same template, and the apply activates it
// again (active on the fake, status ready, its deadline 14 days after the
// activation, which counts as a use: clock tells the time); the next plan
// is empty, and an hour later it is still active.
func dtnInactiveSteps(fake *daytonafake.Server, clock *clock.Fake, config string, deactivate func(id string)) []resource.TestStep {
	var id string
	return []resource.TestStep{
		{
			Config:           config,
			ConfigPlanChecks: dtnEmptyAfterApply,
			Check: resource.ComposeAggregateTestCheckFunc(
				acctest.CaptureAttr("sbx_template.t", "id", &id),
				resource.TestCheckResourceAttr("sbx_template.t", "status", "ready"),
				dtnSnapshotState(fake, "active"),
			),
		},
		{
			PreConfig:          func() { deactivate(id) },
			RefreshState:       true,
			ExpectNonEmptyPlan: true,
			Check: resource.ComposeAggregateTestCheckFunc(
				dtnSameID("sbx_template.t", &id),
				resource.TestCheckResourceAttr("sbx_template.t", "status", "inactive"),
				dtnSnapshotState(fake, "inactive"),
			),
		},
		{
			Config:           config,
			ConfigPlanChecks: dtnInPlace("sbx_template.t"),
			Check: resource.ComposeAggregateTestCheckFunc(
				dtnSameID("sbx_template.t", &id),
				resource.TestCheckResourceAttr("sbx_template.t", "status", "ready"),
				dtnSnapshotState(fake, "active"),
				resource.TestCheckResourceAttrWith("sbx_template.t", "expires_at", func(v string) error {
					at, err := time.Parse(time.RFC3339, v)
					if err != nil {
						return fmt.Errorf("expires_at = %q: %w", v, err)
					}
					if want := clock.Now().Add(13 * 24 * time.Hour); at.Before(want) {
						return fmt.Errorf("expires_at = %s after the activation at %s, want 14 days after it", v, clock.Now().Format(time.RFC3339))
					}
					return nil
				}),
			),
		},
		{
			// Activated, it counts as used (Daytona sets lastUsedAt when
			// a snapshot turns active, snapshot.manager.ts
			// updateSnapshotState): an hour later it is still active.
			PreConfig:    func() { clock.Advance(time.Hour) },
			RefreshState: true,
			Check: resource.ComposeAggregateTestCheckFunc(
				dtnSameID("sbx_template.t", &id),
				resource.TestCheckResourceAttr("sbx_template.t", "status", "ready"),
				dtnSnapshotState(fake, "active"),
			),
		},
		{
			ResourceName:      "sbx_template.t",
			ImportState:       true,
			ImportStateVerify: true,
			// An import reads Daytona's default sizes into cpu_count,
			// memory_mb and disk_mb, which the configuration leaves out: a defect
			// TestAccDaytonaImportPlansNothing holds on its own.
			ImportStateVerifyIgnore: []string{"timeouts", "cpu_count", "memory_mb", "disk_mb"},
		},
	}
}

// A template Daytona deactivated (by hand, or as unused) reads as
// status "inactive" and is activated again in place. Daytona refuses an
// activation for 10 minutes after a deactivation: the provider waits it
// out (its waits move the clock the fake runs on).
func TestAccDaytonaTemplateInactiveActivated(t *testing.T) {
	acctest.RequireTerraform(t)
	clock := clock.NewFake(time.Now().UTC().Truncate(time.Second))
	fake, cfg := dtnAccFake(t, daytonafake.Options{Clock: clock})
	var deactivatedAt time.Time
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dtnFactories(provider.Options{Clock: clock, Hooks: dtnClockHooks(clock)}),
		CheckDestroy:             dtnFakeHoldsNothing(fake),
		Steps: dtnInactiveSteps(fake, clock, cfg+dtnTemplateHCL("inactive-tpl"), func(id string) {
			fake.DeactivateSnapshotOutOfBand(id)
			deactivatedAt = clock.Now()
		}),
	})
	// Deactivated just before the apply: the first activation was refused,
	// and the provider tried again until the 10 minutes had passed.
	if n := fake.Requests("POST /snapshots/{id}/activate"); n < 2 {
		t.Errorf("POST /snapshots/{id}/activate reached the fake %d times; the cooldown refusal was not waited out", n)
	}
	if waited := clock.Now().Sub(deactivatedAt); waited < 10*time.Minute {
		t.Errorf("the provider's waits moved the clock %s after the deactivation, want at least 10m", waited)
	}
}

// The same on the clock: Daytona deactivates a template no box started
// from for 14 days; the fake and the provider share the clock, and the
// provider's waits move it.
func TestAccDaytonaTemplateDeactivatedAfter14Days(t *testing.T) {
	acctest.RequireTerraform(t)
	clock := clock.NewFake(time.Now().UTC().Truncate(time.Second))
	fake, cfg := dtnAccFake(t, daytonafake.Options{Clock: clock})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dtnFactories(provider.Options{Clock: clock, Hooks: dtnClockHooks(clock)}),
		CheckDestroy:             dtnFakeHoldsNothing(fake),
		Steps: dtnInactiveSteps(fake, clock, cfg+dtnTemplateHCL("unused-tpl"), func(string) {
			// 14 days unused, and the next run of Daytona's deactivation
			// cron (every 10 minutes).
			clock.Advance(14*24*time.Hour + 20*time.Minute)
		}),
	})
}

// The plan of a deactivated template warns that the apply activates it
// again, and the apply changes it in place ("1 changed"), as terraform
// prints them (plugin-testing does not expose warnings: a second working
// directory runs the CLI itself).
func TestAccDaytonaTemplateInactiveWarning(t *testing.T) {
	acctest.RequireTerraform(t)
	clock := clock.NewFake(time.Now().UTC().Truncate(time.Second))
	fake, cfg := dtnAccFake(t, daytonafake.Options{Clock: clock})
	// Registered first, run last: after the second state's destroy.
	t.Cleanup(func() {
		if err := dtnFakeHoldsNothing(fake)(nil); err != nil {
			t.Error(err)
		}
	})
	other := acctest.NewOtherState(t, provider.NewWithOptions("test",
		provider.Options{Platforms: dtnPlatforms(), Clock: clock, Hooks: dtnClockHooks(clock)}))
	config := cfg + dtnTemplateHCL("warned-tpl")
	other.Apply(config)
	id := other.Attr("sbx_template.t", "id")
	fake.DeactivateSnapshotOutOfBand(id)
	out, err := other.TryApply(config)
	if err != nil {
		t.Fatalf("apply of the deactivated template: %v\n%s", err, out)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`# sbx_template\.t will be updated in-place`),
		acctest.ErrorPattern(`Warning: Template deactivated by Daytona`),
		acctest.ErrorPattern(`Apply activates it again in place`),
		regexp.MustCompile(`0 added, 1 changed, 0 destroyed`),
	} {
		if !want.MatchString(out) {
			t.Errorf("the apply's output does not match %q:\n%s", want, out)
		}
	}
	if got := other.Attr("sbx_template.t", "id"); got != id {
		t.Errorf("the template's id changed from %s to %s", id, got)
	}
	if got := other.Attr("sbx_template.t", "status"); got != "ready" {
		t.Errorf("the template's status is %q after the apply, want ready", got)
	}
	if v, ok := fake.Snapshot(id); !ok || v.State != "active" {
		t.Errorf("the fake's snapshot %s is %+v after the apply, want active", id, v)
	}
}
