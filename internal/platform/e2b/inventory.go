package e2b

import (
	"context"
	"fmt"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
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

// ListManaged implements platform.Inventory: every running or paused
// sandbox whose metadata carries the managed label, with its owner and
// create token from the metadata. Templates, volumes and snapshots are
// reported as unchecked.
func (p *Platform) ListManaged(ctx context.Context) (*platform.ManagedObjects, error) {
	boxes, err := (&sandboxes{p: p}).List(ctx, platform.SandboxFilter{})
	if err != nil {
		return nil, fmt.Errorf("listing sandboxes: %w", err)
	}
	out := &platform.ManagedObjects{Unchecked: append([]platform.UncheckedKind(nil), uncheckedKinds...)}
	for _, sb := range boxes {
		md := sb.Labels
		if md[platform.LabelManaged] != "true" || md[platform.LabelKind] != kindSandbox {
			continue
		}
		out.Objects = append(out.Objects, platform.ManagedObject{
			Kind:        platform.KindSandbox,
			ID:          sb.ID,
			Name:        md[platform.LabelName],
			Owner:       md[platform.LabelOwner],
			CreateToken: md[platform.LabelCreateToken],
			CreatedAt:   sb.CreatedAt,
			Detail:      sb.PlatformStatus,
		})
	}
	return out, nil
}

// RemoveManaged implements platform.Inventory: it kills a sandbox that
// still carries the marks it was listed with. Nothing else is listed.
func (p *Platform) RemoveManaged(ctx context.Context, o platform.ManagedObject) error {
	if o.Kind != platform.KindSandbox {
		return &platform.UnsupportedError{Platform: "e2b", Capability: "telling the provider's " + o.Kind + "s from others"}
	}
	s := &sandboxes{p: p}
	sb, err := s.Get(ctx, o.ID)
	if err != nil {
		return err
	}
	if sb.Labels[platform.LabelKind] != kindSandbox || !o.Carries(sb.Labels) {
		return o.ChangedError()
	}
	return s.Delete(ctx, o.ID)
}
