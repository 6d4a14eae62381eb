package daytona

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/restplatform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// volumes are Daytona volumes: a name, S3-backed, mounted at create.
type volumes struct{ p *Platform }

// Daytona's volume states (VolumeState).
const (
	volReady   = "ready"
	volError   = "error"
	volDeleted = "deleted"
)

// volumeInUseBound bounds how long a delete waits for the boxes that mount
// the volume to go, when ctx allows longer.
const volumeInUseBound = 10 * time.Minute

// Create makes a volume and waits until it is ready. Daytona volumes carry
// no labels, so one of the name that exists before the create is not this
// create's: a NotOwnedError naming the import command.
func (v *volumes) Create(ctx context.Context, spec platform.VolumeSpec) (*platform.Volume, error) {
	switch {
	case spec.SizeGB != 0:
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "volume sizes (size_gb)"}
	case spec.Region != "":
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "volume regions"}
	case spec.FromSnapshotID != "":
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "restoring a volume from a snapshot"}
	case len(spec.Labels) > 0:
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "volume labels"}
	}
	taken, err := v.byName(ctx, spec.Name)
	if err != nil {
		return nil, fmt.Errorf("looking for a volume named %q: %w", spec.Name, err)
	}
	if taken != nil {
		return nil, takenName(spec.Name, taken.ID)
	}
	out, err := v.createOnce(ctx, spec.Name)
	if err != nil {
		return nil, err
	}
	read := func(ctx context.Context) (volumeAPI, error) { return v.read(ctx, out.ID) }
	got, err := waitFor(ctx, v.p, read, func(a volumeAPI) (bool, error) { return a.State == volReady || a.State == volError, nil })
	if err != nil {
		return volumeFromAPI(out), fmt.Errorf("waiting for the volume to be ready: %w", restplatform.NotFound(err, "volume", out.ID))
	}
	if got.State == volError {
		reason := "Daytona gave no reason"
		if got.ErrorReason != nil && *got.ErrorReason != "" {
			reason = *got.ErrorReason
		}
		return volumeFromAPI(got), fmt.Errorf("volume %s is in Daytona state error: %s", got.ID, reason)
	}
	return volumeFromAPI(got), nil
}

// createOnce sends POST /volumes. A lost answer is looked for by name
// (free before the create); not found, the create is sent once more, which
// a volume the first send made after all refuses as a taken name (400,
// volume.service.ts:104-114), found by name: never two volumes.
func (v *volumes) createOnce(ctx context.Context, name string) (volumeAPI, error) {
	for send := 1; ; send++ {
		var out volumeAPI
		_, err := v.p.do(ctx, http.MethodPost, "/volumes", nil, createVolume{Name: name}, &out)
		if err == nil {
			return out, nil
		}
		if rest.IsStatus(err, http.StatusBadRequest) || rest.IsConflict(err) {
			t, ferr := v.byName(ctx, name)
			switch {
			case ferr == nil && t != nil && send > 1:
				return *t, nil // made by the first send
			case ferr == nil && t != nil:
				return out, takenName(name, t.ID)
			}
			return out, err
		}
		if !errors.Is(err, rest.ErrMaybeApplied) {
			return out, err
		}
		var found *volumeAPI
		ok, waited, ferr := v.p.findLost(ctx, func(ctx context.Context) (bool, error) {
			f, lerr := v.byName(ctx, name)
			found = f
			return f != nil, lerr
		})
		if ok {
			tflog.Info(ctx, "the volume create's answer was lost; found the volume it made", map[string]any{"id": found.ID, "waited": waited.String()})
			return *found, nil
		}
		if ferr == nil && send < maxCreateSends {
			continue
		}
		return out, lostCreate(fmt.Sprintf("volume %q", name), err, waited, ferr, fmt.Sprintf(
			"If it was made, Daytona will list a volume named %q (the sbx_volume data source finds it by name): "+
				"import it (terraform import <address> <volume id>) or delete it, then apply again.", name))
	}
}

// takenName is the error of a create under a name another volume holds.
func takenName(name, id string) error {
	return &platform.NotOwnedError{Kind: "volume", Name: name, ID: id, Detail: "Daytona volume names are unique in an organisation"}
}

// byName returns the volume of the name, or nil.
func (v *volumes) byName(ctx context.Context, name string) (*volumeAPI, error) {
	var out volumeAPI
	_, err := v.p.do(ctx, http.MethodGet, "/volumes/by-name/"+pathID(name), nil, nil, &out)
	if rest.IsNotFound(err) || (err == nil && out.State == volDeleted) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &out, nil
}

func (v *volumes) read(ctx context.Context, id string) (volumeAPI, error) {
	var out volumeAPI
	_, err := v.p.do(ctx, http.MethodGet, "/volumes/"+pathID(id), nil, nil, &out)
	if err == nil && out.State == volDeleted {
		return out, &platform.NotFoundError{Kind: "volume", ID: id}
	}
	return out, err
}

