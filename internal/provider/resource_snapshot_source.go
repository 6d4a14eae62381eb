package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// A snapshot is a checkpoint of its source as it was. When the source
// changes or is lost (a box replaced, deleted outside Terraform, or the
// configuration pointing elsewhere), replacing the snapshot would delete
// the only copy of the data it holds and snapshot the new, often empty,
// source instead. So an existing snapshot keeps the source it was taken
// of: the plan keeps state's sandbox_id/volume_id (Terraform accepts a
// planned value equal to the prior one whatever the configuration says) and
// a warning says what happened and how to take a new snapshot. Only a
// switch between a sandbox and a volume source, which no kept value can
// express, replaces it.

// snapshotSourcePlan plans the source of an existing snapshot (see above)
// and returns the paths that replace it: only a switch of source kind.
func (r *snapshotResource) snapshotSourcePlan(ctx context.Context, config, state snapshotModel, plan *snapshotModel, diags *diag.Diagnostics) path.Paths {
	volume := state.Kind.ValueString() == string(platform.SnapshotVolume) || (state.Kind.IsNull() && !state.VolumeID.IsNull())
	switch {
	case volume && config.VolumeID.IsNull():
		return path.Paths{pathSnapshotSandboxID}
	case !volume && config.SandboxID.IsNull():
		return path.Paths{pathSnapshotVolumeID}
	}
	p, what, configured, recorded, planned := pathSnapshotSandboxID, "sandbox", config.SandboxID, state.SandboxID, &plan.SandboxID
	if volume {
		p, what, configured, recorded, planned = pathSnapshotVolumeID, "volume", config.VolumeID, state.VolumeID, &plan.VolumeID
	}
	replaced := snapshotReplacedAnyway(*plan, state)
	switch {
	case recorded.IsNull():
		// Not reported by the platform (an import, where the source is not
		// SnapshotSourceReported): record what the configuration says, in
		// place, after asking the platform.
		if !configured.IsUnknown() && !replaced && !r.sourceConfirmed(ctx, volume, configured.ValueString(), state.ID.ValueString(), diags) {
			diags.AddAttributeWarning(p, "Snapshot source not confirmed",
				fmt.Sprintf("%s does not say which %s snapshot %s was taken of, and does not confirm it was %s %s. "+
					"The configured %s is recorded as it is; the snapshot is kept as it is, with the data it holds, "+
					"and is not taken again.", r.platform.Name(), what, state.ID.ValueString(), what,
					configured.ValueString(), p))
		}
	case configured.Equal(recorded):
	default:
		*planned = recorded
		if replaced || (!configured.IsUnknown() && r.sameSource(ctx, volume, configured.ValueString(), recorded.ValueString())) {
			return nil
		}
		now := "is now " + configured.String()
		if configured.IsUnknown() {
			now = "will be known only after apply (the " + what + " is being created or replaced)"
		}
		diags.AddAttributeWarning(p, "Snapshot kept: its source changed",
			fmt.Sprintf("The configured %[1]s %[2]s, but snapshot %[3]s was taken of %[4]s %[5]s and holds that %[4]s's "+
				"data as it was then. A snapshot is a checkpoint: a change or loss of its source never replaces it. It is "+
				"kept, and its %[1]s stays %[5]s.\n\nTo take a new snapshot of the new %[4]s: add a new sbx_snapshot "+
				"resource (this one keeps the old data until you remove it), run terraform apply -replace=<this resource>, "+
				"or give this resource lifecycle { replace_triggered_by = [<the %[4]s resource>.id] }. replace_triggered_by "+
				"sees a %[4]s that Terraform replaces; one deleted outside Terraform is created anew, which it does not "+
				"see: point it at a terraform_data whose triggers_replace is the %[4]s's id instead.",
				p, now, state.ID.ValueString(), what, recorded.String()))
	}
	return nil
}

// snapshotReplacedAnyway reports whether another argument already replaces
// the snapshot, so its source needs no warning.
func snapshotReplacedAnyway(plan, state snapshotModel) bool {
	return !plan.Name.Equal(state.Name) || !plan.IncludeMemory.Equal(state.IncludeMemory) ||
		!plan.TTL.Equal(state.TTL) || !mapsSame(state.Labels, plan.Labels)
}

// sourceConfirmed reports whether the platform lists snapshot id among the
// snapshots of source.
func (r *snapshotResource) sourceConfirmed(ctx context.Context, volume bool, source, id string, diags *diag.Diagnostics) bool {
	if !r.platform.Capabilities().SnapshotListsBySource {
		return true // nothing to confirm it with: the configuration is taken as written
	}
	filter := platform.SnapshotFilter{SandboxID: source}
	if volume {
		filter = platform.SnapshotFilter{VolumeID: source}
	}
	found, err := r.platform.Snapshots().List(ctx, filter)
	if err != nil {
		addPlatformError(diags, "list", "snapshots", "", err)
		return true
	}
	for _, s := range found {
		if s.ID == id {
			return true
		}
	}
	return false
}

// sameSource reports whether two references name the same existing
// sandbox (or volume): where a platform takes a box's name for its id, the
// two do, so writing one for the other is no change of source.
func (r *snapshotResource) sameSource(ctx context.Context, volume bool, a, b string) bool {
	resolve := func(ref string) string {
		if volume {
			if svc := r.platform.Volumes(); svc != nil {
				if v, err := svc.Get(ctx, ref); err == nil && v != nil {
					return v.ID
				}
			}
			return ""
		}
		if svc := r.platform.Sandboxes(); svc != nil {
			if s, err := svc.Get(ctx, ref); err == nil && s != nil {
				return s.ID
			}
		}
		return ""
	}
	ida := resolve(a)
	return ida != "" && ida == resolve(b)
}

// keepSourceFromState keeps the source ids a snapshot was made or imported
// with: the platform's answer fills only those state does not have (after
// an import). A source given by name (where a platform accepts a box's
// name) stays the name the configuration gave.
func keepSourceFromState(m *snapshotModel, s *platform.Snapshot) {
	if (m.SandboxID.IsNull() || m.SandboxID.IsUnknown()) && s.SandboxID != "" {
		m.SandboxID = types.StringValue(s.SandboxID)
	}
	if (m.VolumeID.IsNull() || m.VolumeID.IsUnknown()) && s.VolumeID != "" {
		m.VolumeID = types.StringValue(s.VolumeID)
	}
}
