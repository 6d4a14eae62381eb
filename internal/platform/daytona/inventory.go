package daytona

import (
	"context"
	"fmt"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

var _ platform.Inventory = (*Platform)(nil)

// uncheckedKinds are the Daytona objects that carry no labels: nothing on
// them says the provider made them, or for whom.
var uncheckedKinds = []platform.UncheckedKind{
	{Kind: platform.KindTemplate, Reason: "Daytona snapshots (templates) carry no labels"},
	{Kind: platform.KindVolume, Reason: "Daytona volumes carry no labels"},
	{Kind: platform.KindSnapshot, Reason: "Daytona snapshots carry no labels"},
}

// ListManaged implements platform.Inventory: every sandbox whose labels
// carry the managed label (filtered on the server), with its owner and
// create token. Templates, volumes and snapshots are reported unchecked.
func (p *Platform) ListManaged(ctx context.Context) (*platform.ManagedObjects, error) {
	boxes, err := (&sandboxes{p: p}).List(ctx, platform.SandboxFilter{})
	if err != nil {
		return nil, fmt.Errorf("listing sandboxes: %w", err)
	}
	out := &platform.ManagedObjects{Unchecked: append([]platform.UncheckedKind(nil), uncheckedKinds...)}
	for _, sb := range boxes {
		l := sb.Labels
		if l[platform.LabelManaged] != "true" || l[platform.LabelKind] != kindSandbox {
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

// RemoveManaged implements platform.Inventory: it deletes a sandbox that
// still carries the marks it was listed with. Nothing else is listed.
func (p *Platform) RemoveManaged(ctx context.Context, o platform.ManagedObject) error {
	if o.Kind != platform.KindSandbox {
		return &platform.UnsupportedError{Platform: platformName, Capability: "telling the provider's " + o.Kind + "s from others"}
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
