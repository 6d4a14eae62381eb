package e2b

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/restplatform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// volumeNamePattern is NewVolume.name's pattern in the API spec.
var volumeNamePattern = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

type volumes struct{ p *Platform }

// volumesBeta turns E2B's 403 for a team without volumes into advice.
func volumesBeta(err error) error {
	if rest.IsStatus(err, http.StatusForbidden) {
		return fmt.Errorf("E2B volumes are a private beta and are not enabled for this team: ask E2B support "+
			"(support@e2b.dev or the E2B Discord) to enable volumes for your team, then apply again: %w", err)
	}
	return err
}

// Create makes a volume. E2B volumes have only a name: no size, region or
// labels. A name already in use is a NotOwnedError; a create whose answer
// was lost is found again by name.
func (v *volumes) Create(ctx context.Context, spec platform.VolumeSpec) (*platform.Volume, error) {
	switch {
	case !volumeNamePattern.MatchString(spec.Name):
		return nil, fmt.Errorf("volume name %q: E2B volume names may hold only letters, digits, '_' and '-'", spec.Name)
	case spec.SizeGB != 0:
		return nil, &platform.UnsupportedError{Platform: "e2b", Capability: "volume sizes (size_gb)"}
	case spec.Region != "":
		return nil, &platform.UnsupportedError{Platform: "e2b", Capability: "volume regions"}
	case spec.FromSnapshotID != "":
		return nil, &platform.UnsupportedError{Platform: "e2b", Capability: "restoring a volume from a snapshot"}
	case len(spec.Labels) > 0:
		return nil, &platform.UnsupportedError{Platform: "e2b", Capability: "volume labels (E2B volumes have only a name)"}
	}
	// A volume of the name that exists before the create is not this
	// create's (E2B volumes carry no labels to tell); one found after a
	// lost answer, and not before, is.
	taken, err := v.List(ctx, platform.VolumeFilter{Name: spec.Name})
	if err != nil {
		return nil, fmt.Errorf("looking for a volume named %q: %w", spec.Name, err)
	}
	if len(taken) > 0 {
		return nil, &platform.NotOwnedError{Kind: "volume", Name: spec.Name, ID: taken[0].ID}
	}
	var out volumeAPI
	_, err = v.p.do(ctx, "POST", "/volumes", nil, newVolume{Name: spec.Name}, &out)
	if err == nil {
		return v.Get(ctx, out.VolumeID)
	}
	if !errors.Is(err, rest.ErrMaybeApplied) {
		return nil, volumesBeta(err)
	}
	// The answer was lost: look for the volume, with backoff (E2B lists a
	// new volume only after a delay), and never send the create again.
	var found *platform.Volume
	ok, waited, ferr := v.p.findLost(ctx, func(ctx context.Context) (bool, error) {
		vols, lerr := v.List(ctx, platform.VolumeFilter{Name: spec.Name})
		if lerr != nil || len(vols) == 0 {
			return false, lerr
		}
		found = &vols[0]
		return true, nil
	})
	if ok {
		tflog.Info(ctx, "the volume create's answer was lost; found the volume it made", map[string]any{"id": found.ID, "waited": waited.String()})
		return found, nil
	}
	return nil, lostCreate(fmt.Sprintf("volume %q", spec.Name), err, waited, ferr, fmt.Sprintf(
		"If it was made, E2B will list a volume named %q (the sbx_volume data source finds it by name): "+
			"import it (terraform import <address> <volume id>) or delete it, then apply again.", spec.Name))
}

// Get implements platform.VolumeService.
func (v *volumes) Get(ctx context.Context, id string) (*platform.Volume, error) {
	var out volumeAPI
	if _, err := v.p.do(ctx, "GET", "/volumes/"+pathID(id), nil, nil, &out); err != nil {
		return nil, volumesBeta(restplatform.NotFound(err, "volume", id))
	}
	vol := volumeFromAPI(out)
	attached, err := v.attachedTo(ctx, vol.Name)
	if err != nil {
		return nil, err
	}
	vol.AttachedTo = attached
	return vol, nil
}

// attachedTo lists the managed boxes that mount the named volume.
func (v *volumes) attachedTo(ctx context.Context, name string) ([]string, error) {
	rows, err := listAll[sandboxDetail](ctx, v.p, "/v2/sandboxes", nil)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, d := range rows {
		for _, m := range d.VolumeMounts {
			if m.Name == name {
				ids = append(ids, d.SandboxID)
				break
			}
		}
	}
	return ids, nil
}

func volumeFromAPI(a volumeAPI) *platform.Volume {
	// E2B cannot mark a volume as made by this provider; every volume the
	// team has counts as one the provider may manage.
	return &platform.Volume{ID: a.VolumeID, Name: a.Name, State: "ready", Labels: map[string]string{}, Managed: true}
}

// List implements platform.VolumeService; E2B's volume list has no pages.
func (v *volumes) List(ctx context.Context, filter platform.VolumeFilter) ([]platform.Volume, error) {
	var rows []volumeAPI
	if _, err := v.p.do(ctx, "GET", "/volumes", nil, nil, &rows); err != nil {
		return nil, volumesBeta(err)
	}
	var out []platform.Volume
	for _, r := range rows {
		if filter.Name != "" && r.Name != filter.Name {
			continue
		}
		if len(filter.Labels) > 0 {
			continue // E2B volumes carry no labels, so none match a label filter
		}
		out = append(out, *volumeFromAPI(r))
	}
	return out, nil
}

// Update implements platform.VolumeService: nothing about an E2B volume
// changes in place (it has a name only: no size, no labels).
func (v *volumes) Update(_ context.Context, _ string, change platform.VolumeUpdate) (*platform.Volume, error) {
	if change.SizeGB != nil {
		return nil, &platform.UnsupportedError{Platform: "e2b", Capability: "volume sizes"}
	}
	return nil, &platform.UnsupportedError{Platform: "e2b", Capability: "volume labels"}
}

// Delete implements platform.VolumeService.
func (v *volumes) Delete(ctx context.Context, id string) error {
	_, err := v.p.do(ctx, "DELETE", "/volumes/"+pathID(id), nil, nil, nil)
	if rest.IsNotFound(err) {
		return nil
	}
	return volumesBeta(err)
}
