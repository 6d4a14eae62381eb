package provider

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// ModifyPlan checks the plan against the configured platform's capabilities
// and decides what changes in place. This lives here rather than in
// attribute plan modifiers because the framework builds the schema once,
// before any platform is configured, and plan modifiers never see the
// provider's data: only ModifyPlan can ask the platform what it can do.
func (r *sandboxResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.platform == nil {
		return // destroy, or a validation run before the provider is configured
	}
	var plan sandboxModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	caps := r.platform.Capabilities()
	name := r.platform.Name()
	sandboxCheckPlan(caps, name, plan, &resp.Diagnostics)
	sandboxCheckLifecycle(caps, name, plan, &resp.Diagnostics)
	checkUniqueName(r.names, req, resp, "sbx_sandbox", "sandbox", path.Root("name"), plan.Name.ValueString(), priorID(ctx, req))
	if resp.Diagnostics.HasError() {
		return
	}
	rs := r.retention.orDefault()
	if req.State.Raw.IsNull() {
		plan.Platform = types.StringValue(name)
		sandboxPlanRetention(&plan, nil, true, name, rs, &resp.Diagnostics)
		resp.Diagnostics.Append(resp.Plan.Set(ctx, plan)...)
		return
	}

	var state sandboxModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	prior := sandboxPlanEnvFromConfig(ctx, req.Private, plan, state, name, &resp.Diagnostics)
	replace := append(sandboxReplacePaths(caps, plan, prior), sandboxLifecycleReplacePaths(caps, plan, state)...)
	resp.RequiresReplace.Append(replace...)
	sandboxPlanComputed(&plan, state)
	sandboxPlanRetention(&plan, &state, len(replace) > 0 || sandboxReplacing(plan, state), name, rs, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, plan)...)
}

// sandboxCheckPlan reports every setting the platform cannot honour, naming
// the attribute, the value and what is allowed.
func sandboxCheckPlan(caps platform.Capabilities, platformName string, plan sandboxModel, diags *diag.Diagnostics) {
	if isSet(plan.FromSnapshotID) && !caps.SandboxFromSnapshot {
		addUnsupportedError(diags, path.Root("from_snapshot_id"), valueForMessage(plan.FromSnapshotID), platformName,
			"this platform cannot start a sandbox from a snapshot; use template_id")
	}
	if !plan.State.IsUnknown() && !plan.State.IsNull() {
		want := platform.SandboxState(plan.State.ValueString())
		if (want == platform.StatePaused && !caps.PauseWithMemory) || (want == platform.StateStopped && !caps.Stop) {
			addUnsupportedError(diags, path.Root("state"), valueForMessage(plan.State), platformName,
				"state must be one of "+strings.Join(sandboxAllowedStates(caps), ", "))
		}
	}
	if !caps.SandboxResources {
		// The box takes its size from its template; the limits below are moot.
		for _, a := range []struct {
			name string
			v    types.Int64
		}{{"cpu_count", plan.CPUCount}, {"memory_mb", plan.MemoryMB}} {
			if isSet(a.v) {
				addUnsupportedError(diags, path.Root(a.name), valueForMessage(a.v), platformName,
					"a sandbox takes its size from its template; remove "+a.name+" and set it on the sbx_template")
			}
		}
	} else {
		sandboxCheckSizeLimits(caps, platformName, plan, diags)
	}
	if isSet(plan.DiskMB) && !caps.SandboxDiskSize {
		addUnsupportedError(diags, path.Root("disk_mb"), valueForMessage(plan.DiskMB), platformName,
			"the platform sizes a sandbox's disk itself; remove disk_mb")
	}
	if !caps.ReadOnlyMounts {
		sandboxCheckReadOnlyMounts(plan, platformName, diags)
	}
}

