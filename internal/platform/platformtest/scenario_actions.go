package platformtest

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// releaseTriggering is a release marker whose every update invokes action
// first (before_update: its create does not).
func releaseTriggering(release, action string) string {
	return fmt.Sprintf(`
resource "terraform_data" "release" {
  input = %q
  lifecycle {
    action_trigger {
      events  = [before_update]
      actions = [%s]
    }
  }
}
`, release, action)
}

// snapshotActionConfig is a box (mounting a volume where the platform
// snapshots volumes only, as its users would), the sbx_sandbox_snapshot
// action of it (named after the release where snapshots have names, which
// may be unique; extra lines in its config), and the release marker.
func snapshotActionConfig(r run, release, extra string) string {
	blocks := []string{r.template()}
	box := []string{}
	if !r.h.Capabilities.Accepts(platform.AttrSnapshotSandboxID) && r.h.Capabilities.Accepts(platform.AttrSnapshotVolumeID) {
		blocks = append(blocks, r.volume("v"))
		box = append(box, "  volume_mount {\n    volume_id = sbx_volume.v.id\n    path      = \"/data\"\n  }")
	}
	name := ""
	if r.h.Capabilities.SnapshotNames {
		name = fmt.Sprintf("    name       = \"%s-pre-%s\"", r.name, release)
	}
	return r.config(append(blocks, r.sandbox("b", box...), fmt.Sprintf(`
action "sbx_sandbox_snapshot" "pre" {
  config {
    sandbox_id = sbx_sandbox.b.id
%s
%s
  }
}
`, name, extra), releaseTriggering(release, "action.sbx_sandbox_snapshot.pre"))...)
}

// snapshotsOfBox checks the snapshots the platform holds of the box at
// sbx_sandbox.b: want of them (named names, where snapshots have names),
// each ready, and the box still running. taken gets their ids (not
// Terraform's to destroy). Where the kit cannot say which snapshots are of
// a box, it counts the instance's snapshots (an instance is the test's own).
func snapshotsOfBox(t *testing.T, in *Instance, taken *[]string, names ...string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources["sbx_sandbox.b"]
		if !ok {
			return fmt.Errorf("sbx_sandbox.b is not in the state")
		}
		box := rs.Primary.ID
		var got []TakenSnapshot
		if rec, ok := in.OutOfBand.(SnapshotRecorder); ok {
			got = rec.SnapshotsOf(t, box)
		} else {
			for _, o := range in.Objects(t) {
				if o.Kind == KindSnapshot {
					got = append(got, TakenSnapshot{ID: o.ID, Name: o.Name, Ready: true})
				}
			}
		}
		if len(got) != len(names) {
			return fmt.Errorf("%s holds %d snapshots of the box %s, want %d: %+v", in.Name, len(got), box, len(names), got)
		}
		*taken = (*taken)[:0]
		for _, sn := range got {
			*taken = append(*taken, sn.ID)
			if !sn.Ready {
				return fmt.Errorf("the snapshot %s of the box %s is not ready: %+v", sn.ID, box, sn)
			}
			if in.Capabilities.SnapshotNames && !slices.Contains(names, sn.Name) && sn.Name != "" {
				return fmt.Errorf("the snapshot %s of the box %s is named %q, want one of %v", sn.ID, box, sn.Name, names)
			}
		}
		if st := in.OutOfBand.SandboxState(t, box); st != platform.StateRunning {
			return fmt.Errorf("the box %s is %s after the snapshot, want running", box, st)
		}
		return nil
	}
}

