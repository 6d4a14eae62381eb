// Package sandboxinventory is the platform.Inventory of the platforms on
// which only sandboxes carry the provider's labels (E2B, Daytona, Fly,
// Modal). It is no part of the platform contract: a platform that labels
// more than its boxes (Docker) has an inventory of its own.
package sandboxinventory

import (
	"context"
	"fmt"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Inventory is the platform.Inventory of a platform on which only sandboxes
// carry the provider's labels: its templates, volumes and
// snapshots carry nothing that says the provider made them, or for whom, so
// they are reported unchecked rather than guessed at.
type Inventory struct {
	// Platform is the platform's short name, for the error of a removal
	// of a kind it cannot list.
	Platform string
	// Sandboxes lists, reads and deletes the platform's boxes.
	Sandboxes platform.SandboxService
	// Unchecked are the kinds the platform cannot check, and why.
	Unchecked []platform.UncheckedKind
}

var _ platform.Inventory = Inventory{}

// ListManaged implements platform.Inventory: every sandbox whose labels carry the
// managed label and the platform.LabelKind platform.KindSandbox (the value both platforms
// mark their boxes with), with its owner and create token.
func (i Inventory) ListManaged(ctx context.Context) (*platform.ManagedObjects, error) {
	boxes, err := i.Sandboxes.List(ctx, platform.SandboxFilter{})
	if err != nil {
		return nil, fmt.Errorf("listing sandboxes: %w", err)
	}
	out := &platform.ManagedObjects{Unchecked: append([]platform.UncheckedKind(nil), i.Unchecked...)}
	for _, sb := range boxes {
		l := sb.Labels
		if l[platform.LabelManaged] != "true" || l[platform.LabelKind] != platform.KindSandbox {
			continue
		}
		out.Objects = append(out.Objects, platform.ManagedObject{
			Kind: platform.KindSandbox, ID: sb.ID, Name: l[platform.LabelName],
			Owner: l[platform.LabelOwner], CreateToken: l[platform.LabelCreateToken],
			CreatedAt: sb.CreatedAt, Detail: sb.PlatformStatus,
		})
	}
	return out, nil
}

// RemoveManaged implements platform.Inventory: it deletes a sandbox that still
// carries the marks it was listed with. Nothing else is listed, so any
// other kind is unsupported.
func (i Inventory) RemoveManaged(ctx context.Context, o platform.ManagedObject) error {
	if o.Kind != platform.KindSandbox {
		return &platform.UnsupportedError{Platform: i.Platform, Capability: "telling the provider's " + o.Kind + "s from others"}
	}
	sb, err := i.Sandboxes.Get(ctx, o.ID)
	if err != nil {
		return err
	}
	if sb.Labels[platform.LabelKind] != platform.KindSandbox || !o.Carries(sb.Labels) {
		return o.ChangedError()
	}
	return i.Sandboxes.Delete(ctx, o.ID)
}
