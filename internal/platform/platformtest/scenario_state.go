package platformtest

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// testStateChanges: running → paused → stopped → paused → running, each an
// in-place update of the same sandbox, confirmed on the platform itself and
// followed by an empty plan (so a platform that reports both kinds of pause
// alike, PauseKindUnreported, must still read a stopped box back as stopped).
func testStateChanges(t *testing.T, h harness) {
	states := []platform.SandboxState{platform.StateRunning}
	if h.Capabilities.AcceptsValue(platform.AttrSandboxState, "paused") {
		states = append(states, platform.StatePaused)
	} else {
		t.Log("the platform cannot pause with memory (sandbox.state refuses paused); the paused step does not apply")
	}
	if h.Capabilities.AcceptsValue(platform.AttrSandboxState, "stopped") {
		states = append(states, platform.StateStopped)
	} else {
		t.Log("the platform cannot stop sandboxes (sandbox.state refuses stopped); the stopped step does not apply")
	}
	needs(t, len(states) > 1, "any sandbox state besides running (sandbox.state values)")
	if h.Capabilities.AcceptsValue(platform.AttrSandboxState, "paused") && h.Capabilities.AcceptsValue(platform.AttrSandboxState, "stopped") {
		states = append(states, platform.StatePaused) // stopped → paused, in place too
	}
	states = append(states, platform.StateRunning)

	r := newRun(h)
	var boxID string
	steps := make([]resource.TestStep, 0, len(states))
	for i, st := range states {
		step := resource.TestStep{
			Config: r.config(r.template(), r.sandbox("s", fmt.Sprintf("  state = %q", st))),
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("sbx_sandbox.s", "state", string(st)),
				resource.TestCheckResourceAttr("sbx_sandbox.s", "status", string(st)),
				platformStateIs(t, h, &boxID, st),
			),
			ConfigPlanChecks: expectAction("sbx_sandbox.s", plancheck.ResourceActionUpdate),
		}
		if i == 0 {
			step.ConfigPlanChecks = emptyPlanAfterApply()
			step.Check = resource.ComposeAggregateTestCheckFunc(captureID("sbx_sandbox.s", &boxID), step.Check)
		} else {
			step.Check = resource.ComposeAggregateTestCheckFunc(idIs("sbx_sandbox.s", &boxID), step.Check)
		}
		steps = append(steps, step)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		CheckDestroy:             goneFromPlatform(t, h, map[string]*string{KindSandbox: &boxID}),
		Steps:                    steps,
	})
}

// testOutOfBandState: a box paused (or stopped) behind Terraform's back is
// planned as an in-place update back to running, never a replacement, and
// applying it resumes the same box.
func testOutOfBandState(t *testing.T, h harness) {
	behind := platform.StatePaused
	if !h.Capabilities.AcceptsValue(platform.AttrSandboxState, "paused") {
		behind = platform.StateStopped
	}
	needs(t, h.Capabilities.AcceptsValue(platform.AttrSandboxState, "paused") || h.Capabilities.AcceptsValue(platform.AttrSandboxState, "stopped"), "pausing or stopping sandboxes")

	r := newRun(h)
	var boxID string
	cfg := r.config(r.template(), r.sandbox("s"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		CheckDestroy:             goneFromPlatform(t, h, map[string]*string{KindSandbox: &boxID}),
		Steps: []resource.TestStep{
			{
				Config:           cfg,
				ConfigPlanChecks: emptyPlanAfterApply(),
				Check:            captureID("sbx_sandbox.s", &boxID),
			},
			{
				PreConfig: func() {
					h.OutOfBand.SetSandboxState(t, boxID, behind)
					if got := h.OutOfBand.SandboxState(t, boxID); got != behind {
						t.Fatalf("out-of-band %s left the sandbox %q", behind, got)
					}
				},
				Config:           cfg,
				ConfigPlanChecks: expectAction("sbx_sandbox.s", plancheck.ResourceActionUpdate),
				Check: resource.ComposeAggregateTestCheckFunc(
					idIs("sbx_sandbox.s", &boxID),
					resource.TestCheckResourceAttr("sbx_sandbox.s", "status", "running"),
					platformStateIs(t, h, &boxID, platform.StateRunning),
				),
			},
		},
	})
}
