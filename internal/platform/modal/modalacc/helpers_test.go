package modalacc_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

// modalAccApp is the Modal app every test's sandboxes belong to.
const modalAccApp = "sbx-acc"

// modalAccImage is the registry image the tests' templates build from: it
// stands for the quickstart agent image (the fake runs nothing).
const modalAccImage = "ghcr.io/sbxhq/sbx-agent:1.0"

// modalPlatforms are the provider's platforms with Modal among them,
// whether or not the provider's own list (provider.Platforms) names it yet.
func modalPlatforms() []platform.Definition {
	defs := platforms.All()
	for _, d := range defs {
		if d.Name == "modal" {
			return defs
		}
	}
	return append(defs, modal.Definition())
}

// modalFactories serves the provider, Modal registered, to the terraform
// CLI. Its waits end at once (acctest.NoWaitHooks; the SDK's own waits for
// Modal's retry policy are the SDK's and stay real), and it judges
// retention deadlines on the workspace's clock, so a test that moves that
// clock (ws.Advance) moves the provider's too: both agree on when a
// sandbox's timeout has passed.
func modalFactories(ws *modalfake.Workspace) map[string]func() (tfprotov6.ProviderServer, error) {
	return acctest.Factories(provider.NewWithOptions("test", modalOptions(ws)))
}

func modalOptions(ws *modalfake.Workspace) provider.Options {
	return provider.Options{Platforms: modalPlatforms(), Hooks: acctest.NoWaitHooks(), Clock: ws}
}

// modalAccWorkspace gives the test a workspace of its own on the fake and
// the provider block pointing at it. The workspace's cleanup fails the test
// on any RPC the fake does not implement and any request violating
// Modal's protocol.
func modalAccWorkspace(t *testing.T) (*modalfake.Workspace, string) {
	t.Helper()
	ws := modalFake.NewWorkspace(t)
	return ws, modalProviderBlock(ws)
}

// modalProviderBlock is the provider block of ws; extra lines go into the
// provider block itself (outside modal {}).
func modalProviderBlock(ws *modalfake.Workspace, extra ...string) string {
	return fmt.Sprintf("provider \"sbx\" {\n%s\n  modal {\n    token_id     = %q\n    token_secret = %q\n    app          = %q\n  }\n}\n",
		strings.Join(extra, "\n"), ws.TokenID(), ws.TokenSecret(), modalAccApp)
}

// modalTemplateHCL is sbx_template.t, an Image of modalAccImage.
func modalTemplateHCL(name string) string {
	return fmt.Sprintf("resource \"sbx_template\" \"t\" {\n  name  = %q\n  image = %q\n}\n", name, modalAccImage)
}

// modalUnreported are the attributes of kind ("sandbox", "template",
// "snapshot", "volume") that Modal's attribute table marks Unreported: the
// SDK does not report them, so an import cannot read them back and the
// import's state is compared without them. Nested rows
// ("volume_mount.read_only") are covered by their top-level attribute
// (ImportStateVerifyIgnore matches prefixes). The list follows the table,
// so a row that becomes reported is compared from then on.
func modalUnreported(kind string) []string {
	ignore := []string{"timeouts"}
	for key, a := range modal.Definition().Capabilities().Attributes {
		rest, ok := strings.CutPrefix(key, kind+".")
		if !ok || !a.Unreported {
			continue
		}
		top, _, _ := strings.Cut(rest, ".")
		if !slices.Contains(ignore, top) {
			ignore = append(ignore, top)
		}
	}
	slices.Sort(ignore)
	return ignore
}

// modalEmptyAfterApply is the plan check every applying step makes: once
// applied and refreshed, the configuration plans nothing.
var modalEmptyAfterApply = resource.ConfigPlanChecks{
	PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
}

// modalPlans is the plan checks of a step whose plan does exactly action
// to addr, and after which the configuration plans nothing.
func modalPlans(addr string, action plancheck.ResourceActionType) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{
		PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, action)},
		PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
	}
}

// modalImportStep imports addr and compares it with the state Terraform
// made, but for what Modal does not report (modalUnreported).
func modalImportStep(addr string) resource.TestStep {
	kind := strings.TrimPrefix(strings.SplitN(addr, ".", 2)[0], "sbx_")
	return resource.TestStep{
		ResourceName:            addr,
		ImportState:             true,
		ImportStateVerify:       true,
		ImportStateVerifyIgnore: modalUnreported(kind),
	}
}

// modalLive are the workspace's sandboxes that have not finished.
func modalLive(ws *modalfake.Workspace) []modalfake.SandboxView {
	var live []modalfake.SandboxView
	for _, sb := range ws.Sandboxes() {
		if !sb.Finished {
			live = append(live, sb)
		}
	}
	return live
}

