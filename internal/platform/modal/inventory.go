package modal

import (
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/sandboxinventory"
)

// uncheckedKinds are the Modal objects that carry no tags: nothing on them
// says the provider made them, or for whom, and Modal lists neither images
// nor (through the SDK) volumes.
var uncheckedKinds = []platform.UncheckedKind{
	{Kind: platform.KindTemplate, Reason: "Modal images carry no labels and cannot be listed"},
	{Kind: platform.KindVolume, Reason: "Modal volumes carry no labels, and the SDK cannot list them"},
	{Kind: platform.KindSnapshot, Reason: "Modal snapshots carry no labels and cannot be listed (the provider records them on their sandbox only)"},
}

// inventory is Modal's inventory: the app's running boxes carry the
// provider's marks in their tags; nothing else carries any.
func (p *Platform) inventory() sandboxinventory.Inventory {
	return sandboxinventory.Inventory{Platform: platformName, Sandboxes: &sandboxes{p: p}, Unchecked: uncheckedKinds}
}
