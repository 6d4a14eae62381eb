package modalacc_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	modalsdk "github.com/modal-labs/modal-client/go"
	"google.golang.org/grpc/codes"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
)

// modalMemoryRestoreHCL is a memory snapshot of sbx_sandbox.src and
// sbx_sandbox.restored started from it, named name ("": no name).
func modalMemoryRestoreHCL(name string) string {
	nameLine := ""
	if name != "" {
		nameLine = fmt.Sprintf("  name             = %q\n", name)
	}
	return `
resource "sbx_snapshot" "snap" {
  sandbox_id     = sbx_sandbox.src.id
  include_memory = true
}

resource "sbx_sandbox" "restored" {
` + nameLine + `  from_snapshot_id = sbx_snapshot.snap.id
}
`
}

// modalRestoredIs checks that the fake runs exactly one box restored from
// a memory snapshot, the one sbx_sandbox.restored holds in the state.
func modalRestoredIs(ws *modalfake.Workspace, check func(modalfake.SandboxView) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		id, err := acctest.ResourceID(s, "sbx_sandbox.restored")
		if err != nil {
			return err
		}
		var restored []modalfake.SandboxView
		for _, sb := range modalLive(ws) {
			if sb.RestoredFrom != "" {
				restored = append(restored, sb)
			}
		}
		if len(restored) != 1 || restored[0].ID != id {
			return fmt.Errorf("the fake runs restored sandboxes %+v, want exactly one: %s (the state's)", restored, id)
		}
		return check(restored[0])
	}
}

// The answers of a memory restore (SandboxRestoreV2) are all lost: the
// SDK's first attempt and its three retries. The provider finds the box
// under the name it restored it with (the configured one, or one made of
// the create token) and tags it: the apply succeeds with exactly one
// restored box, in the state, its name attribute as configured, and
// destroy leaves nothing running. Before, the apply failed with the raw
// UNAVAILABLE and the next one restored a second box.
func TestAccModalMemoryRestoreAnswerLost(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	for _, name := range []string{"", "lost-restore"} {
		t.Run(fmt.Sprintf("name=%q", name), func(t *testing.T) {
			t.Parallel()
			ws, providerConfig := modalAccWorkspace(t)
			base := providerConfig + modalTemplateHCL("lost-restore-tpl") + modalSnapSourceHCL(true)
			nameCheck := resource.TestCheckNoResourceAttr("sbx_sandbox.restored", "name")
			if name != "" {
				nameCheck = resource.TestCheckResourceAttr("sbx_sandbox.restored", "name", name)
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: modalFactories(ws),
				CheckDestroy:             modalHoldsNothing(ws, nil),
				Steps: []resource.TestStep{
					{Config: base, ConfigPlanChecks: modalEmptyAfterApply},
					{
						PreConfig: func() {
							ws.Sequence("SandboxRestoreV2", modalfake.Step{DropAnswer: true}, modalfake.Step{DropAnswer: true},
								modalfake.Step{DropAnswer: true}, modalfake.Step{DropAnswer: true})
						},
						Config: base + modalMemoryRestoreHCL(name),
						// The memory snapshot ended the source sandbox (Modal
						// does): the plan after the apply creates it again.
						ExpectNonEmptyPlan: true,
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PostApplyPostRefresh: []plancheck.PlanCheck{
								plancheck.ExpectResourceAction("sbx_sandbox.src", plancheck.ResourceActionCreate),
								plancheck.ExpectResourceAction("sbx_sandbox.restored", plancheck.ResourceActionNoop),
							},
						},
						Check: resource.ComposeAggregateTestCheckFunc(
							nameCheck,
							resource.TestCheckResourceAttr("sbx_sandbox.restored", "status", "running"),
							modalRestoredIs(ws, func(sb modalfake.SandboxView) error {
								if sb.Tags[platform.LabelManaged] != "true" || sb.Tags[platform.LabelCreateToken] == "" {
									return fmt.Errorf("the restored sandbox %s is not tagged by the provider: %v", sb.ID, sb.Tags)
								}
								return nil
							}),
							func(*terraform.State) error {
								if n := ws.Calls("SandboxRestoreV2"); n != 4 {
									return fmt.Errorf("the fake got %d SandboxRestoreV2 calls, want 4 (the SDK's, the restore never sent again)", n)
								}
								return nil
							},
						),
					},
				},
			})
		})
	}
}