// modalOneLive checks that exactly one sandbox runs on the fake.
func modalOneLive(ws *modalfake.Workspace) resource.TestCheckFunc {
	const want = 1
	return func(*terraform.State) error {
		if live := modalLive(ws); len(live) != want {
			var ids []string
			for _, sb := range live {
				ids = append(ids, fmt.Sprintf("%s (%s)", sb.ID, sb.Name))
			}
			return fmt.Errorf("the fake runs %d sandboxes, want %d: %s", len(live), want, strings.Join(ids, ", "))
		}
		return nil
	}
}

// modalSandboxAt is the fake's running sandbox behind addr in the state.
func modalSandboxAt(s *terraform.State, ws *modalfake.Workspace, addr string) (modalfake.SandboxView, error) {
	id, err := acctest.ResourceID(s, addr)
	if err != nil {
		return modalfake.SandboxView{}, err
	}
	sb, ok := ws.Sandbox(id)
	if !ok {
		return modalfake.SandboxView{}, fmt.Errorf("the fake holds no sandbox %s (%s)", id, addr)
	}
	if sb.Finished {
		return sb, fmt.Errorf("the fake's sandbox %s (%s) has finished (%s, exit code %d), want it running", id, addr, sb.Status, sb.ExitCode)
	}
	return sb, nil
}

// modalSandboxIs checks the fake's running sandbox behind addr with check.
func modalSandboxIs(ws *modalfake.Workspace, addr string, check func(modalfake.SandboxView) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		sb, err := modalSandboxAt(s, ws, addr)
		if err != nil {
			return err
		}
		if err := check(sb); err != nil {
			return fmt.Errorf("the fake's sandbox %s (%s): %w", sb.ID, addr, err)
		}
		return nil
	}
}

// modalSameID checks that addr still has the id *id holds (no replacement).
func modalSameID(addr string, id *string) resource.TestCheckFunc {
	return resource.TestCheckResourceAttrWith(addr, "id", func(v string) error {
		if v != *id {
			return fmt.Errorf("%s has the id %s, want %s (it was replaced)", addr, v, *id)
		}
		return nil
	})
}

// modalTagsHave checks that the sandbox's Modal tags hold want.
func modalTagsHave(want map[string]string) func(modalfake.SandboxView) error {
	return func(sb modalfake.SandboxView) error {
		for k, v := range want {
			if got, ok := sb.Tags[k]; !ok || got != v {
				return fmt.Errorf("tag %s is %q (set %t), want %q; tags %v", k, got, ok, v, sb.Tags)
			}
		}
		return nil
	}
}

// modalHoldsNothing is a CheckDestroy: after destroy no sandbox runs on
// the fake, and none of the images (templates, filesystem snapshots) and
// volumes (by name) the test captured is left.
func modalHoldsNothing(ws *modalfake.Workspace, images []*string, volumes ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		var left []string
		for _, sb := range modalLive(ws) {
			left = append(left, fmt.Sprintf("sandbox %s (%s)", sb.ID, sb.Name))
		}
		for _, id := range images {
			if *id == "" {
				continue
			}
			if _, ok := ws.Image(*id); ok {
				left = append(left, "image "+*id)
			}
		}
		for _, name := range volumes {
			if _, ok := ws.Volume(name); ok {
				left = append(left, "volume "+name)
			}
		}
		if len(left) > 0 {
			return fmt.Errorf("after destroy the fake still holds:\n%s", strings.Join(left, "\n"))
		}
		return nil
	}
}

// diagRecorder serves the provider and keeps the diagnostics its
// ReadResource answers carry (the warnings of a refresh, which the testing
// framework does not expose), so a test can check what the user is told.
type diagRecorder struct {
	mu    sync.Mutex
	diags []string
}

// factories serves the provider built with opts through the recorder.
func (r *diagRecorder) factories(opts provider.Options) map[string]func() (tfprotov6.ProviderServer, error) {
	inner := acctest.Factories(provider.NewWithOptions("test", opts))[acctest.ProviderName]
	return map[string]func() (tfprotov6.ProviderServer, error){
		acctest.ProviderName: func() (tfprotov6.ProviderServer, error) {
			srv, err := inner()
			if err != nil {
				return nil, err
			}
			return &recordingServer{ProviderServer: srv, r: r}, nil
		},
	}
}

// warnings are the recorded warnings of resource type typ, as
// "summary: detail".
func (r *diagRecorder) warnings(typ string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, d := range r.diags {
		if rest, ok := strings.CutPrefix(d, typ+"\x00"); ok {
			out = append(out, rest)
		}
	}
	return out
}

type recordingServer struct {
	tfprotov6.ProviderServer
	r *diagRecorder
}

func (s *recordingServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	resp, err := s.ProviderServer.ReadResource(ctx, req)
	if resp != nil {
		s.r.mu.Lock()
		for _, d := range resp.Diagnostics {
			if d != nil && d.Severity == tfprotov6.DiagnosticSeverityWarning {
				s.r.diags = append(s.r.diags, req.TypeName+"\x00"+d.Summary+": "+d.Detail)
			}
		}
		s.r.mu.Unlock()
	}
	return resp, err
}
