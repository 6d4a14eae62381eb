package docker

import (
	"context"
	"fmt"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// commitSandbox commits a sandbox's container (running, paused or stopped)
// to a tagged image and returns the image id. Pause keeps a running box's
// filesystem still while it is read; a paused box stays paused.
func commitSandbox(ctx context.Context, api *client.Client, spec platform.SnapshotSpec) (string, error) {
	ctr, err := api.ContainerInspect(ctx, spec.SandboxID)
	if err != nil {
		return "", wrapErr("sandbox", spec.SandboxID, err)
	}
	parent := ""
	if ctr.Config != nil {
		parent = ctr.Config.Labels[labelFromSnapshotID]
	}
	// The engine merges the container's labels under the ones given here,
	// so every key the snapshot owns is given explicitly.
	labels := snapshotLabels(kindSnapshot, spec.Name, ctr.ID, "", parent, spec.Labels)
	resp, err := api.ContainerCommit(ctx, ctr.ID, container.CommitOptions{
		Reference: snapshotRepo + ":" + randomHex(6),
		Comment:   "sbx snapshot of sandbox " + ctr.ID,
		Pause:     true,
		Config:    &container.Config{Labels: labels},
	})
	if err != nil {
		return "", wrapErr("sandbox", spec.SandboxID, fmt.Errorf("committing a snapshot: %w", err))
	}
	return resp.ID, nil
}
