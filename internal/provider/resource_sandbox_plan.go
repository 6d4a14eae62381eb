package provider

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// ModifyPlan checks the plan against the configured platform's capabilities
// and decides what changes in place. This lives here rather than in
// attribute plan modifiers because the framework builds the schema once,
// before any platform is configured, and plan modifiers never see the
// provider's data: only ModifyPlan can ask the platform what it can do.
func (r *sandboxResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var plan sandboxModel
	resp.Diagnostics.Append(getPlan(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	planned := plan
	var state sandboxModel
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(getState(ctx, req.State, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		// What UseStateForUnknown would keep, kept first, so everything
		// below sees the plan as it did with the modifiers.
		sandboxKeepState(&plan, state, req.Config)
	}
	if r.platform == nil {
		// A plan before the provider is configured: from_snapshot_id
		// replaces the box on any change, as the schema would say.
		if !req.State.Raw.IsNull() && r.fromSnapshotReplaces(ctx, plan, &state, &resp.Diagnostics) {
			resp.RequiresReplace.Append(pathSandboxFromSnapshotID)
		}
		resp.Diagnostics.Append(setPlanIfChanged(ctx, &resp.Plan, planned, plan)...)
		return
	}
	caps := r.platform.Capabilities()
	name := r.platform.Name()
	if req.State.Raw.IsNull() {
		plan.Region = refusedComputedNull(ctx, caps.Attributes, platform.AttrSandboxRegion, path.Root("region"), plan.Region,
			req.Config, &resp.Diagnostics)
	}
	if req.State.Raw.IsNull() {
		planAttributes(caps.Attributes, name, sandboxAttributes(plan, nil), &resp.Diagnostics)
	}
	// env_wo is read from the configuration once: a path walk of its own.
	wo := sandboxEnvWOFromConfig(ctx, req.Config, &resp.Diagnostics)
	withWO := sandboxWithEnvWO(ctx, plan, wo, &resp.Diagnostics)
	sandboxCheckRules(ctx, r.platform, withWO, req.State.Raw.IsNull(), r.owner, r.boxes.recorded, &resp.Diagnostics)
	checkUniqueName(r.names, req, resp, "sbx_sandbox", "sandbox", path.Root("name"), plan.Name.ValueString(), priorID(ctx, req))
	if caps.VolumeMountsExclusive {
		checkExclusiveMounts(ctx, r.names, req, resp, name, plan)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	rs := r.retention.orDefault()
	if req.State.Raw.IsNull() {
		plan.Platform = types.StringValue(name)
		sandboxPlanRetention(&plan, nil, true, name, rs, &resp.Diagnostics)
		resp.Diagnostics.Append(setPlan(ctx, &resp.Plan, plan)...)
		return
	}

	// A lost snapshot keeps the box (resource_sandbox_snapshot_lost.go).
	if r.fromSnapshotReplaces(ctx, plan, &state, &resp.Diagnostics) {
		resp.RequiresReplace.Append(pathSandboxFromSnapshotID)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	sandboxEnvWOHeld(ctx, &state, plan, wo, &resp.Diagnostics)
	// name and template_id join the table's attributes only for what an
	// import took from the configuration; attrs shares their changed priors.
	attrs := sandboxAttributes(plan, &state)
	withNaming := append(attrs, sandboxNamingAttributes(plan, &state)...)
	attrs = withNaming[:len(attrs)]
	taken := unreportedTaken(readUnreported(ctx, req.Private, &resp.Diagnostics), withNaming)
	planUnreportedFromConfig(withNaming, taken, name, "sandbox", "Sandbox", state.ID.ValueString(), &resp.Diagnostics)
	sandboxTakeUnreported(&state, plan, taken)
	decision := planAttributes(caps.Attributes, name, attrs, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if len(decision.replace) == 0 {
		if at, ok := sandboxReplacedBy(plan, state); ok {
			refuseUpdateOnlyOnReplace(caps.Attributes, name, attrs, path.Paths{at}, &resp.Diagnostics)
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.RequiresReplace.Append(decision.replace...)
	sandboxPlanComputed(&plan, state)
	sandboxPlanRetention(&plan, &state, len(decision.replace) > 0 || sandboxReplacing(plan, state), name, rs, &resp.Diagnostics)
	resp.Diagnostics.Append(setPlanIfChanged(ctx, &resp.Plan, planned, plan)...)
}

// sandboxKeepState keeps, in one pass, the state of the computed
// attributes whose value only the platform gives (id, name, region,
// created_at, platform) where the plan leaves them unknown: what one
// UseStateForUnknown modifier on each did (keepStateForUnknown). state is
// the prior state of a box that exists.
func sandboxKeepState(plan *sandboxModel, state sandboxModel, config tfsdk.Config) {
	keepStateForUnknown(config.Raw,
		keptString{name: "id", planned: &plan.ID, prior: state.ID},
		keptString{name: "name", planned: &plan.Name, prior: state.Name},
		keptString{name: "region", planned: &plan.Region, prior: state.Region},
		keptString{name: "created_at", planned: &plan.CreatedAt, prior: state.CreatedAt},
		keptString{name: "platform", planned: &plan.Platform, prior: state.Platform},
	)
}

// sandboxAttributes are a box's configurable attributes for the platform's
// attribute table; prior is nil on create. An on_timeout left out is
// "kill" (onTimeoutOrKill), so writing it out or leaving it out is no
// change of box.
func sandboxAttributes(plan sandboxModel, prior *sandboxModel) []plannedAttribute {
	attrs := []plannedAttribute{
		{key: platform.AttrSandboxFromSnapshotID, path: path.Root("from_snapshot_id"), plan: plan.FromSnapshotID},
		{key: platform.AttrSandboxState, path: path.Root("state"), plan: plan.State},
		{key: platform.AttrSandboxRegion, path: path.Root("region"), plan: plan.Region},
		{key: platform.AttrSandboxCPUCount, path: path.Root("cpu_count"), plan: plan.CPUCount},
		{key: platform.AttrSandboxMemoryMB, path: path.Root("memory_mb"), plan: plan.MemoryMB},
		{key: platform.AttrSandboxDiskMB, path: path.Root("disk_mb"), plan: plan.DiskMB},
		{key: platform.AttrSandboxEnv, path: path.Root("env"), plan: plan.Env, shown: "(the env map)"},
		{key: platform.AttrSandboxLabels, path: path.Root("labels"), plan: plan.Labels},
		{key: platform.AttrSandboxTimeout, path: pathSandboxTimeout, plan: plan.Timeout, duration: true},
		{key: platform.AttrSandboxOnTimeout, path: pathSandboxOnTimeout, plan: plan.OnTimeout, normalize: onTimeoutOrKill},
		{key: platform.AttrSandboxIdleTimeout, path: pathSandboxIdleTimeout, plan: plan.IdleTimeout, duration: true},
		{key: platform.AttrSandboxAutoArchiveAfter, path: pathSandboxAutoArchiveAfter, plan: plan.AutoArchiveAfter, duration: true},
		{key: platform.AttrSandboxAutoDeleteAfter, path: pathSandboxAutoDeleteAfter, plan: plan.AutoDeleteAfter, duration: true},
	}
	if prior != nil {
		priors := []attr.Value{prior.FromSnapshotID, prior.State, prior.Region, prior.CPUCount, prior.MemoryMB, prior.DiskMB, prior.Env,
			prior.Labels, prior.Timeout, prior.OnTimeout, prior.IdleTimeout, prior.AutoArchiveAfter, prior.AutoDeleteAfter}
		for i := range attrs {
			attrs[i].prior = priors[i]
		}
	}
	// from_snapshot_id replaces the box by ModifyPlan
	// (resource_sandbox_snapshot_lost.go) and the mounts by the schema
	// (RequiresReplace): only whether the platform accepts them is judged.
	attrs[0].prior = nil
	var priorNetwork *types.Object
	if prior != nil {
		priorNetwork = &prior.Network
	}
	attrs = append(attrs, sandboxNetworkAttributes(context.Background(), plan.Network, priorNetwork)...)
	// auto_resume left out is false, so writing false out is no change.
	autoResume := plannedAttribute{key: platform.AttrSandboxAutoResume, path: path.Root("auto_resume"), plan: plan.AutoResume,
		nullIs: types.BoolValue(false)}
	if prior != nil {
		autoResume.prior = prior.AutoResume
	}
	attrs = append(attrs, autoResume)
	// memory_snapshots is chosen when the box is made; a state written
	// before the attribute existed holds null, which is false.
	memorySnapshots := plannedAttribute{key: platform.AttrSandboxMemorySnapshots, path: path.Root("memory_snapshots"),
		plan: plan.MemorySnapshots, nullIs: types.BoolValue(false)}
	if prior != nil {
		memorySnapshots.prior = prior.MemorySnapshots
	}
	attrs = append(attrs, memorySnapshots, sandboxEnvWOAttribute(plan, prior))
	// The mounts replace the box by the schema, which judges their
	// changes; the table judges their number, and their prior tells an
	// import's unreported mounts (taken from the configuration).
	mounts := plannedAttribute{key: platform.AttrSandboxVolumeMount, path: path.Root("volume_mount"), plan: plan.VolumeMounts}
	if prior != nil {
		mounts.prior = prior.VolumeMounts
	}
	attrs = append(attrs, mounts)
	return append(attrs, sandboxMountFields(plan)...)
}

// sandboxTakeUnreported makes the taken attributes that replace the box by
// the schema (volume_mount, name, template_id) no change of state, so
// nothing judging the plan against state counts them as a replacement; the
// schema's plan modifiers spared them already (resource_unreported_replace.go).
func sandboxTakeUnreported(state *sandboxModel, plan sandboxModel, taken []string) {
	if slices.Contains(taken, platform.AttrSandboxVolumeMount) {
		state.VolumeMounts = plan.VolumeMounts
	}
	if slices.Contains(taken, platform.AttrSandboxName) {
		state.Name = plan.Name
	}
	if slices.Contains(taken, platform.AttrSandboxTemplateID) {
		state.TemplateID = plan.TemplateID
	}
}

// sandboxMountFields is each volume_mount's read_only and subpath for the
// table. The mounts are read from the plan untyped, so an unknown list or
// element is skipped (the apply refuses what turns out refused).
func sandboxMountFields(plan sandboxModel) []plannedAttribute {
	if plan.VolumeMounts.IsNull() || plan.VolumeMounts.IsUnknown() {
		return nil
	}
	var out []plannedAttribute
	for i, el := range plan.VolumeMounts.Elements() {
		obj, ok := el.(types.Object)
		if !ok || obj.IsNull() || obj.IsUnknown() {
			continue
		}
		at := path.Root("volume_mount").AtListIndex(i)
		if ro, ok := obj.Attributes()["read_only"].(types.Bool); ok && !ro.IsUnknown() && !ro.IsNull() {
			out = append(out, plannedAttribute{key: platform.AttrSandboxMountReadOnly, path: at.AtName("read_only"), plan: ro})
		}
		if sub, ok := obj.Attributes()["subpath"].(types.String); ok && !sub.IsNull() {
			out = append(out, plannedAttribute{key: platform.AttrSandboxMountSubpath, path: at.AtName("subpath"), plan: sub})
		}
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
		plan.StartedAt = state.StartedAt
		return
	}
	plan.Status = types.StringUnknown()
	if !plan.State.IsUnknown() {
		plan.Status = plan.State
	}
	plan.StartedAt = types.StringUnknown()
}
