package docker

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// snapshots implements platform.SnapshotService with images: a sandbox
// snapshot is a committed container, a volume snapshot an imported archive
// of the volume. A snapshot's id is its image id ("sha256:…").
type snapshots struct{ api *client.Client }

// Create snapshots a sandbox or a volume.
func (s *snapshots) Create(ctx context.Context, spec platform.SnapshotSpec) (*platform.Snapshot, error) {
	if spec.IncludeMemory {
		return nil, &platform.UnsupportedError{Platform: "docker", Capability: "memory snapshots (include_memory)"}
	}
	if spec.TTL != 0 {
		return nil, &platform.UnsupportedError{Platform: "docker", Capability: "snapshot expiry (ttl)"}
	}
	if (spec.SandboxID == "") == (spec.VolumeID == "") {
		return nil, errors.New("a snapshot needs exactly one of sandbox_id and volume_id")
	}
	spec.Marks = spec.Marks.Ensure()
	var (
		id  string
		err error
	)
	if spec.SandboxID != "" {
		id, err = commitSandbox(ctx, s.api, spec)
	} else {
		id, err = snapshotVolume(ctx, s.api, spec)
	}
	if id == "" {
		return nil, err
	}
	// Made, even if a cleanup after failed: the caller must learn of it.
	snap, getErr := s.Get(ctx, id)
	if snap == nil {
		return nil, errors.Join(err, getErr)
	}
	return snap, err
}

// Get reads a snapshot. An image that is not one of the provider's
// snapshots is reported as not found, saying what it is instead (as is an
// id that names a sandbox or a volume).
func (s *snapshots) Get(ctx context.Context, id string) (*platform.Snapshot, error) {
	img, err := s.api.ImageInspect(ctx, id)
	if cerrdefs.IsNotFound(err) {
		return nil, describeMissingImage(ctx, s.api, id)
	} else if err != nil {
		return nil, wrapErr("snapshot", id, err)
	}
	snap, ok := toSnapshot(img)
	if !ok {
		e := describeImage(img)
		e.id = id
		return nil, e
	}
	return snap, nil
}

// List returns the provider's snapshots matching the filter, newest first
// (ties in id order, so the order is stable).
func (s *snapshots) List(ctx context.Context, filter platform.SnapshotFilter) ([]platform.Snapshot, error) {
	list, err := s.api.ImageList(ctx, image.ListOptions{
		All:     true,
		Filters: filters.NewArgs(filters.Arg("label", platform.LabelManaged+"=true")),
	})
	if err != nil {
		return nil, fmt.Errorf("listing snapshots: %w", err)
	}
	var out []platform.Snapshot
	for _, summary := range list {
		if _, ok := snapshotKindOf(summary.Labels); !ok {
			continue
		}
		// Inspect for the exact creation time (the list has whole seconds).
		snap, err := s.Get(ctx, summary.ID)
		if platform.IsNotFound(err) {
			continue // removed since the list was read
		} else if err != nil {
			return nil, err
		}
		if matchSnapshot(*snap, filter) {
			out = append(out, *snap)
		}
	}
	sortSnapshots(out)
	return out, nil
}

// matchSnapshot reports whether a snapshot passes every set field of filter.
func matchSnapshot(s platform.Snapshot, f platform.SnapshotFilter) bool {
	return (f.Name == "" || s.Name == f.Name) &&
		(f.SandboxID == "" || s.SandboxID == f.SandboxID) &&
		(f.VolumeID == "" || s.VolumeID == f.VolumeID) &&
		platform.MatchLabels(s.Labels, f.Labels)
}

// sortSnapshots orders newest first, ties by id.
func sortSnapshots(list []platform.Snapshot) {
	sort.SliceStable(list, func(i, j int) bool {
		if !list[i].CreatedAt.Equal(list[j].CreatedAt) {
			return list[i].CreatedAt.After(list[j].CreatedAt)
		}
		return list[i].ID < list[j].ID
	})
}

// Delete removes a snapshot image and its tag. A snapshot already gone, or
// an image that is not one of the provider's snapshots, is left alone and
// reported as deleted. Nothing is forced: while sandboxes were created from
// the snapshot (or, for snapshots taken before snapshot images were
// written without a parent link, later snapshots build on it), Docker keeps
// the image, and Delete returns a ConflictError naming them. Layers a later
// snapshot shares stay on the engine for it.
func (s *snapshots) Delete(ctx context.Context, id string) error {
	img, err := s.api.ImageInspect(ctx, id)
	if cerrdefs.IsNotFound(err) {
		return nil
	} else if err != nil {
		return wrapErr("snapshot", id, err)
	}
	if _, ok := snapshotKindOf(img.Config.Labels); !ok {
		return nil
	}
	_, err = s.api.ImageRemove(ctx, img.ID, image.RemoveOptions{Force: false, PruneChildren: true})
	switch {
	case err == nil, cerrdefs.IsNotFound(err):
		return nil
	case cerrdefs.IsConflict(err):
		if reason := s.inUseReason(ctx, img.ID); reason != "" {
			return &platform.ConflictError{Kind: "snapshot", ID: id, Reason: reason}
		}
		return wrapErr("snapshot", id, err)
	default:
		return wrapErr("snapshot", id, err)
	}
}

// inUseReason says which containers and which later snapshots keep the
// image, or "" when none are found.
func (s *snapshots) inUseReason(ctx context.Context, imageID string) string {
	var parts []string
	users, err := s.api.ContainerList(ctx, container.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("ancestor", imageID))})
	if err == nil && len(users) > 0 {
		ids := make([]string, 0, len(users))
		for _, c := range users {
			ids = append(ids, c.ID)
		}
		sort.Strings(ids)
		parts = append(parts, fmt.Sprintf("sandboxes %s were created from it; delete them first", strings.Join(ids, ", ")))
	}
	children, err := s.api.ImageList(ctx, image.ListOptions{All: true})
	if err == nil {
		var ids []string
		for _, c := range children {
			if c.ParentID == imageID {
				ids = append(ids, c.ID)
			}
		}
		if len(ids) > 0 {
			sort.Strings(ids)
			parts = append(parts, fmt.Sprintf("snapshots %s build on it; delete them first", strings.Join(ids, ", ")))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Docker keeps a snapshot's image while it is in use: " + strings.Join(parts, "; ")
}

// toSnapshot normalizes a snapshot image; ok is false for other images.
func toSnapshot(img image.InspectResponse) (*platform.Snapshot, bool) {
	if img.Config == nil {
		return nil, false
	}
	labels := img.Config.Labels
	kind, ok := snapshotKindOf(labels)
	if !ok {
		return nil, false
	}
	out := &platform.Snapshot{
		ID:               img.ID,
		Name:             labels[platform.LabelName],
		Kind:             kind,
		ParentSnapshotID: labels[labelParentSnapshotID],
		SizeBytes:        img.Size,
		Labels:           snapshotUserLabels(labels),
		Managed:          labels[platform.LabelManaged] == "true",
		MadeWith:         platform.MarksOf(labels),
	}
	if kind == platform.SnapshotVolume {
		out.VolumeID = labels[labelVolumeID]
	} else {
		out.SandboxID = labels[labelSandboxID]
	}
	if t, err := time.Parse(time.RFC3339Nano, img.Created); err == nil {
		out.CreatedAt = t
	}
	return out, true
}
