package docker

import (
	"context"
	"fmt"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// helperCleanupTimeout bounds the removal of a helper container, which runs
// on a fresh context so that a cancelled operation still cleans up.
const helperCleanupTimeout = 2 * time.Minute

// volumeMountDir is where helper containers mount a volume. The directory's
// base name ("vol") is the prefix of every entry in the archives Docker
// returns for it, and the name volume snapshots store their files under.
const (
	volumeMountParent = "/mnt"
	volumeMountDir    = volumeMountParent + "/vol"
	snapshotVolumeDir = "/vol"
)

// helperMount mounts the named volume into a helper container.
func helperMount(volumeName, target string, readOnly bool) mount.Mount {
	return mount.Mount{
		Type:          mount.TypeVolume,
		Source:        volumeName,
		Target:        target,
		ReadOnly:      readOnly,
		VolumeOptions: &mount.VolumeOptions{NoCopy: true},
	}
}

// withHelperContainer creates a container that is never started, lets fn
// copy files in or out of its mounts, and always removes it afterwards.
// forVolume is recorded on the container so leftovers can be traced.
// imageRef is the helper image unless a snapshot image is being read.
func withHelperContainer(ctx context.Context, api *client.Client, imageRef, forVolume string, mounts []mount.Mount, fn func(id string) error) error {
	labels := managedLabels(kindHelperContainer, "", platform.Marks{}, nil)
	if forVolume != "" {
		labels[labelVolumeID] = forVolume
	}
	created, err := api.ContainerCreate(ctx,
		&container.Config{
			Image:  imageRef,
			Cmd:    []string{"/" + helperMarkerFile},
			Labels: labels,
		},
		&container.HostConfig{Mounts: mounts, NetworkMode: "none"},
		nil, nil, "")
	if err != nil {
		return fmt.Errorf("creating a helper container: %w", err)
	}
	defer removeHelperContainer(api, created.ID)
	return fn(created.ID)
}

// removeHelperContainer removes a helper container on a fresh context.
func removeHelperContainer(api *client.Client, id string) {
	ctx, cancel := context.WithTimeout(context.Background(), helperCleanupTimeout)
	defer cancel()
	_ = api.ContainerRemove(ctx, id, container.RemoveOptions{Force: true, RemoveVolumes: false})
}

// withVolumeHelper is withHelperContainer on the helper image, creating the
// image first if needed.
func withVolumeHelper(ctx context.Context, api *client.Client, forVolume string, mounts []mount.Mount, fn func(id string) error) error {
	if _, err := ensureHelperImage(ctx, api, helperImageRef); err != nil {
		return err
	}
	return withHelperContainer(ctx, api, helperImageRef, forVolume, mounts, fn)
}
