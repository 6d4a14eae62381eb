package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// ModifyPlan checks the plan against the configured platform's capabilities
// and decides what changes in place. Plan modifiers cannot do this: the
// schema is built before the platform is configured and they never see it.
func (r *volumeResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var plan volumeModel
	resp.Diagnostics.Append(getPlan(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var state *volumeModel
	if !req.State.Raw.IsNull() {
		state = &volumeModel{}
		resp.Diagnostics.Append(req.State.Get(ctx, state)...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	// A lost snapshot keeps the volume (resource_volume_snapshot_lost.go);
	// decided first, so a kept volume is judged below as no new source.
	// Before the provider is configured, any change replaces it, as the
	// schema would say.
	fromSnapshotReplaces := state != nil && volumeFromSnapshotReplaces(ctx, r.platform, plan, state, &resp.Diagnostics)
	if r.platform == nil {
		if fromSnapshotReplaces {
			resp.RequiresReplace.Append(pathVolumeFromSnapshotID)
		}
		return // a validation run before the provider is configured
	}
	caps := r.platform.Capabilities()
	if state == nil {
		plan.Region = refusedComputedNull(ctx, caps.Attributes, platform.AttrVolumeRegion, path.Root("region"), plan.Region,
			req.Config, &resp.Diagnostics)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("region"), plan.Region)...)
	}
	replace := volumeCheckPlan(ctx, caps, r.platform.Name(), plan, state, &resp.Diagnostics)
	if state == nil || !plan.Name.Equal(state.Name) || !plan.FromSnapshotID.Equal(state.FromSnapshotID) {
		// A new volume, or one a new name or source replaces.
		volumeCheckRules(ctx, r.platform, plan, &resp.Diagnostics)
	}
	checkUniqueName(r.names, req, resp, "sbx_volume", "volume", path.Root("name"), plan.Name.ValueString(), priorID(ctx, req))
	if resp.Diagnostics.HasError() {
		return
	}
	if state == nil {
		planKnownID(ctx, r.platform, "volume", plan.Name, resp)
		return
	}
	resp.RequiresReplace.Append(replace...)
	if fromSnapshotReplaces {
		resp.RequiresReplace.Append(pathVolumeFromSnapshotID)
	}
}

// volumeCheckPlan applies the platform's attribute table and reports the
// updates no table can express (shrinking, relabelling a mounted volume).
// state is nil on create. It returns the attributes whose change replaces
// the volume.
func volumeCheckPlan(ctx context.Context, caps platform.Capabilities, platformName string, plan volumeModel, state *volumeModel, diags *diag.Diagnostics) path.Paths {
	attrs := []plannedAttribute{
		{key: platform.AttrVolumeSizeGB, path: path.Root("size_gb"), plan: plan.SizeGB},
		{key: platform.AttrVolumeRegion, path: path.Root("region"), plan: plan.Region},
		{key: platform.AttrVolumeLabels, path: path.Root("labels"), plan: plan.Labels},
		{key: platform.AttrVolumeSnapshotRetention, path: path.Root("snapshot_retention"), plan: plan.SnapshotRetention},
		// Replaces the volume by the schema: only acceptance is judged.
		{key: platform.AttrVolumeFromSnapshotID, path: path.Root("from_snapshot_id"), plan: plan.FromSnapshotID},
	}
	if state != nil {
		attrs[0].prior, attrs[1].prior, attrs[2].prior, attrs[3].prior = state.SizeGB, state.Region, state.Labels, state.SnapshotRetention
	}
	decision := planAttributes(caps.Attributes, platformName, attrs, diags)
	if state == nil {
		return nil
	}
	if caps.InPlace(platform.AttrVolumeSizeGB) && volumeKnownInts(plan.SizeGB, state.SizeGB) &&
		plan.SizeGB.ValueInt64() < state.SizeGB.ValueInt64() {
		diags.AddAttributeError(path.Root("size_gb"), "Volumes cannot shrink",
			fmt.Sprintf("size_gb = %d is smaller than the volume's current size of %d GB; %s volumes can only grow. "+
				"Keep size_gb at %d or more, or replace the volume (terraform apply -replace) to start again smaller, losing its data.",
				plan.SizeGB.ValueInt64(), state.SizeGB.ValueInt64(), platformName, state.SizeGB.ValueInt64()))
	}
	if caps.InPlace(platform.AttrVolumeLabels) && caps.VolumeLabelsNeedIdle && !mapsSame(plan.Labels, state.Labels) {
		if attached := volumeAttachedFromTF(ctx, state.AttachedTo); len(attached) > 0 {
			diags.AddAttributeError(path.Root("labels"), "Cannot relabel a mounted volume",
				fmt.Sprintf("labels of volume %q cannot change while sandboxes mount it: %s relabels only a volume no sandbox uses, "+
					"running or stopped. It is mounted by sandbox(es) %s. Detach it from them (remove their volume_mount) or destroy "+
					"them, then change the labels; stopping them is not enough, as a stopped sandbox still mounts the volume.",
					state.Name.ValueString(), platformName, strings.Join(attached, ", ")))
		}
	}
	return decision.replace
}

// volumeKnownInts reports whether every value is known and not null.
func volumeKnownInts(vs ...interface {
	IsNull() bool
	IsUnknown() bool
}) bool {
	for _, v := range vs {
		if v.IsNull() || v.IsUnknown() {
			return false
		}
	}
	return true
}
