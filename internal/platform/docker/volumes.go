package docker

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/volume"
	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Volume states as reported in platform.Volume.State.
const (
	volumeStateAvailable = "available"
	volumeStateAttached  = "attached"
)

// volumes implements platform.VolumeService with Docker volumes. A volume's
// id is its name, which Docker keeps unique.
type volumes struct{ api *client.Client }

// Create makes a volume, or finds again the one an interrupted create made.
// With FromSnapshotID it restores a volume snapshot into the new volume; a
// failed restore removes the volume again.
func (s *volumes) Create(ctx context.Context, spec platform.VolumeSpec) (*platform.Volume, error) {
	if spec.SizeGB != 0 {
		return nil, &platform.UnsupportedError{Platform: "docker", Capability: "volume sizes (size_gb)"}
	}
	if spec.Region != "" {
		return nil, &platform.UnsupportedError{Platform: "docker", Capability: "volume regions (region)"}
	}
	spec.Marks = spec.Marks.Ensure()
	if existing, err := s.api.VolumeInspect(ctx, spec.Name); err == nil {
		return s.foundAgain(ctx, existing, spec)
	} else if !cerrdefs.IsNotFound(err) {
		return nil, wrapErr("volume", spec.Name, err)
	}
	if spec.FromSnapshotID != "" {
		// Check the snapshot before making anything, so a wrong id leaves nothing behind.
		if _, err := inspectVolumeSnapshot(ctx, s.api, spec.FromSnapshotID); err != nil {
			return nil, err
		}
	}
	labels := managedLabels(kindVolume, spec.Name, spec.Marks, spec.Labels)
	if spec.FromSnapshotID != "" {
		labels[labelFromSnapshotID] = spec.FromSnapshotID
	}
	made, err := s.api.VolumeCreate(ctx, volume.CreateOptions{Name: spec.Name, Labels: labels})
	if err != nil {
		return nil, wrapErr("volume", spec.Name, err)
	}
	// The engine answers a create of a name that exists with the existing
	// volume, unchanged: a create racing this one (another state, or a
	// second resource of the same name) made it, and it is not ours.
	if !spec.Marks.MadeBy(made.Labels) {
		return nil, &platform.NotOwnedError{Kind: "volume", Name: spec.Name, ID: made.Name, Detail: provenance(made.Labels, kindVolume)}
	}
	if spec.FromSnapshotID != "" {
		if err := restoreVolumeSnapshot(ctx, s.api, spec.FromSnapshotID, spec.Name); err != nil {
			if rmErr := s.removeHalfMade(spec.Name); rmErr != nil {
				return nil, fmt.Errorf("restoring snapshot %s into volume %q: %w (removing the half-restored volume also failed: %v)", spec.FromSnapshotID, spec.Name, err, rmErr)
			}
			return nil, fmt.Errorf("restoring snapshot %s into volume %q: %w", spec.FromSnapshotID, spec.Name, err)
		}
		return s.Get(ctx, spec.Name)
	}
	// The engine answered with the volume it made, labels and creation
	// time included, and it was not there at the inspect above, so no
	// container mounts it yet: reading it back (an inspect, and a list of
	// the containers) would only say the same again, two more requests a
	// volume.
	out := toVolume(made, nil)
	return &out, nil
}

// foundAgain decides what an existing volume of the requested name is: the
// one this very create made (a retried request; returned as is), or anyone
// else's, which is a NotOwnedError: another state's volume, a volume made by
// hand, or one an interrupted apply left. Generic labels prove nothing here;
// only this create's token does.
func (s *volumes) foundAgain(ctx context.Context, v volume.Volume, spec platform.VolumeSpec) (*platform.Volume, error) {
	if !spec.Marks.MadeBy(v.Labels) {
		return nil, &platform.NotOwnedError{Kind: "volume", Name: spec.Name, ID: v.Name, Detail: provenance(v.Labels, kindVolume)}
	}
	return s.Get(ctx, spec.Name)
}

// removeHalfMade removes a volume whose create failed part way, on a fresh
// context so that a cancelled create still leaves nothing behind.
func (s *volumes) removeHalfMade(name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), helperCleanupTimeout)
	defer cancel()
	if err := s.api.VolumeRemove(ctx, name, false); err != nil && !cerrdefs.IsNotFound(err) {
		return err
	}
	return nil
}

// Get reads a volume, managed or not (data sources and imports read
// volumes the provider did not make).
func (s *volumes) Get(ctx context.Context, id string) (*platform.Volume, error) {
	v, err := s.api.VolumeInspect(ctx, id)
	if err != nil {
		return nil, wrapErr("volume", id, err)
	}
	users, err := volumeUsers(ctx, s.api, v.Name)
	if err != nil {
		return nil, err
	}
	out := toVolume(v, users)
	return &out, nil
}

