package provider

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/client"
	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// sandboxReadyAccTemplateHCL is sbx_template.t building the test agent, with
// extra lines (start_cmd, ready_cmd).
func sandboxReadyAccTemplateHCL(t *testing.T, name, extra string) string {
	return fmt.Sprintf(`
resource "sbx_template" "t" {
  name        = %q
  context_dir = %q
  dockerfile  = <<-EOT
%sEOT
%s
}
`, name, acctest.AgentContextDir(t), acctest.AgentDockerfile, extra)
}

// sandboxReadyAccBox is sbx_sandbox.test from sbx_template.t, with extra lines.
func sandboxReadyAccBox(name, extra string) string {
	return fmt.Sprintf(`
resource "sbx_sandbox" "test" {
  name        = %q
  template_id = sbx_template.t.id
%s
}
`, name, extra)
}

// sandboxReadyAccTainted checks the plan's prior state: the box a failed
// create left is in it, tainted, with the given status, and its container
// really is in the engine state platformStatus. With the configuration
// unchanged, a planned replacement is then the taint's, and nothing else
// (such as a perpetual state update) is planned.
type sandboxReadyAccTainted struct {
	t                      *testing.T
	status, platformStatus string
	exitCode               int
}

func (c sandboxReadyAccTainted) CheckPlan(ctx context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	if req.Plan.PriorState == nil || req.Plan.PriorState.Values == nil {
		resp.Error = fmt.Errorf("the plan has no prior state")
		return
	}
	for _, r := range req.Plan.PriorState.Values.RootModule.Resources {
		if r.Address != sandboxAccAddr {
			continue
		}
		if !r.Tainted {
			resp.Error = fmt.Errorf("%s is in the state but not tainted", r.Address)
			return
		}
		if status := r.AttributeValues["status"]; status != c.status {
			resp.Error = fmt.Errorf("%s has status %v, want %s", r.Address, status, c.status)
			return
		}
		id, _ := r.AttributeValues["id"].(string)
		ctr, err := acctest.DockerClient(c.t).ContainerInspect(ctx, id)
		if err != nil {
			resp.Error = fmt.Errorf("the tainted box's container: %w", err)
			return
		}
		if ctr.State.Status != c.platformStatus || ctr.State.ExitCode != c.exitCode {
			resp.Error = fmt.Errorf("container %s is %s with exit code %d, want %s with %d",
				id, ctr.State.Status, ctr.State.ExitCode, c.platformStatus, c.exitCode)
		}
		return
	}
	resp.Error = fmt.Errorf("%s is not in the state: the failed create orphaned its box", sandboxAccAddr)
}

// TestAccSandbox_commandExitsAtOnce: a box whose command exits at once fails
// its create with the exit code and the command's last log lines, instead
// of an apply that succeeds and a plan that shows state "stopped" ->
// "running" forever. The box is kept in the state, tainted (the next plan
// replaces it), and destroyed with the rest.
func TestAccSandbox_commandExitsAtOnce(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-sandbox-exits")
	config := sandboxReadyAccTemplateHCL(t, name, `  start_cmd = "/agent cat /nonexistent"`) + sandboxReadyAccBox(name, "")
	tainted := sandboxReadyAccTainted{t: t, status: "stopped", platformStatus: "exited", exitCode: 1}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             sandboxAccCheckDestroy(t, name),
		Steps: []resource.TestStep{
			{
				Config: config,
				ExpectError: acctest.ErrorPattern(`(?s)Failed to create sandbox .*its command exited with code 1 right after it started` +
					`.*Its last log lines: .*open /nonexistent: no such file or directory`),
			},
			{
				Config:             config,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPreRefresh: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(sandboxAccAddr, plancheck.ResourceActionDestroyBeforeCreate), tainted,
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(sandboxAccAddr, plancheck.ResourceActionDestroyBeforeCreate), tainted,
					},
				},
			},
		},
	})
}

