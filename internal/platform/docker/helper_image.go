package docker

import (
	"context"
	"fmt"
	"sync"

	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"
	"github.com/docker/docker/errdefs"
)

// helperImageRef is the image helper containers are created from. It holds a
// single empty file and is never run: Docker only lets files be copied in and
// out of a volume through a container that mounts it, and a container needs an
// image. Importing it from an in-memory tar needs no registry.
const helperImageRef = "sbx/helper:latest"

// helperMarkerFile is the one (empty) file in the helper image; it doubles as
// the image's CMD so that a container can be created from it.
const helperMarkerFile = ".sbx-helper"

// helperImageMu serialises creation within this process, so concurrent
// operations import the image once instead of racing each other.
var helperImageMu sync.Mutex

// ensureHelperImage returns the id of the helper image, importing it under
// ref when it is missing. Another process may race to import it too; both
// succeed, and the loser removes its own (then untagged) copy.
func ensureHelperImage(ctx context.Context, api *client.Client, ref string) (string, error) {
	if id, err := inspectImageID(ctx, api, ref); err == nil || !errdefs.IsNotFound(err) {
		return id, err
	}
	helperImageMu.Lock()
	defer helperImageMu.Unlock()
	// Someone in this process may have made it while we waited for the lock.
	if id, err := inspectImageID(ctx, api, ref); err == nil || !errdefs.IsNotFound(err) {
		return id, err
	}
	layer, err := helperImageTar()
	if err != nil {
		return "", err
	}
	changes := []string{fmt.Sprintf(`CMD ["/%s"]`, helperMarkerFile)}
	for k, v := range managedLabels(kindHelper, ref, nil) {
		changes = append(changes, labelChange(k, v))
	}
	madeID, err := importImage(ctx, api, layer, ref, changes)
	if err != nil {
		return "", fmt.Errorf("creating the helper image %s: %w", ref, err)
	}
	tagged, err := inspectImageID(ctx, api, ref)
	if err != nil {
		return "", fmt.Errorf("creating the helper image %s: %w", ref, err)
	}
	if madeID != "" && tagged != madeID {
		// Another process tagged its copy after ours; ours is now an unused,
		// untagged duplicate. Failing to remove it loses nothing.
		_, _ = api.ImageRemove(context.WithoutCancel(ctx), madeID, image.RemoveOptions{})
	}
	return tagged, nil
}

func inspectImageID(ctx context.Context, api *client.Client, ref string) (string, error) {
	img, err := api.ImageInspect(ctx, ref)
	if err != nil {
		return "", err
	}
	return img.ID, nil
}
