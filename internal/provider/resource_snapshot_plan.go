package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func (r *snapshotResource) ConfigValidators(_ context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{
		resourcevalidator.ExactlyOneOf(pathSnapshotSandboxID.Expression(), pathSnapshotVolumeID.Expression()),
		// A volume has no memory; even an explicit false would mislead.
		resourcevalidator.Conflicting(pathSnapshotIncludeMemory.Expression(), pathSnapshotVolumeID.Expression()),
	}
}

// ModifyPlan rejects snapshots the platform cannot take, plans the kind the
// snapshot will have, keeps an existing snapshot's source (a changed or lost
// source never replaces it: resource_snapshot_source.go), and warns when a
// destroy can only forget the snapshot.
func (r *snapshotResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if r.platform == nil {
		return
	}
	if req.Plan.Raw.IsNull() {
		if req.State.Raw.IsNull() {
			return
		}
		var state snapshotModel
		resp.Diagnostics.Append(getState(ctx, req.State, &state)...)
		if caps := r.platform.Capabilities(); snapshotUndeletable(caps, state.Kind) {
			resp.Diagnostics.AddWarning("Snapshot will only be removed from state",
				fmt.Sprintf("%s cannot delete %s: destroying snapshot %q removes it from the Terraform state, "+
					"but it stays on the platform. %s", r.platform.Name(), snapshotUndeletableWhat(caps, state.Kind),
					state.ID.ValueString(), snapshotExpiryPhrase(state.ExpiresAt)))
		}
		return
	}

	var plan, config snapshotModel
	resp.Diagnostics.Append(getPlan(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(getConfig(ctx, req.Config, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	caps := r.platform.Capabilities()
	snapshotCheckCapabilities(r.platform.Name(), caps, config, &resp.Diagnostics)
	if caps.SnapshotNamesUnique {
		checkUniqueName(r.names, req, resp, "sbx_snapshot", "snapshot", path.Root("name"), plan.Name.ValueString(), priorID(ctx, req))
	}
	if resp.Diagnostics.HasError() {
		return
	}
	var state *snapshotModel
	if req.State.Raw.IsNull() {
		snapshotCheckRules(ctx, r.platform, plan, &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}
		snapshotPlanCreate(caps, config, &plan)
	} else {
		state = &snapshotModel{}
		resp.Diagnostics.Append(req.State.Get(ctx, state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		resp.RequiresReplace.Append(r.snapshotSourcePlan(ctx, config, *state, &plan, &resp.Diagnostics)...)
	}
	snapshotPlanRetention(&plan, state, r.platform.Name(), r.retention.orDefault(), &resp.Diagnostics)
	resp.Diagnostics.Append(setPlan(ctx, &resp.Plan, &plan)...)
}

// snapshotCheckCapabilities rejects, at plan time, a snapshot the platform
// cannot take, by its attribute table. Only what the user wrote is judged:
// an include_memory left out is planned as the platform's natural kind,
// which it can always take. Every attribute but labels replaces a snapshot
// by the schema; the table judges only whether the platform accepts them.
func snapshotCheckCapabilities(platformName string, caps platform.Capabilities, config snapshotModel, diags *diag.Diagnostics) {
	attrs := []plannedAttribute{
		{key: platform.AttrSnapshotSandboxID, path: pathSnapshotSandboxID, plan: config.SandboxID},
		{key: platform.AttrSnapshotVolumeID, path: pathSnapshotVolumeID, plan: config.VolumeID},
		{key: platform.AttrSnapshotLabels, path: path.Root("labels"), plan: config.Labels},
		{key: platform.AttrSnapshotTTL, path: pathSnapshotTTL, plan: config.TTL, duration: true},
	}
	if isSet(config.SandboxID) {
		attrs = append(attrs, plannedAttribute{key: platform.AttrSnapshotIncludeMemory, path: pathSnapshotIncludeMemory, plan: config.IncludeMemory})
	}
	planAttributes(caps.Attributes, platformName, attrs, diags)
	if !caps.SnapshotNames && isSet(config.Name) {
		diags.AddAttributeError(path.Root("name"), "name is not supported on "+platformName,
			fmt.Sprintf("name = %q: %s snapshots have no name, so none would be given or found; remove name and find the "+
				"snapshot by its source (the sbx_snapshot(s) data sources' volume_id or sandbox_id).", config.Name.ValueString(), platformName))
	}
}

// snapshotPlanCreate plans what a new snapshot's arguments and the
// platform's capabilities already tell: include_memory when left out, the
// kind, and null for what the platform never reports (created_at, size_bytes).
func snapshotPlanCreate(caps platform.Capabilities, config snapshotModel, plan *snapshotModel) {
	if config.IncludeMemory.IsNull() {
		plan.IncludeMemory = snapshotNaturalMemory(caps, config)
	}
	plan.Kind = snapshotPlannedKind(*plan)
	if !caps.SnapshotCreatedAt {
		plan.CreatedAt = types.StringNull()
	}
	if !caps.SnapshotSize {
		plan.SizeBytes = types.Int64Null()
	}
}

// snapshotNaturalMemory is include_memory when the configuration leaves it
// out: a memory snapshot where the platform takes only those, a filesystem
// snapshot otherwise; a volume has no memory.
func snapshotNaturalMemory(caps platform.Capabilities, config snapshotModel) types.Bool {
	if isSet(config.VolumeID) {
		return types.BoolValue(false)
	}
	return types.BoolValue(!caps.AcceptsValue(platform.AttrSnapshotIncludeMemory, "false"))
}

// snapshotPlannedKind is the kind a new snapshot will have, known from its
// arguments; unknown only while include_memory is.
func snapshotPlannedKind(plan snapshotModel) types.String {
	switch {
	case isSet(plan.VolumeID):
		return types.StringValue(string(platform.SnapshotVolume))
	case plan.IncludeMemory.IsUnknown():
		return types.StringUnknown()
	case plan.IncludeMemory.ValueBool():
		return types.StringValue(string(platform.SnapshotMemory))
	default:
		return types.StringValue(string(platform.SnapshotFilesystem))
	}
}

// snapshotCheckRules asks the platform's SnapshotRules about a new
// snapshot whose source is known (an id not known yet is judged at apply,
// by the platform's answer).
func snapshotCheckRules(ctx context.Context, plat platform.Platform, plan snapshotModel, diags *diag.Diagnostics) {
	rules := plat.Extensions().SnapshotRules
	if rules == nil || plan.SandboxID.IsUnknown() || plan.VolumeID.IsUnknown() || plan.IncludeMemory.IsUnknown() {
		return
	}
	spec := platform.SnapshotSpec{
		SandboxID:     plan.SandboxID.ValueString(),
		VolumeID:      plan.VolumeID.ValueString(),
		Name:          plan.Name.ValueString(),
		IncludeMemory: plan.IncludeMemory.ValueBool(),
	}
	for _, p := range rules.CheckSnapshot(ctx, spec) {
		at := path.Root(p.Attribute)
		if p.Field != "" {
			at = at.AtName(p.Field)
		}
		diags.AddAttributeError(at, p.Summary, p.Detail)
	}
}
