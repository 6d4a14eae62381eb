package modalacc_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// An imported sandbox the provider made reads its timeout from the record
// its create left in the tags, as it was written ("1h"), and expires_at is
// its creation plus that timeout, not the 5-minute default of a box with
// none: the import verifies against the applied state with timeout and
// expires_at compared, and the configuration then plans nothing. A box made
// without a timeout imports with none (the record's 300 s is Modal's
// default) and plans nothing either.
func TestAccModalSandboxTimeoutImport(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	for _, timeout := range []string{"1h", ""} {
		t.Run(fmt.Sprintf("timeout=%q", timeout), func(t *testing.T) {
			t.Parallel()
			ws, providerConfig := modalAccWorkspace(t)
			line := ""
			if timeout != "" {
				line = fmt.Sprintf("  timeout     = %q\n", timeout)
			}
			cfg := providerConfig + modalTemplateHCL("timeout-import-tpl") + `
resource "sbx_sandbox" "s" {
  name        = "timeout-import-box"
  template_id = sbx_template.t.id
` + line + `}
`
			timeoutCheck := resource.TestCheckNoResourceAttr("sbx_sandbox.s", "timeout")
			if timeout != "" {
				timeoutCheck = resource.TestCheckResourceAttr("sbx_sandbox.s", "timeout", timeout)
			}
			// timeout and expires_at are compared: every other row Modal
			// does not report is left out, as modalImportStep does.
			ignore := slices.DeleteFunc(modalUnreported("sandbox"), func(a string) bool { return a == "timeout" })
			var id, expires string
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: modalFactories(ws),
				CheckDestroy:             modalHoldsNothing(ws, nil),
				Steps: []resource.TestStep{
					{
						Config:           cfg,
						ConfigPlanChecks: modalEmptyAfterApply,
						Check: resource.ComposeAggregateTestCheckFunc(
							timeoutCheck,
							acctest.CaptureAttr("sbx_sandbox.s", "id", &id),
							acctest.CaptureAttr("sbx_sandbox.s", "expires_at", &expires),
						),
					},
					{
						ResourceName:            "sbx_sandbox.s",
						ImportState:             true,
						ImportStateVerify:       true,
						ImportStateVerifyIgnore: ignore,
					},
					{
						// The state forgets the box (it keeps running), so the
						// next step imports it for good.
						Config: providerConfig + modalTemplateHCL("timeout-import-tpl") + `
removed {
  from = sbx_sandbox.s
  lifecycle {
    destroy = false
  }
}
`,
						ConfigPlanChecks: modalEmptyAfterApply,
						Check: func(*terraform.State) error {
							if sb, ok := ws.Sandbox(id); !ok || sb.Finished {
								return fmt.Errorf("the sandbox %s is gone from the fake (%+v); removed should only forget it", id, sb)
							}
							return nil
						},
					},
					{
						Config:             cfg,
						ResourceName:       "sbx_sandbox.s",
						ImportState:        true,
						ImportStateIdFunc:  func(*terraform.State) (string, error) { return id, nil },
						ImportStatePersist: true,
						ImportStateCheck: func(states []*terraform.InstanceState) error {
							for _, st := range states {
								if st.ID != id {
									continue // the template, already in the state
								}
								if got := st.Attributes; got["timeout"] != timeout || got["expires_at"] != expires {
									return fmt.Errorf("imported timeout %q, expires_at %q; want %q, %s", got["timeout"], got["expires_at"], timeout, expires)
								}
								return nil
							}
							return fmt.Errorf("the import holds no sandbox %s", id)
						},
					},
					{
						Config: cfg,
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply:             []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
						Check: timeoutCheck,
					},
				},
			})
		})
	}
}
