package docker

import (
	"context"
	"fmt"
	"sort"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// snapshotVolume archives a volume's files (modes and owners kept) into an
// image holding them under /vol, and returns the image id.
func snapshotVolume(ctx context.Context, api *client.Client, spec platform.SnapshotSpec) (string, error) {
	if _, err := api.VolumeInspect(ctx, spec.VolumeID); err != nil {
		return "", wrapErr("volume", spec.VolumeID, err)
	}
	changes, err := volumeSnapshotChanges(spec)
	if err != nil {
		return "", err
	}
	ref := volumeSnapshotRepo + ":" + randomHex(6)
	var id string
	mounts := []mount.Mount{helperMount(spec.VolumeID, volumeMountDir, true)}
	err = withVolumeHelper(ctx, api, spec.VolumeID, mounts, func(helper string) error {
		rc, _, err := api.CopyFromContainer(ctx, helper, volumeMountDir)
		if err != nil {
			return fmt.Errorf("reading volume %q: %w", spec.VolumeID, err)
		}
		// An archive stream from the engine: a failed read or write shows
		// up where it is used, and closing it only frees the connection.
		defer func() { _ = rc.Close() }()
		// The archive's entries are vol/…, so the image holds them at /vol.
		id, err = importImage(ctx, api, rc, ref, changes)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("snapshot of volume %q: %w", spec.VolumeID, err)
	}
	if id == "" {
		return inspectImageID(ctx, api, ref)
	}
	return id, nil
}

// volumeSnapshotChanges are the LABEL instructions of a volume snapshot
// image. User labels a Dockerfile line cannot carry are kept only in the
// JSON label.
func volumeSnapshotChanges(spec platform.SnapshotSpec) ([]string, error) {
	if err := checkLabelForChange(platform.LabelName, spec.Name); err != nil {
		return nil, fmt.Errorf("snapshot name: %w", err)
	}
	labels := snapshotLabels(kindVolumeSnapshot, spec.Name, "", spec.VolumeID, "", spec.Marks, spec.Labels)
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	changes := make([]string, 0, len(keys))
	for _, k := range keys {
		if checkLabelForChange(k, labels[k]) != nil {
			continue
		}
		changes = append(changes, labelChange(k, labels[k]))
	}
	return changes, nil
}

// inspectVolumeSnapshot checks that id is one of the provider's volume
// snapshots, and says what to do instead when it is a sandbox snapshot.
func inspectVolumeSnapshot(ctx context.Context, api *client.Client, id string) (*platform.Snapshot, error) {
	img, err := api.ImageInspect(ctx, id)
	if err != nil {
		return nil, wrapErr("snapshot", id, err)
	}
	snap, ok := toSnapshot(img)
	if !ok {
		return nil, &platform.NotFoundError{Kind: "snapshot", ID: id}
	}
	if snap.Kind != platform.SnapshotVolume {
		return nil, &platform.ConflictError{Kind: "snapshot", ID: id,
			Reason: fmt.Sprintf("snapshot %s is a sandbox snapshot; restore it with sbx_sandbox.from_snapshot_id", id)}
	}
	return snap, nil
}

// restoreVolumeSnapshot copies a volume snapshot's files into a volume:
// out of a container made from the snapshot image (never started) and into
// a helper container mounting the volume.
func restoreVolumeSnapshot(ctx context.Context, api *client.Client, snapshotID, volumeName string) error {
	snap, err := inspectVolumeSnapshot(ctx, api, snapshotID)
	if err != nil {
		return err
	}
	return withHelperContainer(ctx, api, snap.ID, volumeName, nil, func(source string) error {
		rc, _, err := api.CopyFromContainer(ctx, source, snapshotVolumeDir)
		if err != nil {
			return fmt.Errorf("reading snapshot %s: %w", snapshotID, err)
		}
		// An archive stream from the engine: a failed read or write shows
		// up where it is used, and closing it only frees the connection.
		defer func() { _ = rc.Close() }()
		mounts := []mount.Mount{helperMount(volumeName, volumeMountDir, false)}
		return withVolumeHelper(ctx, api, volumeName, mounts, func(target string) error {
			// Entries are vol/…; extracted at /mnt they land in the volume.
			// CopyUIDGID stays false so the archived owners are kept.
			if err := api.CopyToContainer(ctx, target, volumeMountParent, rc, container.CopyToContainerOptions{}); err != nil {
				return fmt.Errorf("writing volume %q: %w", volumeName, err)
			}
			return nil
		})
	})
}
