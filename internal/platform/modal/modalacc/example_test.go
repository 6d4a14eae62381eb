package modalacc_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
)

// modalExampleLive checks that the fake runs the example's one sandbox as
// main.tf describes it: its sizes, timeouts, memory snapshots, env and
// tags, and its two volumes mounted, the reference one read-only.
func modalExampleLive(ws *modalfake.Workspace) resource.TestCheckFunc {
	return modalSandboxIs(ws, "sbx_sandbox.box", func(sb modalfake.SandboxView) error {
		work, ok1 := ws.Volume("agent-work")
		ref, ok2 := ws.Volume("agent-reference")
		if !ok1 || !ok2 {
			return fmt.Errorf("the fake holds volume agent-work %t and agent-reference %t, want both", ok1, ok2)
		}
		want := map[string]modalfake.MountView{
			"/work":      {VolumeID: work.ID, Path: "/work"},
			"/reference": {VolumeID: ref.ID, Path: "/reference", ReadOnly: true},
		}
		if len(sb.Mounts) != len(want) {
			return fmt.Errorf("mounts %+v, want %+v", sb.Mounts, want)
		}
		for _, m := range sb.Mounts {
			if w, ok := want[m.Path]; !ok || m != w {
				return fmt.Errorf("mounts %+v, want %+v", sb.Mounts, want)
			}
		}
		switch {
		case sb.Name != "agent-1":
			return fmt.Errorf("name %q, want agent-1", sb.Name)
		case sb.TimeoutSecs != 2*3600 || sb.IdleTimeoutSecs != 30*60:
			return fmt.Errorf("timeout %d s and idle timeout %d s, want 7200 and 1800", sb.TimeoutSecs, sb.IdleTimeoutSecs)
		case sb.MilliCPU != 1000 || sb.MemoryMB != 2048:
			return fmt.Errorf("%d milli-CPU and %d MB, want 1000 and 2048", sb.MilliCPU, sb.MemoryMB)
		case !sb.EnableSnapshot:
			return fmt.Errorf("made without enable_snapshot, want it (memory_snapshots = true)")
		case sb.Env["TASK"] != "triage":
			return fmt.Errorf("env TASK = %q, want triage", sb.Env["TASK"])
		}
		return modalTagsHave(map[string]string{"team": "agents"})(sb)
	})
}

// examples/platforms/modal, unchanged, plans and applies against the fake:
// its main.tf is copied beside an override file (override.tf, Terraform's
// own mechanism) that gives the modal block the workspace's token and the
// provider the test serves; then the next plan is empty, and destroy
// removes the sandbox, both volumes, the snapshot's Image and the
// template's Image.
func TestAccModalExample(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	ws, _ := modalAccWorkspace(t)
	dir := acctest.ExampleWithOverride(t, "modal", fmt.Sprintf(`provider "sbx" {
  modal {
    token_id     = %q
    token_secret = %q
    app          = "agents"
  }
}
`, ws.TokenID(), ws.TokenSecret()))
	var templateID, snapshotID string
	resource.Test(t, resource.TestCase{
		CheckDestroy: modalHoldsNothing(ws, []*string{&templateID, &snapshotID}, "agent-work", "agent-reference"),
		Steps: []resource.TestStep{{
			ProtoV6ProviderFactories: modalFactories(ws),
			ConfigDirectory:          config.StaticDirectory(dir),
			ConfigPlanChecks:         modalEmptyAfterApply,
			Check: resource.ComposeAggregateTestCheckFunc(
				acctest.CaptureAttr("sbx_template.agent", "id", &templateID),
				acctest.CaptureAttr("sbx_snapshot.checkpoint", "id", &snapshotID),
				resource.TestCheckResourceAttr("sbx_template.agent", "status", "ready"),
				resource.TestCheckResourceAttr("sbx_sandbox.box", "status", "running"),
				resource.TestCheckResourceAttr("sbx_sandbox.box", "memory_snapshots", "true"),
				resource.TestCheckResourceAttr("sbx_snapshot.checkpoint", "kind", "filesystem"),
				resource.TestCheckResourceAttrSet("sbx_snapshot.checkpoint", "expires_at"),
				resource.TestCheckResourceAttr("sbx_volume.work", "id", "agent-work"),
				modalExampleLive(ws),
				modalTemplateBuilt(ws, "sbx_template.agent", "python:3.12-slim",
					"RUN pip install --no-cache-dir requests", "ENV AGENT_HOME=/work"),
				modalSnapshotImage(ws, "sbx_snapshot.checkpoint", "sbx_sandbox.box", 72*3600),
			),
		}},
	})
}

// modalTemplateBuilt checks the fake's Image behind the template at addr:
// built (ready), its Dockerfile commands exactly commands followed by the
// LABEL of the create's marks (the provider's last layer, which makes the
// Image the template's own), and built on an Image of the registry image
// base (the Dockerfile's FROM line).
func modalTemplateBuilt(ws *modalfake.Workspace, addr, base string, commands ...string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		id, err := acctest.ResourceID(s, addr)
		if err != nil {
			return err
		}
		img, ok := ws.Image(id)
		if !ok {
			return fmt.Errorf("the fake holds no image %s (%s)", id, addr)
		}
		if img.Status != "ready" {
			return fmt.Errorf("the fake's image %s (%s) is %s (%s), want ready", id, addr, img.Status, img.Exception)
		}
		// The SDK writes its own FROM line (naming the base Image) first.
		got := img.DockerfileCommands
		if len(got) < len(commands)+1 || !slices.Equal(got[len(got)-len(commands)-1:len(got)-1], commands) {
			return fmt.Errorf("the fake's image %s (%s) has commands %q, want them to end with %q and the marks' LABEL", id, addr, got, commands)
		}
		if last := got[len(got)-1]; !strings.HasPrefix(last, "LABEL ") || !strings.Contains(last, "sbx.terraform.create-token=") {
			return fmt.Errorf("the fake's image %s (%s) ends with %q, want the LABEL of the create's marks", id, addr, last)
		}
		baseImg, ok := ws.Image(img.BaseImageID)
		if !ok || !slices.Contains(baseImg.DockerfileCommands, "FROM "+base) {
			return fmt.Errorf("the fake's image %s (%s) is built on %q (commands %q), want an Image of FROM %s",
				id, addr, img.BaseImageID, baseImg.DockerfileCommands, base)
		}
		return nil
	}
}

// modalSnapshotImage checks that the snapshot at addr is a filesystem
// snapshot on the fake: an Image made from the sandbox at source, with a
// ttl of ttlSecs.
func modalSnapshotImage(ws *modalfake.Workspace, addr, source string, ttlSecs int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		id, err := acctest.ResourceID(s, addr)
		if err != nil {
			return err
		}
		srcID, err := acctest.ResourceID(s, source)
		if err != nil {
			return err
		}
		img, ok := ws.Image(id)
		if !ok {
			return fmt.Errorf("the fake holds no image %s (%s)", id, addr)
		}
		if img.FromSandboxID != srcID || int(img.TTL.Seconds()) != ttlSecs {
			return fmt.Errorf("the fake's image %s (%s) is from sandbox %q with ttl %s, want from %s with ttl %d s",
				id, addr, img.FromSandboxID, img.TTL, srcID, ttlSecs)
		}
		return nil
	}
}