// TestAccSandbox_readyCmdNeverPasses: a ready_cmd that always fails ends the
// create as soon as the engine marks the box unhealthy, quoting the check's
// last output, instead of waiting out the create timeout. The error says
// which ended it: the engine's verdict (its ready_cmd failed 3 times), not
// the timeout (the box "is not ready"); how long it took is not checked.
func TestAccSandbox_readyCmdNeverPasses(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-sandbox-unready")
	// Docker's verdict comes after the start period and three failed
	// checks, about 33 s; the timeout is ten times that, so that a slow
	// engine still gives its verdict first.
	const createTimeout = 6 * time.Minute
	template := sandboxReadyAccTemplateHCL(t, name, `  ready_cmd = "/agent cat /nonexistent"`)
	config := template + sandboxReadyAccBox(name, fmt.Sprintf(`  timeouts {
    create = %q
  }`, createTimeout))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             sandboxAccCheckDestroy(t, name),
		Steps: []resource.TestStep{
			{Config: template},
			{
				Config: config,
				ExpectError: acctest.ErrorPattern(`(?s)Failed to create sandbox .*it will not become ready: its ready_cmd failed 3 times in a row` +
					`.*last ready_cmd exit code 1, output "open /nonexistent: no such file or directory"`),
			},
			{
				Config:             config,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(sandboxAccAddr, plancheck.ResourceActionDestroyBeforeCreate),
						sandboxReadyAccTainted{t: t, status: "running", platformStatus: "running"},
					},
				},
			},
		},
	})
}

// sandboxReadyAccBreakAgent stops the box out of band and replaces the
// agent's ready marker with a directory, so the agent exits with code 1 at
// every later start ("open /.agent-ready: is a directory").
func sandboxReadyAccBreakAgent(ctx context.Context, api *client.Client, id string) error {
	timeout := 10
	if err := api.ContainerStop(ctx, id, container.StopOptions{Timeout: &timeout}); err != nil {
		return err
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	if err := tw.WriteHeader(&tar.Header{Name: ".agent-ready/", Typeflag: tar.TypeDir, Mode: 0o755}); err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return api.CopyToContainer(ctx, id, "/", &buf, container.CopyToContainerOptions{AllowOverwriteDirWithFile: true})
}

// TestAccSandbox_restartExitsAgain: a box stopped out of band whose command
// now exits at every start is not "started" by an apply that succeeds and
// leaves it stopped (a loop of identical plans): the apply fails with the
// exit code and the log, and the next plan still shows the box stopped.
func TestAccSandbox_restartExitsAgain(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-sandbox-restart")
	config := sandboxAccConfig(t, name, "running", "")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             sandboxAccCheckDestroy(t, name),
		Steps: []resource.TestStep{
			{
				Config: config,
				Check:  sandboxAccCheckContainer(t, "running"),
			},
			{
				PreConfig: func() {
					id := sandboxReadyAccContainerID(t, name)
					if err := sandboxReadyAccBreakAgent(context.Background(), acctest.DockerClient(t), id); err != nil {
						t.Fatalf("breaking the agent of %s: %v", id, err)
					}
				},
				Config: config,
				ExpectError: acctest.ErrorPattern(`(?s)Failed to change the state of sandbox .*its command exited with code 1 right after it started` +
					`.*Its last log lines: .*agent: open /.agent-ready: is a directory`),
			},
			{
				Config:             config,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(sandboxAccAddr, plancheck.ResourceActionUpdate),
						sandboxReadyAccStateChange{from: "stopped", to: "running"},
					},
				},
			},
		},
	})
}

// sandboxReadyAccStateChange checks that the plan moves the box's state
// from one value to another.
type sandboxReadyAccStateChange struct{ from, to string }

func (c sandboxReadyAccStateChange) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != sandboxAccAddr {
			continue
		}
		before, _ := rc.Change.Before.(map[string]any)
		after, _ := rc.Change.After.(map[string]any)
		if before["state"] != c.from || after["state"] != c.to {
			resp.Error = fmt.Errorf("%s: state %v -> %v, want %s -> %s", rc.Address, before["state"], after["state"], c.from, c.to)
		}
		return
	}
	resp.Error = fmt.Errorf("%s has no planned change", sandboxAccAddr)
}

// sandboxReadyAccContainerID is the id of the container named name.
func sandboxReadyAccContainerID(t *testing.T, name string) string {
	t.Helper()
	c, err := acctest.DockerClient(t).ContainerInspect(context.Background(), name)
	if err != nil {
		t.Fatalf("inspecting %s: %v", name, err)
	}
	return c.ID
}