// sandboxCheckSizeLimits reports cpu_count and memory_mb outside the
// platform's limits.
func sandboxCheckSizeLimits(caps platform.Capabilities, platformName string, plan sandboxModel, diags *diag.Diagnostics) {
	if v := plan.MemoryMB; !v.IsNull() && !v.IsUnknown() && caps.MinMemoryMB > 0 && v.ValueInt64() < caps.MinMemoryMB {
		diags.AddAttributeError(path.Root("memory_mb"), "memory_mb below the platform minimum",
			fmt.Sprintf("memory_mb = %d is below the minimum of %d on %s. Set memory_mb to %d or more, or leave it out for the platform default.",
				v.ValueInt64(), caps.MinMemoryMB, platformName, caps.MinMemoryMB))
	}
	if v := plan.CPUCount; !v.IsNull() && !v.IsUnknown() && caps.MaxCPUCount > 0 && v.ValueInt64() > caps.MaxCPUCount {
		diags.AddAttributeError(path.Root("cpu_count"), "cpu_count above the platform maximum",
			fmt.Sprintf("cpu_count = %d is above the maximum of %d on %s. Set cpu_count to %d or less.",
				v.ValueInt64(), caps.MaxCPUCount, platformName, caps.MaxCPUCount))
	}
}

// sandboxCheckReadOnlyMounts reports every volume_mount with read_only =
// true on a platform that mounts volumes read-write only. The mounts are
// read from the plan untyped, so an unknown list or element is skipped (the
// apply refuses it if it turns out read-only).
func sandboxCheckReadOnlyMounts(plan sandboxModel, platformName string, diags *diag.Diagnostics) {
	if plan.VolumeMounts.IsNull() || plan.VolumeMounts.IsUnknown() {
		return
	}
	for i, el := range plan.VolumeMounts.Elements() {
		obj, ok := el.(types.Object)
		if !ok || obj.IsNull() || obj.IsUnknown() {
			continue
		}
		ro, ok := obj.Attributes()["read_only"].(types.Bool)
		if !ok || ro.IsUnknown() || !ro.ValueBool() {
			continue
		}
		addUnsupportedError(diags, path.Root("volume_mount").AtListIndex(i).AtName("read_only"), "true", platformName,
			"volumes are always mounted read-write here; remove read_only or set it to false")
	}
}

// sandboxAllowedStates lists the states the platform can keep a box in, quoted.
func sandboxAllowedStates(caps platform.Capabilities) []string {
	out := []string{strconv.Quote(string(platform.StateRunning))}
	if caps.PauseWithMemory {
		out = append(out, strconv.Quote(string(platform.StatePaused)))
	}
	if caps.Stop {
		out = append(out, strconv.Quote(string(platform.StateStopped)))
	}
	return out
}

// sandboxReplacePaths lists the changed attributes the platform cannot
// change in place. state is never among them: it always changes in place.
func sandboxReplacePaths(caps platform.Capabilities, plan, state sandboxModel) path.Paths {
	var out path.Paths
	if !caps.SandboxResizeInPlace {
		if !plan.CPUCount.Equal(state.CPUCount) {
			out = append(out, path.Root("cpu_count"))
		}
		if !plan.MemoryMB.Equal(state.MemoryMB) {
			out = append(out, path.Root("memory_mb"))
		}
	}
	if !caps.SandboxEnvMutable && !mapsSame(plan.Env, state.Env) {
		out = append(out, path.Root("env"))
	}
	if !caps.SandboxLabelsMutable && !mapsSame(plan.Labels, state.Labels) {
		out = append(out, path.Root("labels"))
	}
	return out
}

// sandboxPlanComputed plans the computed status attributes of an in-place
// update. A state change plans status as the new state (so the plan reads
// "paused -> running") and leaves what only the platform can say unknown;
// any other update keeps them, so they never show as "known after apply".
func sandboxPlanComputed(plan *sandboxModel, state sandboxModel) {
	if plan.State.Equal(state.State) {
		plan.Status = state.Status
		plan.PlatformStatus = state.PlatformStatus
		plan.StartedAt = state.StartedAt
		return
	}
	plan.Status = types.StringUnknown()
	if !plan.State.IsUnknown() {
		plan.Status = plan.State
	}
	plan.PlatformStatus = types.StringUnknown()
	plan.StartedAt = types.StringUnknown()
}
