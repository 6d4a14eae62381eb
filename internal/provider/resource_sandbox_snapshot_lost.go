package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// A box restored from a snapshot holds its own data from then on: nothing
// of it depends on the snapshot again. When that snapshot is deleted or
// expires on the platform, its sbx_snapshot is created anew, with an id
// known only after apply, and a from_snapshot_id that replaced the box on
// any change would destroy a running box and its data because its
// starting point went away. So a change of from_snapshot_id replaces the
// box only while the snapshot recorded in state still exists; once it is
// gone (a Get answers not found), the box is kept and the plan warns.
//
// The replacement is decided here, not by the schema: the framework adds a
// schema RequiresReplace before ModifyPlan runs and never takes one back
// (resource_unreported_replace.go), and only ModifyPlan can ask the
// platform.
//
// A kept box records the configured from_snapshot_id, in place, with no
// call that changes the box (Update sends nothing for it). Keeping the
// prior value instead, as sbx_snapshot keeps its lost source, would be
// accepted by Terraform (a planned value equal to the prior one) but would
// leave the recorded snapshot gone for good: every later plan would warn
// again, and no later change of from_snapshot_id could ever replace the
// box, since the recorded snapshot never comes back. The apply-time plan,
// which sees the new snapshot's id, plans the same in-place record (the
// recorded snapshot is still gone), so the two plans agree; the plan after
// is empty, and from then on a change to another snapshot replaces the box
// as before. A deliberate change to another existing snapshot while the
// recorded one is gone cannot be told from its sbx_snapshot created anew,
// so it is recorded too; the warning says how to restore anyway.

// pathSandboxFromSnapshotID is the sandbox's from_snapshot_id.
var pathSandboxFromSnapshotID = path.Root("from_snapshot_id")

// fromSnapshotReplaces reports whether the planned from_snapshot_id
// replaces the box (see above). When the snapshot recorded in state is
// gone, it makes state's value the planned one, so nothing judging the
// plan against state counts it as a replacement, and warns.
func (r *sandboxResource) fromSnapshotReplaces(ctx context.Context, plan sandboxModel, state *sandboxModel, diags *diag.Diagnostics) bool {
	planned, recorded := plan.FromSnapshotID, state.FromSnapshotID
	if planned.Equal(recorded) {
		return false
	}
	if planned.IsNull() || recorded.IsNull() || r.platform == nil || r.platform.Snapshots() == nil {
		return true // a switch to or from a template, or no platform to ask: replaced, as always
	}
	_, err := r.platform.Snapshots().Get(ctx, recorded.ValueString())
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
	diags.AddAttributeWarning(pathSandboxFromSnapshotID, "Sandbox kept: the snapshot it was restored from is gone",
		fmt.Sprintf("Sandbox %[1]s was restored from snapshot %[2]s, which no longer exists on %[3]s (deleted or expired).%[4]s The configured "+
			"from_snapshot_id %[5]s. A sandbox holds its own data from the moment it is restored, so the loss of its "+
			"snapshot never replaces it: the box is kept, with its data, and from_snapshot_id records the configured "+
			"value, in place, with no change to the box.\n\nTo start a new box from the configured snapshot instead, run "+
			"terraform apply -replace=<this resource>.",
			state.ID.ValueString(), recorded.String(), r.platform.Name(), goneReasonSentence(goneReason(err)), now))
	return false
}
