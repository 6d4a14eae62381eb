package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
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

// sandboxesAccConfig makes two boxes carrying a label unique to the test —
// "test" running, then "later" paused — and reads them back through
// sbx_sandboxes: all of them, the paused ones, and, inside the documented
// check block, the expired ones. Docker keeps no per-box timeout on the
// container, so the deadline comes from the provider's running_sandbox
// override, the same for the resource and the data source.
//
// Terraform plans a data source nested in a check block as a read during
// every apply ("config will be reloaded to verify a check block"), so no
// plan of this configuration is empty: steps expect that one read, and
// sandboxesAccOnlyCheckRead proves nothing else is planned.
func sandboxesAccConfig(t *testing.T, name string) string {
	return `
provider "sbx" {
  retention {
    running_sandbox = "1h"
    warn_before     = "30m"
  }
}
` + sandboxAccTemplateHCL(t, name) + fmt.Sprintf(`
resource "sbx_sandbox" "test" {
  name        = %[1]q
  template_id = sbx_template.t.id
  labels      = { "sbx-acc" = %[1]q }
}

resource "sbx_sandbox" "later" {
  name        = "%[1]s-later"
  template_id = sbx_template.t.id
  state       = "paused"
  labels      = { "sbx-acc" = %[1]q, "role" = "later" }
  depends_on  = [sbx_sandbox.test] # created second, so listed first
}

data "sbx_sandboxes" "mine" {
  labels     = { "sbx-acc" = %[1]q }
  depends_on = [sbx_sandbox.test, sbx_sandbox.later]
}

data "sbx_sandboxes" "paused" {
  labels     = { "sbx-acc" = %[1]q }
  status     = "paused"
  depends_on = [sbx_sandbox.test, sbx_sandbox.later]
}

check "no_expired_boxes" {
  data "sbx_sandboxes" "expired" {
    labels           = { "sbx-acc" = %[1]q }
    retention_status = "expired"
  }

  assert {
    condition     = length(data.sbx_sandboxes.expired.sandboxes) == 0
    error_message = "Sandboxes past their retention deadline: ${join(", ", data.sbx_sandboxes.expired.ids)}"
  }
}
`, name)
}

