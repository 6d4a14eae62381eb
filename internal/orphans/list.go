package orphans

import (
	"context"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// listTwice lists what the provider made twice and takes every object
// either list shows. The command usually follows an interrupted apply, and
// the platforms' lists are eventually consistent: an object made a moment
// before may be missing from one list and shown by the next (Daytona's
// sandbox list is served from a search index, Fly's machine list and
// Modal's sandbox list may leave out what was created a moment ago). An
// orphan missed here would stay on the platform, billed and unowned; one
// listed twice is taken once.
func listTwice(ctx context.Context, inv platform.Inventory) (*platform.ManagedObjects, error) {
	first, err := inv.ListManaged(ctx)
	if err != nil {
		return nil, err
	}
	second, err := inv.ListManaged(ctx)
	if err != nil {
		return nil, err
	}
	seen := make(map[[2]string]bool, len(second.Objects))
	for _, o := range second.Objects {
		seen[[2]string{o.Kind, o.ID}] = true
	}
	for _, o := range first.Objects {
		if !seen[[2]string{o.Kind, o.ID}] {
			// Gone since the first list, or not shown by the second: a
			// removal checks again (RemoveManaged) before it acts.
			second.Objects = append(second.Objects, o)
		}
	}
	return second, nil
}