// testSnapshotAction: the sbx_sandbox_snapshot action takes the
// platform's natural snapshot of the box before the release changes, in no
// state (the plan after it is empty), and the box keeps running; an
// argument the platform cannot honour (ttl, the other include_memory)
// fails the plan naming it, and the refused plan takes nothing. Where the
// platform does not snapshot boxes, the action's plan fails naming
// sandbox_id and saying why, before anything is snapshotted or updated.
func testSnapshotAction(t *testing.T, in *Instance, f Factories) {
	acctest.SkipOnOpenTofu(t, "OpenTofu has no actions: Terraform ≥ 1.14 only")
	needsTemplate(t, in)
	r := newRun(newHarness(in, f))
	caps := in.Capabilities
	ids := map[string]string{}
	var taken []string
	keep := func() []*string {
		out := make([]*string, len(taken))
		for i := range taken {
			out[i] = &taken[i]
		}
		return out
	}
	empty := emptyPlanAfterApply()
	var steps []resource.TestStep
	if !caps.Accepts(platform.AttrSnapshotSandboxID) {
		steps = []resource.TestStep{
			{Config: snapshotActionConfig(r, "v1", ""), ConfigPlanChecks: empty, Check: resource.ComposeAggregateTestCheckFunc(
				recordIDs(ids, "sbx_template.t"), snapshotsOfBox(t, in, &taken))},
			{
				Config: snapshotActionConfig(r, "v2", ""),
				ExpectError: acctest.ErrorPattern(fmt.Sprintf(`(?s)Failed to plan action .*sandbox_id = "[^"]+" is not supported on %s: %s`,
					in.Name, regexp.QuoteMeta(caps.Attribute(platform.AttrSnapshotSandboxID).Why))),
			},
			{Config: snapshotActionConfig(r, "v1", ""), ConfigPlanChecks: empty, Check: snapshotsOfBox(t, in, &taken)},
		}
	} else {
		v2 := r.name + "-pre-v2"
		steps = []resource.TestStep{
			{Config: snapshotActionConfig(r, "v1", ""), ConfigPlanChecks: empty, Check: resource.ComposeAggregateTestCheckFunc(
				recordIDs(ids, "sbx_template.t"), snapshotsOfBox(t, in, &taken))},
			{Config: snapshotActionConfig(r, "v2", ""), ConfigPlanChecks: empty, Check: snapshotsOfBox(t, in, &taken, v2)},
		}
		if !caps.Accepts(platform.AttrSnapshotTTL) {
			steps = append(steps, resource.TestStep{
				Config:      snapshotActionConfig(r, "v3", `    ttl = "72h"`),
				ExpectError: acctest.ErrorPattern(fmt.Sprintf(`ttl = "72h" is not supported on %s`, in.Name)),
			})
		}
		for _, memory := range []string{"false", "true"} {
			if !caps.AcceptsValue(platform.AttrSnapshotIncludeMemory, memory) {
				steps = append(steps, resource.TestStep{
					Config:      snapshotActionConfig(r, "v3", "    include_memory = "+memory),
					ExpectError: regexp.MustCompile(fmt.Sprintf(`(?s)include_memory.*%[1]s|(?s)%[1]s.*include_memory`, in.Name)),
				})
			}
		}
		// The refused plans took nothing.
		steps = append(steps, resource.TestStep{
			Config: snapshotActionConfig(r, "v2", ""), ConfigPlanChecks: empty, Check: snapshotsOfBox(t, in, &taken, v2),
		})
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: f,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		CheckDestroy:             func(s *terraform.State) error { return holdsNothing(t, in, r, ids, keep()...)(s) },
		Steps:                    steps,
	})
}

// execActionConfig is a box with an env variable, the sbx_sandbox_exec
// action running command in it (extra lines in its config), and the
// release marker.
func execActionConfig(r run, release, command, extra string) string {
	return r.config(r.template(), r.sandbox("b", `  env = { GREETING = "hello from the box" }`), fmt.Sprintf(`
action "sbx_sandbox_exec" "run" {
  config {
    sandbox_id = sbx_sandbox.b.id
    command    = %s
%s
  }
}
`, command, extra), releaseTriggering(release, "action.sbx_sandbox_exec.run"))
}

// execSecret is the value the scenario passes through the action's env.
const execSecret = "exec-secret-value-4711"

// execRan checks the commands the platform ran in the box at sbx_sandbox.b
// (where the kit's fake records them), in order: each one's argv, and
// where given its directory, its env and its timeout (the action's default
// 300 s unless said).
func execRan(t *testing.T, in *Instance, want ...ExecRun) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rec, ok := in.OutOfBand.(ExecRecorder)
		if !ok {
			t.Logf("%s's kit records no commands: what ran is checked by the apply's outcome only", in.Name)
			return nil
		}
		box := s.RootModule().Resources["sbx_sandbox.b"].Primary.ID
		runs := rec.ExecRuns(t, box)
		if n := len(want); n > 0 && want[n-1].Killed && len(runs) == n-1 {
			// A fake that records a command when it answers (Fly's) has
			// no record of one the client gave up on at its timeout.
			want = want[:n-1]
		}
		if len(runs) != len(want) {
			var cmds [][]string
			for _, r := range runs {
				cmds = append(cmds, r.Command)
			}
			return fmt.Errorf("%s ran %d commands in %s, want %d: %q", in.Name, len(runs), box, len(want), cmds)
		}
		for i, w := range want {
			got := runs[i]
			timeout := w.TimeoutSecs
			if timeout == 0 {
				timeout = 300
			}
			switch {
			case !slices.Equal(got.Command, w.Command):
				return fmt.Errorf("command %d: %s ran %q, want %q", i, in.Name, got.Command, w.Command)
			case w.Dir != "" && got.Dir != w.Dir:
				return fmt.Errorf("command %d ran in %q, want %q", i, got.Dir, w.Dir)
			case w.Env != nil && !maps.Equal(got.Env, w.Env):
				// Compared, never printed: it holds the secret.
				return fmt.Errorf("command %d was given env variables %v, want %v (or other values)",
					i, slices.Sorted(maps.Keys(got.Env)), slices.Sorted(maps.Keys(w.Env)))
			case got.TimeoutSecs != timeout:
				return fmt.Errorf("command %d was given the timeout %d s, want %d", i, got.TimeoutSecs, timeout)
			case w.Killed && !got.Killed:
				return fmt.Errorf("command %d ran past its timeout and was not killed", i)
			}
		}
		return nil
	}
}

