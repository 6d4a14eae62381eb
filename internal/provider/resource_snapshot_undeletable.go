package provider

import (
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// A platform may delete no snapshot at all (SnapshotDelete false), or all
// but some kinds (SnapshotUndeletableKinds). Destroying a snapshot it
// cannot delete only removes it from the state, with a warning giving when
// the platform deletes it by itself (snapshotExpiryPhrase): failing the
// destroy would leave a resource nobody can get rid of.

// snapshotUndeletable reports whether the platform cannot delete a
// snapshot of kind (its kind attribute in state).
func snapshotUndeletable(caps platform.Capabilities, kind types.String) bool {
	if !caps.SnapshotDelete {
		return true
	}
	return !kind.IsNull() && !kind.IsUnknown() &&
		slices.Contains(caps.SnapshotUndeletableKinds, platform.SnapshotKind(kind.ValueString()))
}

// snapshotUndeletableWhat names, for a warning, what the platform cannot
// delete: "snapshots", or "memory snapshots" where only that kind is kept.
func snapshotUndeletableWhat(caps platform.Capabilities, kind types.String) string {
	if !caps.SnapshotDelete {
		return "snapshots"
	}
	return kind.ValueString() + " snapshots"
}
