package platform

import (
	"context"
	"fmt"
)

// SandboxInventory is the Inventory of a platform on which only sandboxes
// carry the provider's labels (E2B, Daytona): its templates, volumes and
// snapshots carry nothing that says the provider made them, or for whom, so
// they are reported unchecked rather than guessed at.
type SandboxInventory struct {
	// Platform is the platform's short name, for the error of a removal
	// of a kind it cannot list.
	Platform string
	// Sandboxes lists, reads and deletes the platform's boxes.
	Sandboxes SandboxService
	// Unchecked are the kinds the platform cannot check, and why.
	Unchecked []UncheckedKind
}

var _ Inventory = SandboxInventory{}

// ListManaged implements Inventory: every sandbox whose labels carry the
// managed label and the LabelKind KindSandbox (the value both platforms
// mark their boxes with), with its owner and create token.
func (i SandboxInventory) ListManaged(ctx context.Context) (*ManagedObjects, error) {
	boxes, err := i.Sandboxes.List(ctx, SandboxFilter{})
	if err != nil {
		return nil, fmt.Errorf("listing sandboxes: %w", err)
	}
	out := &ManagedObjects{Unchecked: append([]UncheckedKind(nil), i.Unchecked...)}
	for _, sb := range boxes {
		l := sb.Labels
		if l[LabelManaged] != "true" || l[LabelKind] != KindSandbox {
			continue
		}
		out.Objects = append(out.Objects, ManagedObject{
			Kind: KindSandbox, ID: sb.ID, Name: l[LabelName],
			Owner: l[LabelOwner], CreateToken: l[LabelCreateToken],
			CreatedAt: sb.CreatedAt, Detail: sb.PlatformStatus,
		})
	}
	return out, nil
}

// RemoveManaged implements Inventory: it deletes a sandbox that still
// carries the marks it was listed with. Nothing else is listed, so any
// other kind is unsupported.
func (i SandboxInventory) RemoveManaged(ctx context.Context, o ManagedObject) error {
	if o.Kind != KindSandbox {
		return &UnsupportedError{Platform: i.Platform, Capability: "telling the provider's " + o.Kind + "s from others"}
	}
	sb, err := i.Sandboxes.Get(ctx, o.ID)
	if err != nil {
		return err
	}
	if sb.Labels[LabelKind] != KindSandbox || !o.Carries(sb.Labels) {
		return o.ChangedError()
	}
	return i.Sandboxes.Delete(ctx, o.ID)
}
