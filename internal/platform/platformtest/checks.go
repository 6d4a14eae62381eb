package platformtest

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// emptyPlanAfterApply makes an apply step prove that applying converged:
// the plan right after it (with a refresh) has nothing to do.
func emptyPlanAfterApply() resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
}

// expectAction makes the step's plan do exactly action to addr, then converge.
func expectAction(addr string, action plancheck.ResourceActionType) resource.ConfigPlanChecks {
	c := emptyPlanAfterApply()
	c.PreApply = []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, action)}
	return c
}

// captureID stores addr's id in *dst when the check runs.
func captureID(addr string, dst *string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[addr]
		if !ok || rs.Primary == nil || rs.Primary.ID == "" {
			return fmt.Errorf("%s is not in the state", addr)
		}
		*dst = rs.Primary.ID
		return nil
	}
}

// idIs checks that addr still has the id captured earlier (no replacement).
func idIs(addr string, want *string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		var got string
		if err := captureID(addr, &got)(s); err != nil {
			return err
		}
		if got != *want {
			return fmt.Errorf("%s: id changed from %q to %q; the change must be in place", addr, *want, got)
		}
		return nil
	}
}

// platformStateIs checks the sandbox's state on the platform itself.
func platformStateIs(t *testing.T, h harness, id *string, want platform.SandboxState) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := h.OutOfBand.SandboxState(t, *id); got != want {
			return fmt.Errorf("sandbox %s is %q on the platform, want %q", *id, got, want)
		}
		return nil
	}
}

// existsOnPlatform checks that the object with the captured id exists.
func existsOnPlatform(t *testing.T, h harness, kind string, id *string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if !h.OutOfBand.Exists(t, kind, *id) {
			return fmt.Errorf("%s %s does not exist on the platform", kind, *id)
		}
		return nil
	}
}

// goneFromPlatform is a CheckDestroy: every captured object is gone —
// but a snapshot where the platform cannot delete snapshots
// (Capabilities.SnapshotDelete false: Fly keeps them until their retention
// ends), whose destroy only forgets it: that one must still be there, as
// destroy succeeded without touching it.
func goneFromPlatform(t *testing.T, h harness, objs map[string]*string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for kind, id := range objs {
			if *id == "" {
				continue
			}
			exists := h.OutOfBand.Exists(t, kind, *id)
			if kind == KindSnapshot && !h.Capabilities.SnapshotDelete {
				if !exists {
					return fmt.Errorf("%s %s is gone after destroy, but %s cannot delete snapshots (capability SnapshotDelete): "+
						"destroy should only have forgotten it", kind, *id, h.Name)
				}
				t.Logf("%s %s is kept after destroy: %s cannot delete snapshots (capability SnapshotDelete); it expires with its retention",
					kind, *id, h.Name)
				continue
			}
			if exists {
				return fmt.Errorf("%s %s still exists after destroy", kind, *id)
			}
		}
		return nil
	}
}

// fileReadEvery is how long fileEventually waits between reads: a read is
// a request to the platform (an exec in a live box, a copy out of a Docker
// container), so it is not asked every few milliseconds.
const fileReadEvery = 500 * time.Millisecond

// fileEventually waits for a file to hold want. Waiting here is on the
// platform's real clock: the agent writes its files just after start, and a
// fresh box may need a moment before its first write lands. It reads until
// clock.Patience has passed (generous to a machine ten times slower, so a
// loaded runner does not fail a write that is only late), then fails with
// what the last read found.
func fileEventually(what string, want string, read func() (string, bool)) resource.TestCheckFunc {
	return func(*terraform.State) error {
		giveUp := time.Now().Add(clock.Patience)
		var last string
		var found bool
		for {
			last, found = read()
			if found && last == want {
				return nil
			}
			if !time.Now().Before(giveUp) {
				break
			}
			time.Sleep(fileReadEvery)
		}
		if !found {
			return fmt.Errorf("%s: the file does not exist (read for %s)", what, clock.Patience)
		}
		return fmt.Errorf("%s: the file holds %q, want %q (read for %s)", what, last, want, clock.Patience)
	}
}

// needs skips t when the platform lacks a capability. That is not hiding a
// gap: the provider refuses such configurations at plan time (tested
// elsewhere), so there is nothing to run.
func needs(t *testing.T, have bool, capability string) {
	t.Helper()
	if !have {
		t.Logf("the platform's capability matrix says it lacks %s; this scenario does not apply to it", capability)
		t.Skipf("platform lacks %s", capability)
	}
}

// snapshotLabelIs checks a snapshot label where snapshots carry labels
// (SnapshotLabels); elsewhere none were set, and the snapshot must have none.
func (r run) snapshotLabelIs(addr, key, want string) resource.TestCheckFunc {
	if r.h.Capabilities.Accepts(platform.AttrSnapshotLabels) {
		return resource.TestCheckResourceAttr(addr, "labels."+key, want)
	}
	return resource.TestCheckNoResourceAttr(addr, "labels."+key)
}

// reportedIsSet checks that attr is set where the platform reports it
// (reported, from its capability row), and null where it cannot: a value
// there could only be made up.
func reportedIsSet(reported bool, addr, attr string) resource.TestCheckFunc {
	if reported {
		return resource.TestCheckResourceAttrSet(addr, attr)
	}
	return resource.TestCheckNoResourceAttr(addr, attr)
}
