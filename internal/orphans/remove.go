package orphans

import (
	"context"
	"fmt"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Outcome of removing one orphan.
type Outcome string

// The outcomes of a removal.
const (
	Removed     Outcome = "removed"
	AlreadyGone Outcome = "already gone"
	Failed      Outcome = "failed"
)

// Removal is what happened to one orphan.
type Removal struct {
	Object  platform.ManagedObject
	Outcome Outcome
	Err     error
}

// Remove removes the orphans in the order given (Find's: sandboxes,
// snapshots, volumes, templates). The platform removes an object only if
// it still is the one listed; one already gone is reported as such, not as
// a failure, and a failure does not stop the others. Once ctx is done the
// rest are reported as not removed.
func Remove(ctx context.Context, inv platform.Inventory, orphans []platform.ManagedObject) []Removal {
	out := make([]Removal, 0, len(orphans))
	for _, o := range orphans {
		r := Removal{Object: o, Outcome: Removed}
		err := ctx.Err()
		if err != nil {
			err = fmt.Errorf("not removed: %w", err)
		} else {
			err = inv.RemoveManaged(ctx, o)
		}
		switch {
		case platform.IsNotFound(err):
			r.Outcome = AlreadyGone
		case err != nil:
			r.Outcome, r.Err = Failed, err
		}
		out = append(out, r)
	}
	return out
}
