package e2b

import (
	"context"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/sandboxinventory"
)

var _ platform.Inventory = (*Platform)(nil)

// uncheckedKinds are the E2B objects that carry no metadata: nothing on
// them says the provider made them, or for whom, so no inventory of them
// can tell the provider's from anyone else's.
var uncheckedKinds = []platform.UncheckedKind{
	{Kind: platform.KindTemplate, Reason: "E2B templates carry no labels"},
	{Kind: platform.KindVolume, Reason: "E2B volumes carry no labels"},
	{Kind: platform.KindSnapshot, Reason: "E2B snapshots carry no labels"},
}

// inventory is E2B's inventory: sandboxes (running or paused) carry the
// provider's labels in their metadata; nothing else does.
func (p *Platform) inventory() sandboxinventory.Inventory {
	return sandboxinventory.Inventory{Platform: "e2b", Sandboxes: &sandboxes{p: p}, Unchecked: uncheckedKinds}
}

// ListManaged implements platform.Inventory: every running or paused
// sandbox whose metadata carries the managed label, with its owner and
// create token from the metadata. Templates, volumes and snapshots are
// reported as unchecked.
func (p *Platform) ListManaged(ctx context.Context) (*platform.ManagedObjects, error) {
	return p.inventory().ListManaged(ctx)
}

// RemoveManaged implements platform.Inventory: it kills a sandbox that
// still carries the marks it was listed with. Nothing else is listed.
func (p *Platform) RemoveManaged(ctx context.Context, o platform.ManagedObject) error {
	return p.inventory().RemoveManaged(ctx, o)
}
