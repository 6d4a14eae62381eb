package orphans

import (
	"context"

	"github.com/sbxhq/terraform-provider-sbx/internal/listing"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// listTwice lists what the provider made twice (listing.Twice) and takes
// every object either list shows, with the second list's unchecked kinds.
// The command usually follows an interrupted apply, and the platforms'
// lists are eventually consistent: an orphan missed here would stay on the
// platform, billed and unowned; one listed twice is taken once. An object
// gone since the first list is checked again (RemoveManaged) before any
// removal acts on it.
func listTwice(ctx context.Context, inv platform.Inventory) (*platform.ManagedObjects, error) {
	var last *platform.ManagedObjects
	objects, err := listing.Twice(ctx, func(ctx context.Context) ([]platform.ManagedObject, error) {
		m, err := inv.ListManaged(ctx)
		if err != nil {
			return nil, err
		}
		last = m
		return m.Objects, nil
	}, func(o platform.ManagedObject) string { return o.Kind + "\x00" + o.ID })
	if err != nil {
		return nil, err
	}
	last.Objects = objects
	return last, nil
}