// testExecAction: the sbx_sandbox_exec action runs its argv in the box
// when the release's update triggers it: arguments with spaces and quotes
// arrive as given, with env and working_dir where the platform takes them,
// the next plan empty; a command that exits 4 fails the apply saying so; a
// command past its timeout fails it saying so; env or working_dir a
// platform does not take, or a relative working_dir, fail the plan with
// the reason before anything runs; back at the release that applied,
// nothing runs. Where the platform runs no commands, the plan fails saying
// why and the release stays as it was.
func testExecAction(t *testing.T, in *Instance, f Factories) {
	acctest.SkipOnOpenTofu(t, "OpenTofu has no actions: Terraform ≥ 1.14 only")
	needsTemplate(t, in)
	exec := in.Capabilities.Exec
	_, records := in.OutOfBand.(ExecRecorder)
	needs(t, !exec.Runs || records, "a record of the commands run in a box (ExecRecorder): the scenario's commands are the "+
		"fakes' programs, and a real engine's box runs only its image's (internal/provider's TestAccSandboxExecAction_docker runs the agent's)")
	r := newRun(newHarness(in, f))
	ids := map[string]string{}
	empty := emptyPlanAfterApply()
	echoHCL := `["echo", "it's", "\"quoted\" words", "$GREETING"]`
	var steps []resource.TestStep
	if !exec.Runs {
		steps = []resource.TestStep{
			{Config: execActionConfig(r, "v1", echoHCL, ""), ConfigPlanChecks: empty, Check: recordIDs(ids, "sbx_template.t")},
			{
				Config: execActionConfig(r, "v2", echoHCL, ""),
				ExpectError: acctest.ErrorPattern(fmt.Sprintf(`(?s)sbx_sandbox_exec is not supported on %s.*%s`,
					in.Name, regexp.QuoteMeta(exec.Why[:min(len(exec.Why), 30)]))),
			},
			{
				Config:           execActionConfig(r, "v1", echoHCL, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		}
	} else {
		echo := ExecRun{Command: []string{"echo", "it's", `"quoted" words`, "$GREETING"}}
		var extra string
		if exec.WorkingDir {
			extra += "    working_dir = \"/tmp\"\n"
			echo.Dir = "/tmp"
		}
		if exec.Env {
			extra += fmt.Sprintf("    env = { TOKEN = %q }\n", execSecret)
			echo.Env = map[string]string{"TOKEN": execSecret}
		}
		failing := ExecRun{Command: []string{"/bin/sh", "-c", "echo it broke >&2; exit 4"}}
		sleeping := ExecRun{Command: []string{"sleep", "30"}, TimeoutSecs: 1, Killed: true}
		steps = []resource.TestStep{
			// Created: before_update does not fire.
			{Config: execActionConfig(r, "v1", echoHCL, extra), ConfigPlanChecks: empty, Check: resource.ComposeAggregateTestCheckFunc(
				recordIDs(ids, "sbx_template.t"), execRan(t, in))},
			{Config: execActionConfig(r, "v2", echoHCL, extra), ConfigPlanChecks: empty, Check: execRan(t, in, echo)},
			{
				Config:      execActionConfig(r, "v3", `["/bin/sh", "-c", "echo it broke >&2; exit 4"]`, ""),
				ExpectError: acctest.ErrorPattern(`(?s)exited with code 4 .*it broke`),
			},
			{
				Config:      execActionConfig(r, "v4", `["sleep", "30"]`, `    timeout = "1s"`),
				ExpectError: regexp.MustCompile(`did not end within 1s`),
			},
		}
		if !exec.Env {
			steps = append(steps, resource.TestStep{
				Config: execActionConfig(r, "v5", `["printenv", "GREETING"]`, `    env = { TOKEN = "not-shown-4711" }`),
				ExpectError: acctest.ErrorPattern(fmt.Sprintf(`(?s)env \(values not shown\) is not supported on %s: %s`,
					in.Name, regexp.QuoteMeta(exec.NoEnvWhy[:min(len(exec.NoEnvWhy), 30)]))),
			})
		}
		if !exec.WorkingDir {
			steps = append(steps, resource.TestStep{
				Config: execActionConfig(r, "v5", `["pwd"]`, `    working_dir = "/srv"`),
				ExpectError: acctest.ErrorPattern(fmt.Sprintf(`(?s)working_dir = "/srv" is not supported on %s: %s`,
					in.Name, regexp.QuoteMeta(exec.NoWorkingDirWhy[:min(len(exec.NoWorkingDirWhy), 30)]))),
			})
		} else {
			steps = append(steps, resource.TestStep{
				Config:      execActionConfig(r, "v5", `["pwd"]`, `    working_dir = "relative"`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`give an absolute path`),
			})
		}
		steps = append(steps, resource.TestStep{
			// Back to the release that applied: nothing runs, nothing to
			// plan; the failed and timed-out commands ran once each, and
			// the one past its timeout was killed.
			Config: execActionConfig(r, "v2", echoHCL, extra), ConfigPlanChecks: empty,
			Check: execRan(t, in, echo, failing, sleeping),
		})
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: f,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		CheckDestroy:             holdsNothing(t, in, r, ids),
		Steps:                    steps,
	})
}
