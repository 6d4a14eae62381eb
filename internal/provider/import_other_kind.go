package provider

import (
	"context"
	"fmt"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// otherKindProbes are the kinds an id not found as the imported kind is
// looked up as, in this order: a snapshot first (its id is the likeliest
// to be pasted into the wrong import, and on some platforms a snapshot is
// also what a template lookup finds), a template last (where templates are
// records in state, any id reads as one: never probed there).
var otherKindProbes = []string{"snapshot", "sandbox", "volume", "template"}

// otherKind says what id is when an import of it as kind found nothing: the
// first other kind the platform holds an object of under id, and the
// resource to import it as; "" when it holds none (or cannot tell). It runs
// only after an import failed, so its lookups cost nothing on a good one.
// What a lookup answers other than the object is ignored: this is a hint.
func otherKind(ctx context.Context, plat platform.Platform, kind, id string) string {
	for _, other := range otherKindProbes {
		if other == kind || !holds(ctx, plat, other, id) {
			continue
		}
		return fmt.Sprintf("%s is a %s on %s: import it as sbx_%s", id, other, plat.Name(), other)
	}
	return ""
}

// holds reports whether the platform has an object of kind under id.
func holds(ctx context.Context, plat platform.Platform, kind, id string) bool {
	var err error
	switch kind {
	case "snapshot":
		_, err = plat.Snapshots().Get(ctx, id)
	case "sandbox":
		_, err = plat.Sandboxes().Get(ctx, id)
	case "volume":
		_, err = plat.Volumes().Get(ctx, id)
	case "template":
		if !plat.Capabilities().TemplatesListed {
			return false
		}
		_, err = plat.Templates().Get(ctx, id)
	default:
		return false
	}
	return err == nil
}
