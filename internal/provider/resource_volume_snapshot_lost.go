package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// A volume restored from a snapshot holds its own data from then on, as a
// box restored from one does (resource_sandbox_snapshot_lost.go, whose
// design this follows): nothing of it depends on the snapshot again. When
// that snapshot is deleted or expires on the platform (some platforms drop
// volume snapshots after snapshot_retention days), its sbx_snapshot is
// created anew, with an id known only after
// apply, and a from_snapshot_id that replaced the volume on any change
// would destroy the volume and its data because its starting point went
// away. So a change of from_snapshot_id replaces the volume only while
// the snapshot recorded in state still exists; once it is gone (a Get
// answers not found), the volume is kept and the plan warns.
//
// The replacement is decided here, not by the schema: the framework adds a
// schema RequiresReplace before ModifyPlan runs and never takes one back,
// and only ModifyPlan can ask the platform.
//
// A kept volume records the configured from_snapshot_id, in place, with no
// call that changes the volume (Update sends nothing for it), for the
// reasons the sandbox's note gives: the apply-time plan, which sees the new
// snapshot's id, plans the same in-place record, the plan after is empty,
// and from then on a change to another snapshot replaces the volume as
// before.

// pathVolumeFromSnapshotID is the volume's from_snapshot_id.
var pathVolumeFromSnapshotID = path.Root("from_snapshot_id")

// volumeFromSnapshotReplaces reports whether the planned from_snapshot_id
// replaces the volume (see above). When the snapshot recorded in state is
// gone, it makes state's value the planned one, so nothing judging the
// plan against state counts it as a replacement, and warns. plat may be
// nil (a plan before the provider is configured): any change replaces.
func volumeFromSnapshotReplaces(ctx context.Context, plat platform.Platform, plan volumeModel, state *volumeModel, diags *diag.Diagnostics) bool {
	planned, recorded := plan.FromSnapshotID, state.FromSnapshotID
	if planned.Equal(recorded) {
		return false
	}
	if planned.IsNull() || recorded.IsNull() || plat == nil || plat.Snapshots() == nil {
		return true // a restore added or removed, or no platform to ask: replaced, as always
	}
	_, err := plat.Snapshots().Get(ctx, recorded.ValueString())
	switch {
	case err == nil:
		return true // the recorded snapshot exists: this is a change of starting point
	case !platform.IsNotFound(err):
		addPlatformError(diags, "read", "snapshot", recorded.ValueString(), err)
		return true
	}
	state.FromSnapshotID = planned
	now := "is now " + planned.String()
	if planned.IsUnknown() {
		now = "will be known only after apply (the snapshot is being created or replaced)"
	}
	diags.AddAttributeWarning(pathVolumeFromSnapshotID, "Volume kept: the snapshot it was restored from is gone",
		fmt.Sprintf("Volume %[6]q (id %[1]s) was restored from snapshot %[2]s, which no longer exists on %[3]s (deleted or expired).%[4]s The configured "+
			"from_snapshot_id %[5]s. A volume holds its own data from the moment it is restored, so the loss of its "+
			"snapshot never replaces it: the volume is kept, with its data, and from_snapshot_id records the configured "+
			"value, in place, with no change to the volume.\n\nTo start a new volume from the configured snapshot instead "+
			"(losing this one's data), run terraform apply -replace=<this resource>.",
			state.ID.ValueString(), recorded.String(), plat.Name(), goneReasonSentence(goneReason(err)), now, state.Name.ValueString()))
	return false
}