// A named restore whose name a sandbox made outside the provider holds
// fails before restoring anything, naming that sandbox and the import
// command that takes it over, never with Modal's bare AlreadyExists.
func TestAccModalMemoryRestoreNameTaken(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	ws, providerConfig := modalAccWorkspace(t)
	base := providerConfig + modalTemplateHCL("taken-restore-tpl") + modalSnapSourceHCL(true)
	byHand := modalSandboxByHand(t, ws, "taken-restore")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: modalFactories(ws),
		CheckDestroy: func(s *terraform.State) error {
			// The box made by hand is the test's to end; nothing else may run.
			if err := ws.TerminateSandbox(byHand); err != nil {
				return fmt.Errorf("the sandbox made by hand, %s: %w", byHand, err)
			}
			return modalHoldsNothing(ws, nil)(s)
		},
		Steps: []resource.TestStep{
			{Config: base, ConfigPlanChecks: modalEmptyAfterApply},
			{
				Config: base + modalMemoryRestoreHCL("taken-restore"),
				ExpectError: acctest.ErrorPattern(`(?s)a sandbox named "taken-restore" already exists and this create did not make it ` +
					`\(made outside the provider \(no sbx tags\)\).*terraform import <this resource's address> ` + regexp.QuoteMeta(byHand)),
			},
		},
	})
	if n := ws.Calls("SandboxRestoreV2"); n != 0 {
		t.Errorf("the fake got %d SandboxRestoreV2 calls, want none: the name was taken before the restore", n)
	}
}

// A restored box whose tagging fails (SandboxTagsSetV2 failing past the
// SDK's retries) is saved in the state with the error: a refresh finds it
// there, and destroy ends it, so nothing is left running.
func TestAccModalMemoryRestoreTaggingFails(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	ws, providerConfig := modalAccWorkspace(t)
	base := providerConfig + modalTemplateHCL("untagged-restore-tpl") + modalSnapSourceHCL(true)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: modalFactories(ws),
		CheckDestroy:             modalHoldsNothing(ws, nil),
		Steps: []resource.TestStep{
			{Config: base, ConfigPlanChecks: modalEmptyAfterApply},
			{
				// The first SandboxTagsSetV2 is the snapshot's record in
				// its source's tags (snapshots.go); the restored box's
				// tagging then fails, past the SDK's three retries.
				PreConfig: func() {
					fail := modalfake.Step{Code: codes.Internal}
					ws.Sequence("SandboxTagsSetV2", modalfake.Step{}, fail, fail, fail, fail)
				},
				Config:      base + modalMemoryRestoreHCL(""),
				ExpectError: acctest.ErrorPattern(`tagging the restored sandbox sb-`),
			},
			{
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check:              modalRestoredIs(ws, func(modalfake.SandboxView) error { return nil }),
			},
		},
	})
}

// modalSandboxByHand makes a running sandbox named name in the tests' app
// as another Modal client would: through the SDK, with no tags.
func modalSandboxByHand(t *testing.T, ws *modalfake.Workspace, name string) string {
	t.Helper()
	ctx := context.Background()
	client, err := modalsdk.NewClientWithOptions(&modalsdk.ClientParams{TokenID: ws.TokenID(), TokenSecret: ws.TokenSecret()})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	app, err := client.Apps.FromName(ctx, modalAccApp, &modalsdk.AppFromNameParams{CreateIfMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	img, err := client.Images.FromRegistry(modalAccImage, nil).Build(ctx, app, nil)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := client.Sandboxes.Create(ctx, app, img, &modalsdk.SandboxCreateParams{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return sb.SandboxID
}
