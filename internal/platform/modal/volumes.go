package modal

import (
	"context"
	"fmt"

	modal "github.com/modal-labs/modal-client/go"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// volumes are Modal Volumes (v2). The SDK finds a volume by name only, so
// a volume's id is its name; Modal keeps no labels, size or region on it.
type volumes struct{ p *Platform }

// volumeOf is the volume of a name.
func volumeOf(name string) *platform.Volume {
	return &platform.Volume{ID: name, Name: name, Managed: true, Labels: map[string]string{}}
}

// Create implements platform.VolumeService. The name is looked up first:
// the SDK's create-if-missing would hand back a volume of the name that
// someone else made, and two resources would share it, so a volume found
// is a NotOwnedError (import it instead). A volume made by another create
// between the lookup and the create is still taken over; Modal offers no
// create that fails on a taken name through the SDK, so that window stays.
func (v *volumes) Create(ctx context.Context, spec platform.VolumeSpec) (*platform.Volume, error) {
	if spec.FromSnapshotID != "" || spec.SizeGB > 0 || spec.Region != "" || len(platform.UserLabels(spec.Labels)) > 0 {
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "volume size, region, labels or snapshots"}
	}
	if p := nameProblem(spec.Name); p != "" {
		return nil, fmt.Errorf("name = %q %s", spec.Name, p)
	}
	_, err := v.p.client.Volumes.FromName(ctx, spec.Name, nil)
	switch {
	case err == nil:
		return nil, &platform.NotOwnedError{Kind: "volume", Name: spec.Name, ID: spec.Name,
			Detail: "Modal volumes carry no labels, so nothing tells which create made it"}
	case !isNotFound(err):
		return nil, fmt.Errorf("looking up Modal volume %q: %w", spec.Name, translate(err))
	}
	if _, err := v.p.client.Volumes.FromName(ctx, spec.Name, &modal.VolumeFromNameParams{CreateIfMissing: true, Version: 2}); err != nil {
		return v.createLost(ctx, spec.Name, err)
	}
	return volumeOf(spec.Name), nil
}

// createLost answers a create that failed. One whose every answer was lost
// may still have made the volume: the name was free a moment before, so a
// volume of that name now is this create's and is kept in state rather
// than left for the next apply to refuse as someone else's. Otherwise the
// failure stands, saying so when it cannot be told whether Modal acted.
func (v *volumes) createLost(ctx context.Context, name string, createErr error) (*platform.Volume, error) {
	if !mayHaveApplied(createErr) {
		return nil, fmt.Errorf("creating Modal volume %q: %w", name, translate(createErr))
	}
	_, err := v.p.client.Volumes.FromName(ctx, name, nil)
	switch {
	case err == nil:
		return volumeOf(name), nil
	case isNotFound(err):
		return nil, fmt.Errorf("creating Modal volume %q: %w (no volume of that name exists: applying again is safe)", name, translate(createErr))
	default:
		return nil, fmt.Errorf("creating Modal volume %q: %w; whether Modal made it cannot be told (looking it up failed: %v): "+
			"if a volume of that name exists, import it with `terraform import` and its name", name, translate(createErr), translate(err))
	}
}

// Get implements platform.VolumeService: the volume of the name, if Modal has it.
func (v *volumes) Get(ctx context.Context, id string) (*platform.Volume, error) {
	if _, err := v.p.client.Volumes.FromName(ctx, id, nil); err != nil {
		return nil, notFoundOr(err, "volume", id)
	}
	return volumeOf(id), nil
}

// List implements platform.VolumeService: by name only. The SDK lists no
// volumes (Modal's VolumeList is not in it), so a filter without a name
// returns nothing, and volumes carry no labels to filter by.
func (v *volumes) List(ctx context.Context, filter platform.VolumeFilter) ([]platform.Volume, error) {
	if filter.Name == "" || len(filter.Labels) > 0 {
		return nil, nil
	}
	vol, err := v.Get(ctx, filter.Name)
	if platform.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return []platform.Volume{*vol}, nil
}

// Update implements platform.VolumeService: nothing of a Modal volume
// changes in place (the attribute table has no in-place row).
func (v *volumes) Update(context.Context, string, platform.VolumeUpdate) (*platform.Volume, error) {
	return nil, &platform.UnsupportedError{Platform: platformName, Capability: "changing a volume in place"}
}

// Delete implements platform.VolumeService: a volume already gone is fine.
func (v *volumes) Delete(ctx context.Context, id string) error {
	if err := v.p.client.Volumes.Delete(ctx, id, &modal.VolumeDeleteParams{AllowMissing: true}); err != nil {
		return fmt.Errorf("deleting Modal volume %q: %w", id, translate(err))
	}
	return nil
}