// Get implements platform.VolumeService.
func (v *volumes) Get(ctx context.Context, id string) (*platform.Volume, error) {
	a, err := v.read(ctx, id)
	if err != nil {
		return nil, restplatform.NotFound(err, "volume", id)
	}
	vol := volumeFromAPI(a)
	if vol.AttachedTo, err = v.mountedBy(ctx, a.ID); err != nil {
		return nil, err
	}
	return vol, nil
}

// mountedBy lists the boxes (any, not only the provider's) that mount the
// volume. The list leaves out a box's volumes (SandboxListItem), so each
// box is read.
func (v *volumes) mountedBy(ctx context.Context, id string) ([]string, error) {
	s := &sandboxes{p: v.p}
	boxes, err := s.list(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("listing the sandboxes that mount volume %s: %w", id, err)
	}
	var ids []string
	for _, b := range boxes {
		if b.State == dtDestroyed || b.DesiredState == dtDestroyed {
			continue
		}
		d, err := s.detail(ctx, b.ID)
		if platform.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reading sandbox %s to tell whether it mounts volume %s: %w", b.ID, id, err)
		}
		if slices.ContainsFunc(d.Volumes, func(m sandboxVolume) bool { return m.VolumeID == id }) {
			ids = append(ids, b.ID)
		}
	}
	return ids, nil
}

func volumeFromAPI(a volumeAPI) *platform.Volume {
	// Daytona cannot mark a volume as made by this provider; every volume
	// of the organisation counts as one the provider may manage.
	return &platform.Volume{ID: a.ID, Name: a.Name, State: a.State, CreatedAt: a.CreatedAt.Time, Labels: map[string]string{}, Managed: true}
}

// List implements platform.VolumeService; Daytona's volume list has no pages.
func (v *volumes) List(ctx context.Context, filter platform.VolumeFilter) ([]platform.Volume, error) {
	var rows []volumeAPI
	if _, err := v.p.do(ctx, http.MethodGet, "/volumes", nil, nil, &rows); err != nil {
		return nil, err
	}
	var out []platform.Volume
	for _, r := range rows {
		if r.State == volDeleted || (filter.Name != "" && r.Name != filter.Name) || len(filter.Labels) > 0 {
			continue // volumes carry no labels, so none match a label filter
		}
		out = append(out, *volumeFromAPI(r))
	}
	return out, nil
}

// Update implements platform.VolumeService: nothing about a Daytona
// volume changes in place.
func (v *volumes) Update(context.Context, string, platform.VolumeUpdate) (*platform.Volume, error) {
	return nil, &platform.UnsupportedError{Platform: platformName, Capability: "changing a volume (Daytona volumes have only a name)"}
}

// Delete removes a volume. Daytona refuses it (409) while a box not being
// destroyed mounts it: the delete waits, within ctx and volumeInUseBound,
// for the boxes to go (Terraform destroys the box first), then fails
// naming them.
func (v *volumes) Delete(ctx context.Context, id string) error {
	var waited time.Duration
	for {
		_, err := v.p.do(ctx, http.MethodDelete, "/volumes/"+pathID(id), nil, nil, nil)
		switch {
		case rest.IsNotFound(err):
			return nil
		case err == nil:
			return v.p.waitGone(ctx, func(ctx context.Context) error {
				_, err := v.read(ctx, id)
				return err
			})
		case rest.IsStatus(err, http.StatusBadRequest):
			// Not ready or error: already being deleted, or still being made.
			a, rerr := v.read(ctx, id)
			if platform.IsNotFound(rerr) || rest.IsNotFound(rerr) {
				return nil
			}
			if rerr != nil {
				return err
			}
			switch a.State {
			case "pending_delete", "deleting", volDeleted:
				return nil
			case "pending_create", "creating":
			default:
				return err
			}
		case !rest.IsConflict(err):
			return err
		}
		if waited >= volumeInUseBound {
			return v.inUse(ctx, id, err)
		}
		if serr := v.p.sleep(ctx, v.p.poll); serr != nil {
			return v.inUse(context.WithoutCancel(ctx), id, err)
		}
		waited += v.p.poll
	}
}

// inUse is the error of a delete refused while boxes mount the volume.
func (v *volumes) inUse(ctx context.Context, id string, err error) error {
	if !rest.IsConflict(err) {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	boxes, lerr := v.mountedBy(ctx, id)
	if lerr != nil || len(boxes) == 0 {
		return fmt.Errorf("volume %s is still mounted by a sandbox (Daytona refused the delete): destroy the sandboxes that mount it first: %w", id, err)
	}
	return fmt.Errorf("volume %s is still mounted by sandbox %s (Daytona refused the delete): destroy or replace %s first, then destroy the volume: %w",
		id, strings.Join(boxes, ", "), map[bool]string{true: "it", false: "them"}[len(boxes) == 1], err)
}
