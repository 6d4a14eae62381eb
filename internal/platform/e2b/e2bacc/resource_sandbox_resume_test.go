package e2bacc_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

// e2bResumeConfig is one box on the E2B fake (tier pro) with the given
// timeout and state.
func e2bResumeConfig(providerConfig, timeout, state string) string {
	return providerConfig + fmt.Sprintf(`
resource "sbx_template" "t" {
  name       = "resume"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}

resource "sbx_sandbox" "b" {
  name        = "resume-box"
  template_id = sbx_template.t.id
  timeout     = %q
  state       = %q
}
`, timeout, state)
}

// e2bResumeCheckEnd checks that the fake ends the box at want() (judged
// when the check runs, after the step's clock moves) and that expires_at
// says the same, set by the box's own timeout (running_sandbox: not the
// 1 h max_runtime cap of the Base tier).
func e2bResumeCheckEnd(fake *e2bfake.Server, want func() time.Time) resource.TestCheckFunc {
	const rule = "running_sandbox"
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources["sbx_sandbox.b"]
		if !ok {
			return fmt.Errorf("sbx_sandbox.b not in state")
		}
		v, ok := fake.Sandbox(rs.Primary.ID)
		if !ok {
			return fmt.Errorf("the fake holds no sandbox %s", rs.Primary.ID)
		}
		w := want().UTC()
		if !v.EndAt.Equal(w) {
			return fmt.Errorf("the fake ends the box at %s, want %s", v.EndAt.UTC().Format(time.RFC3339), w.Format(time.RFC3339))
		}
		if got := rs.Primary.Attributes["expires_at"]; got != w.Format(time.RFC3339) {
			return fmt.Errorf("expires_at = %s, want %s", got, w.Format(time.RFC3339))
		}
		if got := rs.Primary.Attributes["retention_rule"]; got != rule {
			return fmt.Errorf("retention_rule = %s, want %s", got, rule)
		}
		return nil
	}
}

// A timeout changed in place survives a pause and resume: the resumed box
// runs for the configured timeout from the resume, not for the timeout it
// was created with. On Pro a timeout over 1 h is E2B's end time, not the
// Base tier's 1 h runtime cap. Time moves on one injected clock shared by
// the fake and the provider.
func TestAccSandboxE2BResumeKeepsTimeout(t *testing.T) {
	acctest.RequireTerraform(t)
	t0 := time.Now().UTC().Truncate(time.Second)
	clock := clock.NewFake(t0)
	fake, providerConfig := e2bAccFake(t, e2bfake.Options{Clock: clock})
	empty := resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	at := func(d time.Duration) func() time.Time { return func() time.Time { return t0.Add(d) } }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factories(provider.Options{Clock: clock}),
		Steps: []resource.TestStep{
			{
				Config:           e2bResumeConfig(providerConfig, "30m", "running"),
				ConfigPlanChecks: empty,
				Check:            e2bResumeCheckEnd(fake, at(30*time.Minute)),
			},
			{
				// in place: 1 h from this apply
				PreConfig:        func() { clock.Advance(5 * time.Minute) },
				Config:           e2bResumeConfig(providerConfig, "1h", "running"),
				ConfigPlanChecks: empty,
				Check:            e2bResumeCheckEnd(fake, at(5*time.Minute+time.Hour)),
			},
			{
				PreConfig:        func() { clock.Advance(5 * time.Minute) },
				Config:           e2bResumeConfig(providerConfig, "1h", "paused"),
				ConfigPlanChecks: empty,
				Check:            resource.TestCheckResourceAttr("sbx_sandbox.b", "status", "paused"),
			},
			{
				// resumed at t0+20m: 1 h from the resume, not the 30m of the create
				PreConfig: func() { clock.Advance(10 * time.Minute) },
				Config:    e2bResumeConfig(providerConfig, "1h", "running"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction("sbx_sandbox.b", plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("sbx_sandbox.b", "status", "running"),
					e2bResumeCheckEnd(fake, at(20*time.Minute+time.Hour)),
				),
			},
			{
				// Pro: 2 h is the box's deadline, not a 1 h runtime cap
				PreConfig:        func() { clock.Advance(time.Minute) },
				Config:           e2bResumeConfig(providerConfig, "2h", "running"),
				ConfigPlanChecks: empty,
				Check:            e2bResumeCheckEnd(fake, at(21*time.Minute+2*time.Hour)),
			},
			{
				// stopped, then started with the timeout changed in the same apply
				PreConfig:        func() { clock.Advance(time.Minute) },
				Config:           e2bResumeConfig(providerConfig, "2h", "stopped"),
				ConfigPlanChecks: empty,
			},
			{
				PreConfig:        func() { clock.Advance(time.Minute) },
				Config:           e2bResumeConfig(providerConfig, "45m", "running"),
				ConfigPlanChecks: empty,
				Check:            e2bResumeCheckEnd(fake, at(23*time.Minute+45*time.Minute)),
			},
		},
	})
}
