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
	if req.Plan.Raw.IsNull() || r.platform == nil {
		return // destroy, or a validation run before the provider is configured
	}
	var plan volumeModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
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
	caps := r.platform.Capabilities()
	volumeCheckPlan(ctx, caps, r.platform.Name(), plan, state, &resp.Diagnostics)
	checkUniqueName(r.names, req, resp, "sbx_volume", "volume", path.Root("name"), plan.Name.ValueString(), priorID(ctx, req))
	if resp.Diagnostics.HasError() {
		return
	}
	if state == nil {
		planKnownID(ctx, r.platform, "volume", plan.Name, resp)
		return
	}
	resp.RequiresReplace.Append(volumeReplacePaths(caps, plan, *state)...)
}

// volumeCheckPlan reports every setting the platform cannot honour, and the
// updates it cannot make (shrinking, relabelling a mounted volume). state is
// nil on create.
func volumeCheckPlan(ctx context.Context, caps platform.Capabilities, platformName string, plan volumeModel, state *volumeModel, diags *diag.Diagnostics) {
	if isSet(plan.SizeGB) && !caps.VolumeSizes {
		allowed := "volumes on this platform have no size; remove size_gb"
		if platformName == "docker" {
			allowed = "Docker volumes have no size (they grow with their content); remove size_gb"
		}
		addUnsupportedError(diags, path.Root("size_gb"), valueForMessage(plan.SizeGB), platformName, allowed)
	}
	if isSet(plan.Region) && !caps.VolumeRegions {
		addUnsupportedError(diags, path.Root("region"), valueForMessage(plan.Region), platformName,
			"this platform has no regions for volumes; remove region")
	}
	if isSet(plan.FromSnapshotID) && !caps.VolumeRestore {
		addUnsupportedError(diags, path.Root("from_snapshot_id"), valueForMessage(plan.FromSnapshotID), platformName,
			"this platform cannot restore a volume from a snapshot; remove from_snapshot_id")
	}
	labelsCheckSupported(diags, plan.Labels, caps.VolumeLabels, platformName, "volumes",
		" (find a volume by its name with the sbx_volume data source)")
	if state == nil {
		return
	}
	if caps.VolumeSizes && caps.VolumeGrow && volumeKnownInts(plan.SizeGB, state.SizeGB) &&
		plan.SizeGB.ValueInt64() < state.SizeGB.ValueInt64() {
		diags.AddAttributeError(path.Root("size_gb"), "Volumes cannot shrink",
			fmt.Sprintf("size_gb = %d is smaller than the volume's current size of %d GB; %s volumes can only grow. "+
				"Keep size_gb at %d or more, or replace the volume (terraform apply -replace) to start again smaller, losing its data.",
				plan.SizeGB.ValueInt64(), state.SizeGB.ValueInt64(), platformName, state.SizeGB.ValueInt64()))
	}
	if caps.VolumeLabelsMutable && caps.VolumeLabelsNeedIdle && !mapsSame(plan.Labels, state.Labels) {
		if attached := volumeAttachedFromTF(ctx, state.AttachedTo); len(attached) > 0 {
			diags.AddAttributeError(path.Root("labels"), "Cannot relabel a mounted volume",
				fmt.Sprintf("labels of volume %q cannot change while sandboxes mount it: %s relabels only a volume no sandbox uses. "+
					"It is mounted by sandbox(es) %s. Detach it from them (remove their volume_mount) or stop them first, then change the labels.",
					state.Name.ValueString(), platformName, strings.Join(attached, ", ")))
		}
	}
}

// volumeReplacePaths lists the changed attributes the platform cannot change in place.
func volumeReplacePaths(caps platform.Capabilities, plan, state volumeModel) path.Paths {
	var out path.Paths
	if !plan.SizeGB.Equal(state.SizeGB) && !caps.VolumeGrow {
		out = append(out, path.Root("size_gb"))
	}
	if !mapsSame(plan.Labels, state.Labels) && !caps.VolumeLabelsMutable {
		out = append(out, path.Root("labels"))
	}
	return out
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
