package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Where a platform cannot tell a snapshot from other objects of its kind
// (a snapshot that is an image, as a template is), only records say an id
// is a snapshot the provider took: the platform's (its read leaves
// platform.Snapshot.Unrecorded empty) or the resource's own, written when
// its create made the snapshot. An id with neither is no snapshot to the
// provider: an import refuses it, and a destroy forgets it, never deleting
// what may be another configuration's template.

// privateKeySnapshotCreated records, as JSON true, that this resource's
// create made the snapshot.
const privateKeySnapshotCreated = "created"

// recordSnapshotCreated writes the resource's record of its create.
func recordSnapshotCreated(ctx context.Context, private privateStateWriter, diags *diag.Diagnostics) {
	diags.Append(private.SetKey(ctx, privateKeySnapshotCreated, []byte("true"))...)
}

// snapshotCreatedHere reads the resource's record of its create.
func snapshotCreatedHere(ctx context.Context, private privateState, diags *diag.Diagnostics) bool {
	raw, d := private.GetKey(ctx, privateKeySnapshotCreated)
	diags.Append(d...)
	return string(raw) == "true"
}

// unrecordedSettle is how long a snapshot read as unrecorded is given
// before it is read once more: a platform's record of a snapshot taken a
// moment ago may show only a moment later (a list that lags behind its
// creates), and a snapshot is refused or left in place only when its
// record is still missing then.
const unrecordedSettle = 2 * time.Second

// sleepFunc waits d, or until ctx ends.
type sleepFunc func(ctx context.Context, d time.Duration) error

// readSettled reads snapshot id, and once more after unrecordedSettle
// when the first read finds no record of it.
func readSettled(ctx context.Context, snaps platform.SnapshotService, id string, sleep sleepFunc) (*platform.Snapshot, error) {
	snap, err := snaps.Get(ctx, id)
	if err != nil || snap.Unrecorded == "" {
		return snap, err
	}
	if err := sleep(ctx, unrecordedSettle); err != nil {
		return nil, err
	}
	return snaps.Get(ctx, id)
}

// snapshotToImport reads id for an import: an object the platform cannot
// take for a snapshot the provider took is an error saying what it is.
func snapshotToImport(ctx context.Context, snaps platform.SnapshotService, id string, sleep sleepFunc) (platform.Marks, error) {
	snap, err := readSettled(ctx, snaps, id, sleep)
	if err == nil && snap.Unrecorded != "" {
		return platform.Marks{}, errors.New(snap.Unrecorded)
	}
	return platform.Marks{}, err
}

// forgetUnrecorded decides, before a destroy deletes snapshot id, whether
// to leave it in place: true when the resource did not create it and the
// platform has no record of the provider taking it (the warning says so).
// A snapshot the read finds gone is left to the delete, which tolerates
// that; a failed read is an error, and nothing is deleted.
func forgetUnrecorded(ctx context.Context, plat platform.Platform, private privateState, id string, sleep sleepFunc, diags *diag.Diagnostics) bool {
	if snapshotCreatedHere(ctx, private, diags) {
		return false
	}
	snap, err := readSettled(ctx, plat.Snapshots(), id, sleep)
	switch {
	case platform.IsNotFound(err):
		return false
	case err != nil:
		addPlatformError(diags, "read", "snapshot", id, err)
		return true
	case snap.Unrecorded == "":
		return false
	}
	diags.AddWarning("Snapshot left in place",
		fmt.Sprintf("The snapshot %q was removed from the Terraform state, but left in place on %s: %s. "+
			"The provider deletes only a snapshot it took. Remove it yourself if nothing needs it any more.",
			id, plat.Name(), snap.Unrecorded))
	return true
}
