package modalacc_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
)

// modalFaultConfig is a template and one sandbox.
func modalFaultConfig(providerConfig string) string {
	return providerConfig + modalTemplateHCL("fault-tpl") + `
resource "sbx_sandbox" "s" {
  name        = "fault-box"
  template_id = sbx_template.t.id
}
`
}

// modalOnlySandbox checks that the fake made exactly one sandbox, the one
// in the state, running.
func modalOnlySandbox(ws *modalfake.Workspace) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		id, err := acctest.ResourceID(s, "sbx_sandbox.s")
		if err != nil {
			return err
		}
		all := ws.Sandboxes()
		if len(all) != 1 || all[0].ID != id || all[0].Finished {
			return fmt.Errorf("the fake holds sandboxes %+v, want exactly one, running: %s (the state's)", all, id)
		}
		return nil
	}
}

// Modal's faults on the sandbox create, which the SDK handles itself:
//   - throttled: two RESOURCE_EXHAUSTED answers asking for a 100 ms wait
//     (Modal's RPCRetryPolicy); the SDK waits them out and retries, so the
//     apply succeeds after three calls;
//   - answer lost: the create is done, then its answer is lost
//     (UNAVAILABLE); the SDK retries with the same idempotency key and gets
//     the first answer, so exactly one sandbox exists, the one in state.
//
// Each apply is followed by an empty plan, and destroy leaves nothing.
func TestAccModalSandboxCreateFaults(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	for _, tc := range []struct {
		name      string
		fault     func(*modalfake.Workspace)
		wantCalls int
	}{
		{
			name:      "throttled",
			fault:     func(ws *modalfake.Workspace) { ws.Throttle("SandboxCreateV2", 2, 100*time.Millisecond) },
			wantCalls: 3,
		},
		{
			name:      "answer_lost",
			fault:     func(ws *modalfake.Workspace) { ws.DropAnswer("SandboxCreateV2", 1) },
			wantCalls: 2,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws, providerConfig := modalAccWorkspace(t)
			tc.fault(ws)
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: modalFactories(ws),
				CheckDestroy:             modalHoldsNothing(ws, nil),
				Steps: []resource.TestStep{{
					Config:           modalFaultConfig(providerConfig),
					ConfigPlanChecks: modalEmptyAfterApply,
					Check: resource.ComposeAggregateTestCheckFunc(
						resource.TestCheckResourceAttr("sbx_sandbox.s", "status", "running"),
						modalOnlySandbox(ws),
						func(*terraform.State) error {
							if n := ws.Calls("SandboxCreateV2"); n != tc.wantCalls {
								return fmt.Errorf("the fake got %d SandboxCreateV2 calls, want %d (the first ones faulted, then the SDK's retry)", n, tc.wantCalls)
							}
							return nil
						},
					),
				}},
			})
		})
	}
}

// max_throttle_wait = "0s" makes the SDK give up on a throttled call at
// once instead of waiting out Modal's retry policy: the apply fails with
// Modal's throttling error after a single call, and no sandbox is made.
func TestAccModalSandboxThrottleWaitCapped(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	ws, providerConfig := modalAccWorkspace(t)
	ws.Throttle("SandboxCreateV2", 1, time.Second)
	capped := strings.Replace(providerConfig, "  modal {\n", "  modal {\n    max_throttle_wait = \"0s\"\n", 1)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: modalFactories(ws),
		CheckDestroy:             modalHoldsNothing(ws, nil),
		Steps: []resource.TestStep{{
			Config:      modalFaultConfig(capped),
			ExpectError: acctest.ErrorPattern(`(?s)creating the Modal sandbox:.*\(Modal: ResourceExhausted\)`),
		}},
	})
	if n := ws.Calls("SandboxCreateV2"); n != 1 {
		t.Errorf("the fake got %d SandboxCreateV2 calls, want 1 (no retry once the throttle wait is capped at 0s)", n)
	}
	if n := len(ws.Sandboxes()); n != 0 {
		t.Errorf("the fake holds %d sandboxes after the throttled create, want none", n)
	}
}