// TestAccSandboxesDataSource moves the provider's clock from well before the
// running box's deadline, to within warn_before, to past it, and checks what
// sbx_sandboxes reports each time: the same deadline as the sbx_sandbox
// resource, the status the clock implies, the filters, newest first, and
// the check block's data source holding the expired box (a failed check is
// only a warning in Terraform, so the proof is the data source's state).
func TestAccSandboxesDataSource(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("sbx-ds-boxes")
	// The clock starts once the test runs, not while it waits for a
	// parallel slot: the engine stamps the box's start from the real one.
	t.Parallel()
	clock := clock.NewFake(time.Now())
	factories := map[string]func() (tfprotov6.ProviderServer, error){
		"sbx": providerserver.NewProtocol6WithError(NewWithClock("test", clock)()),
	}
	var deadline time.Time
	captureDeadline := func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources["sbx_sandbox.test"]
		if !ok {
			return fmt.Errorf("sbx_sandbox.test is not in the state")
		}
		at, err := time.Parse(time.RFC3339, rs.Primary.Attributes["expires_at"])
		if err != nil {
			return fmt.Errorf("sbx_sandbox.test expires_at = %q: %w", rs.Primary.Attributes["expires_at"], err)
		}
		deadline = at
		return nil
	}
	const mine, paused, expired = "data.sbx_sandboxes.mine", "data.sbx_sandboxes.paused", "data.sbx_sandboxes.expired"
	running := tfjsonpath.New("sandboxes").AtSliceIndex(1) // the older box
	later := tfjsonpath.New("sandboxes").AtSliceIndex(0)
	// Checks every step makes: both boxes, newest first, with the resource's
	// own deadline; the paused filter; the retention fields of the paused box.
	common := func(runningStatus string, expiredCount int) []statecheck.StateCheck {
		return []statecheck.StateCheck{
			statecheck.ExpectKnownValue(mine, tfjsonpath.New("sandboxes"), knownvalue.ListSizeExact(2)),
			statecheck.CompareValuePairs(mine, tfjsonpath.New("ids").AtSliceIndex(0), "sbx_sandbox.later", tfjsonpath.New("id"), compare.ValuesSame()),
			statecheck.CompareValuePairs(mine, running.AtMapKey("id"), "sbx_sandbox.test", tfjsonpath.New("id"), compare.ValuesSame()),
			statecheck.CompareValuePairs(mine, running.AtMapKey("expires_at"), "sbx_sandbox.test", tfjsonpath.New("expires_at"), compare.ValuesSame()),
			statecheck.CompareValuePairs(mine, running.AtMapKey("started_at"), "sbx_sandbox.test", tfjsonpath.New("started_at"), compare.ValuesSame()),
			statecheck.ExpectKnownValue(mine, running.AtMapKey("retention_status"), knownvalue.StringExact(runningStatus)),
			statecheck.ExpectKnownValue(mine, running.AtMapKey("retention_rule"), knownvalue.StringExact("running_sandbox")),
			statecheck.ExpectKnownValue(mine, running.AtMapKey("retention_action"), knownvalue.StringExact("kill")),
			statecheck.ExpectKnownValue(mine, running.AtMapKey("status"), knownvalue.StringExact("running")),
			statecheck.ExpectKnownValue(mine, running.AtMapKey("name"), knownvalue.StringExact(name)),
			statecheck.CompareValuePairs(mine, running.AtMapKey("template_id"), "sbx_template.t", tfjsonpath.New("id"), compare.ValuesSame()),
			statecheck.ExpectKnownValue(mine, running.AtMapKey("labels"), knownvalue.MapExact(map[string]knownvalue.Check{"sbx-acc": knownvalue.StringExact(name)})),
			statecheck.ExpectKnownValue(mine, later.AtMapKey("status"), knownvalue.StringExact("paused")),
			statecheck.ExpectKnownValue(mine, later.AtMapKey("platform_status"), knownvalue.StringExact("paused")),
			statecheck.ExpectKnownValue(mine, later.AtMapKey("retention_status"), knownvalue.StringExact("ok")),
			statecheck.ExpectKnownValue(mine, later.AtMapKey("expires_at"), knownvalue.Null()),
			statecheck.ExpectKnownValue(mine, later.AtMapKey("retention_rule"), knownvalue.Null()),
			statecheck.ExpectKnownValue(paused, tfjsonpath.New("ids"), knownvalue.ListSizeExact(1)),
			statecheck.CompareValuePairs(paused, tfjsonpath.New("ids").AtSliceIndex(0), "sbx_sandbox.later", tfjsonpath.New("id"), compare.ValuesSame()),
			statecheck.ExpectKnownValue(expired, tfjsonpath.New("sandboxes"), knownvalue.ListSizeExact(expiredCount)),
		}
	}

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             sandboxAccCheckDestroy(t, name),
		Steps: []resource.TestStep{
			{
				Config:             sandboxesAccConfig(t, name),
				Check:              captureDeadline,
				ConfigStateChecks:  common("ok", 0),
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks:   sandboxesAccPlanChecks,
			},
			{
				PreConfig:          func() { clock.Set(deadline.Add(-10 * time.Minute)) },
				Config:             sandboxesAccConfig(t, name),
				ConfigStateChecks:  common("expiring", 0),
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks:   sandboxesAccPlanChecks,
			},
			{
				// The check block's assertion fails now: Terraform reports it
				// as a warning, and its data source holds the expired box.
				PreConfig:          func() { clock.Set(deadline.Add(time.Minute)) },
				Config:             sandboxesAccConfig(t, name),
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks:   sandboxesAccPlanChecks,
				ConfigStateChecks: append(common("expired", 1),
					statecheck.CompareValuePairs(expired, tfjsonpath.New("ids").AtSliceIndex(0), "sbx_sandbox.test", tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.ExpectKnownValue(expired, tfjsonpath.New("sandboxes").AtSliceIndex(0).AtMapKey("retention_status"), knownvalue.StringExact("expired")),
				),
			},
		},
	})
}

// sandboxesAccPlanChecks: after every apply the plan changes no resource;
// the check block's data source read is all it holds.
var sandboxesAccPlanChecks = resource.ConfigPlanChecks{
	PostApplyPostRefresh: []plancheck.PlanCheck{sandboxesAccOnlyCheckRead{addr: "data.sbx_sandboxes.expired"}},
}

// sandboxesAccOnlyCheckRead fails unless every planned change is a no-op,
// apart from reading the check block's data source addr.
type sandboxesAccOnlyCheckRead struct{ addr string }

func (c sandboxesAccOnlyCheckRead) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	var bad []string
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Change == nil || rc.Change.Actions.NoOp() || (rc.Address == c.addr && rc.Change.Actions.Read()) {
			continue
		}
		bad = append(bad, fmt.Sprintf("%s: %v", rc.Address, rc.Change.Actions))
	}
	if len(bad) > 0 {
		resp.Error = fmt.Errorf("the plan after apply should only re-read %s, but it plans %s", c.addr, strings.Join(bad, "; "))
	}
}

// TestAccSandboxesDataSourceValidation: bad filter values are plan-time
// errors naming the attribute, the value and what is allowed.
func TestAccSandboxesDataSourceValidation(t *testing.T) {
	acctest.RequireDocker(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		Steps: []resource.TestStep{
			{
				Config:      `data "sbx_sandboxes" "x" { status = "sleeping" }`,
				ExpectError: regexp.MustCompile(`(?s)status.*running.*paused.*stopped.*sleeping`),
			},
			{
				Config:      `data "sbx_sandboxes" "x" { retention_status = "late" }`,
				ExpectError: regexp.MustCompile(`(?s)retention_status.*ok.*expiring.*expired.*late`),
			},
			{
				Config:      `data "sbx_sandboxes" "x" { labels = { "sbx.terraform.managed" = "true" } }`,
				ExpectError: regexp.MustCompile(`sbx\.terraform\.managed`),
			},
		},
	})
}
