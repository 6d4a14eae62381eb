package daytona

import (
	"context"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/sandboxinventory"
)

var _ platform.Inventory = (*Platform)(nil)

// uncheckedKinds are the Daytona objects that carry no labels: nothing on
// them says the provider made them, or for whom.
var uncheckedKinds = []platform.UncheckedKind{
	{Kind: platform.KindTemplate, Reason: "Daytona snapshots (templates) carry no labels"},
	{Kind: platform.KindVolume, Reason: "Daytona volumes carry no labels"},
	{Kind: platform.KindSnapshot, Reason: "Daytona snapshots carry no labels"},
}

// inventory is Daytona's inventory: sandboxes carry the provider's labels
// (filtered on the server when listed); nothing else does.
func (p *Platform) inventory() sandboxinventory.Inventory {
	return sandboxinventory.Inventory{Platform: platformName, Sandboxes: &sandboxes{p: p}, Unchecked: uncheckedKinds}
}

// ListManaged implements platform.Inventory: every sandbox whose labels
// carry the managed label, with its owner and create token. Templates,
// volumes and snapshots are reported unchecked.
func (p *Platform) ListManaged(ctx context.Context) (*platform.ManagedObjects, error) {
	return p.inventory().ListManaged(ctx)
}

// RemoveManaged implements platform.Inventory: it deletes a sandbox that
// still carries the marks it was listed with. Nothing else is listed.
func (p *Platform) RemoveManaged(ctx context.Context, o platform.ManagedObject) error {
	return p.inventory().RemoveManaged(ctx, o)
}
