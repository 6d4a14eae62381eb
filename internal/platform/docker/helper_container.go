package docker

import (
	"context"
	"errors"
	"fmt"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/api/types/volume"
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

// errHelperImageMissing is a helper container's create that found no
// image under its reference.
var errHelperImageMissing = errors.New("the image is missing")

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
		if cerrdefs.IsNotFound(err) {
			err = fmt.Errorf("%w: %w", errHelperImageMissing, err)
		}
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

// helperImageAttempts is how many times an operation loads the helper
// image and creates its container before it gives up: the image is removed
// when the last volume is deleted (removeHelperImageIfUnused), which
// another process may do between this one's load and its create.
const helperImageAttempts = 3

// withVolumeHelper is withHelperContainer on the helper image, loading the
// image when it is missing, and again when it went missing before the
// container was made.
func withVolumeHelper(ctx context.Context, api *client.Client, forVolume string, mounts []mount.Mount, fn func(id string) error) error {
	var err error
	for range helperImageAttempts {
		// Removed after the load, by the time the load checked it or by
		// the time the container was made: load it again. fn has not run.
		if _, err = ensureHelperImage(ctx, api, helperImageRef); err != nil {
			if cerrdefs.IsNotFound(err) {
				continue
			}
			return err
		}
		if err = withHelperContainer(ctx, api, helperImageRef, forVolume, mounts, fn); !errors.Is(err, errHelperImageMissing) {
			return err
		}
	}
	return err
}

// removeHelperImageIfUnused removes the helper image once no volume the
// provider made is left on the engine: nothing needs it then, and a full
// destroy leaves nothing of the provider's behind. The next volume
// operation loads it again (a few hundred bytes, from memory). The removal
// is not forced, so the engine refuses it while another operation's helper
// container was made from the image; whatever goes wrong leaves the image,
// as before.
func removeHelperImageIfUnused(ctx context.Context, api *client.Client) {
	left, err := api.VolumeList(ctx, volume.ListOptions{Filters: filters.NewArgs(filters.Arg("label", platform.LabelManaged+"=true"))})
	if err != nil || len(left.Volumes) > 0 {
		return
	}
	_, _ = api.ImageRemove(ctx, helperImageRef, image.RemoveOptions{})
}
