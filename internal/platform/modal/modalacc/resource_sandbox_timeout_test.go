package modalacc_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
)

// modalTimeoutConfig is a template and one sandbox with a 10 minute timeout.
func modalTimeoutConfig(providerConfig string) string {
	return providerConfig + modalTemplateHCL("timeout-tpl") + `
resource "sbx_sandbox" "s" {
  name        = "timeout-box"
  template_id = sbx_template.t.id
  timeout     = "10m"
}
`
}

// modalTimeoutDeadline checks that the sandbox's expires_at is the
// deadline Modal enforces, its creation plus its 10 minute timeout, and
// records it in *deadline.
func modalTimeoutDeadline(ws *modalfake.Workspace, deadline *string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		sb, err := modalSandboxAt(s, ws, "sbx_sandbox.s")
		if err != nil {
			return err
		}
		if sb.TimeoutSecs != 600 {
			return fmt.Errorf("the fake's sandbox %s has a timeout of %d s, want 600", sb.ID, sb.TimeoutSecs)
		}
		attrs := s.RootModule().Resources["sbx_sandbox.s"].Primary.Attributes
		got := attrs["expires_at"]
		at, err := time.Parse(time.RFC3339, got)
		if err != nil {
			return fmt.Errorf("sbx_sandbox.s expires_at %q: %w", got, err)
		}
		created, err := time.Parse(time.RFC3339, attrs["created_at"])
		if err != nil {
			return fmt.Errorf("sbx_sandbox.s created_at %q: %w", attrs["created_at"], err)
		}
		// The provider stamps the creation from its own clock, which runs
		// while the fake's stands still until Advance: so the stamp is the
		// fake's creation or later by however long the test has taken, and
		// the deadline is checked against the stamp, to the second. The
		// stamp is never before the fake's creation, which is on the
		// second, taken when the workspace was made.
		if created.Before(sb.CreatedAt) {
			return fmt.Errorf("sbx_sandbox.s created_at %s, before the fake made the sandbox, %s", attrs["created_at"], sb.CreatedAt.Format(time.RFC3339))
		}
		if want := created.Add(10 * time.Minute); !at.Equal(want) {
			return fmt.Errorf("sbx_sandbox.s expires_at %s, want its creation plus its timeout, %s", got, want.Format(time.RFC3339))
		}
		*deadline = got
		return nil
	}
}

// A sandbox that runs into its timeout: Modal finishes it (exit code 124)
// at its deadline. The refresh after that removes it from the state with a
// warning naming that deadline (the refresh's plan then creates it again),
// and the next apply makes a new sandbox, after which the plan is empty.
func TestAccModalSandboxTimeoutRecreated(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	ws, providerConfig := modalAccWorkspace(t)
	rec := &diagRecorder{}
	cfg := modalTimeoutConfig(providerConfig)
	var oldID, newID, deadline string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: rec.factories(modalOptions(ws)),
		CheckDestroy:             modalHoldsNothing(ws, nil),
		Steps: []resource.TestStep{
			{
				Config:           cfg,
				ConfigPlanChecks: modalEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.CaptureAttr("sbx_sandbox.s", "id", &oldID),
					resource.TestCheckResourceAttr("sbx_sandbox.s", "timeout", "10m"),
					modalTimeoutDeadline(ws, &deadline),
				),
			},
			{
				PreConfig: func() {
					ws.Advance(11 * time.Minute)
					sb, ok := ws.Sandbox(oldID)
					if !ok || !sb.Finished || sb.ExitCode != 124 {
						t.Fatalf("the fake's sandbox %s after its timeout: %+v, want finished with exit code 124", oldID, sb)
					}
				},
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				RefreshPlanChecks: resource.RefreshPlanChecks{
					PostRefresh: []plancheck.PlanCheck{plancheck.ExpectResourceAction("sbx_sandbox.s", plancheck.ResourceActionCreate)},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					func(s *terraform.State) error {
						if _, ok := s.RootModule().Resources["sbx_sandbox.s"]; ok {
							return fmt.Errorf("sbx_sandbox.s is still in the state after its sandbox timed out")
						}
						return nil
					},
					func(*terraform.State) error {
						warnings := rec.warnings("sbx_sandbox")
						for _, w := range warnings {
							if strings.Contains(w, oldID) && strings.Contains(w, deadline) {
								return nil
							}
						}
						return fmt.Errorf("no refresh warning names the sandbox %s and its deadline %s; warnings: %q", oldID, deadline, warnings)
					},
				),
			},
			{
				Config:           cfg,
				ConfigPlanChecks: modalPlans("sbx_sandbox.s", plancheck.ResourceActionCreate),
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.CaptureAttr("sbx_sandbox.s", "id", &newID),
					func(*terraform.State) error {
						if newID == oldID {
							return fmt.Errorf("the sandbox kept the id %s of the one that timed out", oldID)
						}
						return nil
					},
					modalOneLive(ws),
					resource.TestCheckResourceAttr("sbx_sandbox.s", "status", "running"),
				),
			},
		},
	})
}
