package modalacc_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
)

// modalLabelsConfig is a template and one sandbox with labels (an HCL map
// body).
func modalLabelsConfig(providerConfig, labels string) string {
	return providerConfig + modalTemplateHCL("labels-tpl") + fmt.Sprintf(`
resource "sbx_sandbox" "s" {
  name        = "labels-box"
  template_id = sbx_template.t.id
  cpu_count   = 2
  memory_mb   = 1024
  env         = { MODE = "labels" }
  labels      = { %s }
}
`, labels)
}

// modalNoTag checks that the sandbox's Modal tags lack key.
func modalNoTag(key string) func(modalfake.SandboxView) error {
	return func(sb modalfake.SandboxView) error {
		if v, ok := sb.Tags[key]; ok {
			return fmt.Errorf("tag %s = %q is still set; tags %v", key, v, sb.Tags)
		}
		return nil
	}
}

// modalLabelSteps are the steps of a sandbox whose labels change in place:
// made with labels team and tier (and its sizes and env sent to Modal),
// then team changed, tier removed and owner added: each change an update of
// the same sandbox whose Modal tags follow, the provider's own tags kept
// beside them, and an empty plan after it; then an import.
func modalLabelSteps(ws *modalfake.Workspace, providerConfig string, v2 bool) []resource.TestStep {
	var id string
	return []resource.TestStep{
		{
			Config:           modalLabelsConfig(providerConfig, `team = "a", tier = "gold"`),
			ConfigPlanChecks: modalEmptyAfterApply,
			Check: resource.ComposeAggregateTestCheckFunc(
				acctest.CaptureAttr("sbx_sandbox.s", "id", &id),
				resource.TestCheckResourceAttr("sbx_sandbox.s", "labels.team", "a"),
				modalSandboxIs(ws, "sbx_sandbox.s", modalTagsHave(map[string]string{"team": "a", "tier": "gold"})),
				modalSandboxIs(ws, "sbx_sandbox.s", func(sb modalfake.SandboxView) error {
					switch {
					case sb.V2 != v2:
						return fmt.Errorf("made through the V2 sandbox API %t, want %t", sb.V2, v2)
					case sb.MilliCPU != 2000 || sb.MemoryMB != 1024:
						return fmt.Errorf("%d milli-CPU and %d MB, want 2000 and 1024", sb.MilliCPU, sb.MemoryMB)
					case sb.Env["MODE"] != "labels":
						return fmt.Errorf("env MODE = %q, want labels", sb.Env["MODE"])
					}
					return nil
				}),
				func(*terraform.State) error {
					v1Calls, v2Calls := ws.Calls("SandboxCreate"), ws.Calls("SandboxCreateV2")
					if (v2 && (v1Calls != 0 || v2Calls != 1)) || (!v2 && (v1Calls != 1 || v2Calls != 0)) {
						return fmt.Errorf("the fake got %d SandboxCreate and %d SandboxCreateV2 calls; want one create, through the V2 API %t",
							v1Calls, v2Calls, v2)
					}
					return nil
				},
			),
		},
		{
			Config:           modalLabelsConfig(providerConfig, `team = "b", owner = "ops"`),
			ConfigPlanChecks: modalPlans("sbx_sandbox.s", plancheck.ResourceActionUpdate),
			Check: resource.ComposeAggregateTestCheckFunc(
				modalSameID("sbx_sandbox.s", &id),
				resource.TestCheckResourceAttr("sbx_sandbox.s", "labels.team", "b"),
				resource.TestCheckNoResourceAttr("sbx_sandbox.s", "labels.tier"),
				modalSandboxIs(ws, "sbx_sandbox.s", modalTagsHave(map[string]string{
					"team": "b", "owner": "ops", platform.LabelManaged: "true",
				})),
				modalSandboxIs(ws, "sbx_sandbox.s", modalNoTag("tier")),
				modalOneLive(ws),
			),
		},
		modalImportStep("sbx_sandbox.s"),
	}
}

// Labels are a sandbox's Modal tags, changed in place (SandboxTagsSet)
// through the SDK's default, V2, sandbox API.
func TestAccModalSandboxLabelsInPlace(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	ws, providerConfig := modalAccWorkspace(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: modalFactories(ws),
		CheckDestroy:             modalHoldsNothing(ws, nil),
		Steps:                    modalLabelSteps(ws, providerConfig, true),
	})
}

// The same through the SDK's V1 sandbox path (MODAL_SANDBOX_V2=false, which
// the SDK reads from the process environment, so the test is not parallel):
// create (SandboxCreate, never SandboxCreateV2), labels in place, import,
// destroy.
func TestAccModalSandboxV1(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Setenv("MODAL_SANDBOX_V2", "false")
	ws, providerConfig := modalAccWorkspace(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: modalFactories(ws),
		CheckDestroy:             modalHoldsNothing(ws, nil),
		Steps:                    modalLabelSteps(ws, providerConfig, false),
	})
}
