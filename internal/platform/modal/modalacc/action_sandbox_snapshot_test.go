package modalacc_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
)

// modalActionConfig is a box, the sbx_sandbox_snapshot action of it, and
// a release marker whose every update invokes the action first.
func modalActionConfig(providerConfig, release string) string {
	return providerConfig + modalTemplateHCL("actbox-tpl") + fmt.Sprintf(`
resource "sbx_sandbox" "b" {
  name        = "actbox"
  template_id = sbx_template.t.id
}

action "sbx_sandbox_snapshot" "pre" {
  config {
    sandbox_id = sbx_sandbox.b.id
  }
}

resource "terraform_data" "release" {
  input = %q
  lifecycle {
    action_trigger {
      events  = [before_update]
      actions = [action.sbx_sandbox_snapshot.pre]
    }
  }
}
`, release)
}

// modalActionSnapshots checks that the box at sbx_sandbox.b still runs and
// that its tags record want snapshots (Modal lists none: the provider
// records each in its box's tags), each an Image the fake holds, made from
// that box.
func modalActionSnapshots(ws *modalfake.Workspace, want int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		box, err := modalSandboxAt(s, ws, "sbx_sandbox.b")
		if err != nil {
			return err
		}
		var taken []string
		for k := range box.Tags {
			if id, ok := strings.CutPrefix(k, platform.LabelPrefix+"snapshot."); ok {
				taken = append(taken, id)
			}
		}
		if len(taken) != want {
			return fmt.Errorf("the box %s records %d snapshots, want %d: tags %v", box.ID, len(taken), want, box.Tags)
		}
		for _, id := range taken {
			img, ok := ws.Image(id)
			if !ok || img.FromSandboxID != box.ID || img.Status != "ready" {
				return fmt.Errorf("the fake's image %s (found %t): %+v, want a ready filesystem snapshot of the box %s", id, ok, img, box.ID)
			}
		}
		return nil
	}
}

// On Modal the action takes a filesystem snapshot (an Image; Modal's
// natural kind when include_memory is left out, which leaves the box
// running) of the box before the release changes, in no state: the plan
// after it is empty.
func TestAccModalSandboxSnapshotAction(t *testing.T) {
	acctest.RequireTerraform(t)
	acctest.SkipOnOpenTofu(t, "OpenTofu has no actions: Terraform ≥ 1.14 only")
	t.Parallel()
	ws, providerConfig := modalAccWorkspace(t)
	tplID := new(string)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: modalFactories(ws),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		CheckDestroy:             modalHoldsNothing(ws, []*string{tplID}),
		Steps: []resource.TestStep{
			{
				// Created: before_update does not fire.
				Config:           modalActionConfig(providerConfig, "v1"),
				ConfigPlanChecks: modalEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.CaptureAttr("sbx_template.t", "id", tplID),
					modalActionSnapshots(ws, 0),
				),
			},
			{
				Config:           modalActionConfig(providerConfig, "v2"),
				ConfigPlanChecks: modalEmptyAfterApply,
				Check:            modalActionSnapshots(ws, 1),
			},
		},
	})
}