// List returns every volume on the engine (managed or not) whose name and
// labels match, sorted by name.
func (s *volumes) List(ctx context.Context, filter platform.VolumeFilter) ([]platform.Volume, error) {
	resp, err := s.api.VolumeList(ctx, volume.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("listing volumes: %w", err)
	}
	users, err := allVolumeUsers(ctx, s.api)
	if err != nil {
		return nil, err
	}
	var out []platform.Volume
	for _, v := range resp.Volumes {
		if v == nil || (filter.Name != "" && v.Name != filter.Name) {
			continue
		}
		if !platform.MatchLabels(platform.UserLabels(v.Labels), filter.Labels) {
			continue
		}
		out = append(out, toVolume(*v, users[v.Name]))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Update relabels a volume (setLabels). Local Docker volumes have no
// size: a size is ErrUnsupported.
func (s *volumes) Update(ctx context.Context, id string, change platform.VolumeUpdate) (*platform.Volume, error) {
	if change.SizeGB != nil {
		return nil, &platform.UnsupportedError{Platform: "docker", Capability: "volume sizes (size_gb)"}
	}
	if change.Labels != nil {
		return s.setLabels(ctx, id, *change.Labels)
	}
	return s.Get(ctx, id)
}

// Delete removes a volume. One that is already gone is not an error; one
// that containers mount is a conflict naming them.
func (s *volumes) Delete(ctx context.Context, id string) error {
	err := s.api.VolumeRemove(ctx, id, false)
	switch {
	case err == nil:
		removeHelperImageIfUnused(ctx, s.api)
		return nil
	case cerrdefs.IsNotFound(err):
		return nil
	case cerrdefs.IsConflict(err):
		users, listErr := volumeMounters(ctx, s.api, id, true)
		if listErr != nil || len(users) == 0 {
			return wrapErr("volume", id, err)
		}
		return &platform.ConflictError{Kind: "volume", ID: id,
			Reason: fmt.Sprintf("it is in use by containers %s; delete those sandboxes first", strings.Join(users, ", "))}
	default:
		return wrapErr("volume", id, err)
	}
}

// toVolume normalizes a Docker volume.
func toVolume(v volume.Volume, users []string) platform.Volume {
	out := platform.Volume{
		ID:             v.Name,
		Name:           v.Name,
		State:          volumeStateAvailable,
		FromSnapshotID: v.Labels[labelFromSnapshotID],
		AttachedTo:     users,
		Labels:         platform.UserLabels(v.Labels),
		Managed:        v.Labels[platform.LabelManaged] == "true",
		MadeWith:       platform.MarksOf(v.Labels),
	}
	if len(users) > 0 {
		out.State = volumeStateAttached
	}
	created := v.CreatedAt
	if first := v.Labels[labelCreatedAt]; first != "" {
		created = first // a relabelled volume keeps its first creation time
	}
	if t, err := time.Parse(time.RFC3339Nano, created); err == nil {
		out.CreatedAt = t
	}
	return out
}

// volumeUsers lists the ids of the sandboxes (non-helper containers) that
// mount the volume, sorted.
func volumeUsers(ctx context.Context, api *client.Client, name string) ([]string, error) {
	return volumeMounters(ctx, api, name, false)
}

// volumeMounters lists the containers that mount the volume; helper
// containers only when withHelpers is true.
func volumeMounters(ctx context.Context, api *client.Client, name string, withHelpers bool) ([]string, error) {
	list, err := api.ContainerList(ctx, container.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("volume", name))})
	if err != nil {
		return nil, fmt.Errorf("listing the containers that mount volume %q: %w", name, err)
	}
	return mountersOf(list, withHelpers)[name], nil
}

// allVolumeUsers maps every volume name to the sandboxes that mount it.
func allVolumeUsers(ctx context.Context, api *client.Client) (map[string][]string, error) {
	list, err := api.ContainerList(ctx, container.ListOptions{All: true})
	if err != nil {
		return nil, fmt.Errorf("listing containers: %w", err)
	}
	return mountersOf(list, false), nil
}

// mountersOf maps volume names to the ids of the containers mounting them.
// The engine's "volume" filter also matches mount destinations, so the
// mounts themselves are checked.
func mountersOf(list []container.Summary, withHelpers bool) map[string][]string {
	out := map[string][]string{}
	for _, c := range list {
		if !withHelpers && c.Labels[platform.LabelKind] == kindHelperContainer {
			continue
		}
		for _, m := range c.Mounts {
			if m.Type == "volume" && m.Name != "" {
				out[m.Name] = append(out[m.Name], c.ID)
			}
		}
	}
	for _, ids := range out {
		sort.Strings(ids)
	}
	return out
}
