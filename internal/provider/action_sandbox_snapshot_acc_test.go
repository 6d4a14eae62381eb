package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/docker/docker/api/types/image"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	sbxacctest "github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// snapshotTakenRE finds the id in the action's progress message.
var snapshotTakenRE = regexp.MustCompile(`Snapshot "([^"]+)" taken`)

// sandboxSnapshotActionHCL is a template, a box, the action snapshotting
// it (with extra lines in its config), and a release marker whose every
// update invokes the action first.
func sandboxSnapshotActionHCL(t *testing.T, name, release, extra string) string {
	return sandboxAccTemplateHCL(t, name) + fmt.Sprintf(`
resource "sbx_sandbox" "box" {
  name        = %[1]q
  template_id = sbx_template.t.id
}

action "sbx_sandbox_snapshot" "pre" {
  config {
    sandbox_id = sbx_sandbox.box.id
    labels     = { run = %[1]q }
%[3]s
  }
}

resource "terraform_data" "release" {
  input = %[2]q
  lifecycle {
    action_trigger {
      events  = [before_update]
      actions = [action.sbx_sandbox_snapshot.pre]
    }
  }
}
`, name, release, extra)
}

// The action takes a snapshot when invoked from the command line and when
// a resource's action_trigger fires, leaves every state as it was (the
// next plan is empty), and the snapshots it took are found by the data
// sources; an argument the platform cannot honour fails the plan, naming it.
func TestAccSandboxSnapshotAction_docker(t *testing.T) {
	sbxacctest.SkipOnOpenTofu(t, "OpenTofu has no actions: Terraform ≥ 1.14 only")
	sbxacctest.SkipBelowTerraform(t, 1, 14)
	sbxacctest.RequireDocker(t)
	name := acctest.RandomWithPrefix("tf-acc-action")
	cli := sbxacctest.DockerClient(t)
	var taken []string
	s := sbxacctest.NewOtherState(t, New("test"))
	// Registered after the state's destroy, so run before it: the
	// snapshots are in no state, and the template cannot go before them.
	t.Cleanup(func() {
		for _, id := range taken {
			_, _ = cli.ImageRemove(context.Background(), id, image.RemoveOptions{Force: true, PruneChildren: true})
		}
	})
	run := s.MustRun
	took := func(out string) string {
		t.Helper()
		m := snapshotTakenRE.FindAllStringSubmatch(out, -1)
		if len(m) != 1 {
			t.Fatalf("want one snapshot taken, found %d in:\n%s", len(m), out)
		}
		id := m[0][1]
		if _, err := cli.ImageInspect(context.Background(), id); err != nil {
			t.Fatalf("the snapshot %s the action reported is not on the engine: %v", id, err)
		}
		taken = append(taken, id)
		return id
	}

	s.Apply(sandboxSnapshotActionHCL(t, name, "v1", `    name = "`+name+`-pre"`))
	if out, err := s.Run("plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
		t.Fatalf("the plan after the first apply is not empty (%v):\n%s", err, out)
	}

	// Invoked by hand: one snapshot, no change to any state.
	out := run("apply", "-auto-approve", "-input=false", "-no-color", "-invoke=action.sbx_sandbox_snapshot.pre")
	t.Logf("terraform apply -invoke:\n%s", out)
	first := took(out)
	if !strings.Contains(out, "terraform import sbx_snapshot.<name> "+first) {
		t.Errorf("the invocation does not say how to manage the snapshot:\n%s", out)
	}
	if out, err := s.Run("plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
		t.Fatalf("the plan after the invocation is not empty (%v):\n%s", err, out)
	}

	// Triggered: the release's update snapshots the box first.
	out, err := s.TryApply(sandboxSnapshotActionHCL(t, name, "v2", ""))
	if err != nil {
		t.Fatalf("apply of the release update: %v\n%s", err, out)
	}
	t.Logf("terraform apply of the release update:\n%s", out)
	second := took(out)
	if second == first {
		t.Fatalf("the trigger reported the first snapshot %s again", first)
	}
	if !strings.Contains(out, "0 added, 1 changed, 0 destroyed") {
		t.Errorf("the triggered apply changed more than the release:\n%s", out)
	}

	// Both are snapshots of the box, found by their label.
	s.Apply(sandboxSnapshotActionHCL(t, name, "v2", "") + fmt.Sprintf(`
data "sbx_snapshots" "run" {
  labels = { run = %q }
}
output "ids" { value = join(",", sort(data.sbx_snapshots.run.ids)) }
output "boxes" { value = join(",", distinct([for s in data.sbx_snapshots.run.snapshots : s.sandbox_id])) }
`, name))
	ids, err := s.Output("output", "-raw", "ids")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{first, second}
	slices.Sort(want)
	if ids != strings.Join(want, ",") {
		t.Errorf("sbx_snapshots with the action's label found %q, want %q", ids, strings.Join(want, ","))
	}
	if boxes, _ := s.Output("output", "-raw", "boxes"); boxes != s.Attr("sbx_sandbox.box", "id") {
		t.Errorf("the snapshots are of %q, want the box %q", boxes, s.Attr("sbx_sandbox.box", "id"))
	}

	// Docker takes no memory snapshots: asking for one fails the plan of
	// the invocation, naming the argument, and takes nothing.
	s.WriteFile("main.tf", sandboxSnapshotActionHCL(t, name, "v2", "    include_memory = true"))
	out, err = s.Run("plan", "-input=false", "-no-color", "-invoke=action.sbx_sandbox_snapshot.pre")
	if err == nil || !strings.Contains(out, "include_memory") || !strings.Contains(out, "docker") {
		t.Fatalf("plan -invoke with include_memory = true on Docker: %v, want an error naming include_memory:\n%s", err, out)
	}
	if m := snapshotTakenRE.FindAllString(out, -1); len(m) != 0 {
		t.Fatalf("the refused invocation took a snapshot:\n%s", out)
	}
}
