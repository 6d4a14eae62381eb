package docker

import (
	"context"
	"fmt"
	"strings"

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
	labels := snapshotLabels(kindSnapshot, spec.Name, ctr.ID, "", parent, spec.Marks, spec.Labels)
	env, err := scrubbedEnv(ctx, api, ctr)
	if err != nil {
		return "", err
	}
	resp, err := api.ContainerCommit(ctx, ctr.ID, container.CommitOptions{
		Reference: snapshotRepo + ":" + randomHex(6),
		Comment:   "sbx snapshot of sandbox " + ctr.ID,
		Pause:     true,
		Config:    &container.Config{Labels: labels, Env: env},
	})
	if err != nil {
		return "", wrapErr("sandbox", spec.SandboxID, fmt.Errorf("committing a snapshot: %w", err))
	}
	return resp.ID, nil
}

// scrubbedEnv is the environment a snapshot image gets. docker commit copies
// the container's environment into the image, and a sandbox's env is
// sensitive, so every variable the sandbox was given is blanked: the image
// keeps only what its own image defined. The engine merges the container's
// variables under the ones given here, so each key is given explicitly.
func scrubbedEnv(ctx context.Context, api *client.Client, ctr container.InspectResponse) ([]string, error) {
	if ctr.Config == nil || len(ctr.Config.Env) == 0 {
		return nil, nil
	}
	img, err := api.ImageInspect(ctx, ctr.Image)
	if err != nil {
		return nil, wrapErr("image", ctr.Image, err)
	}
	base := map[string]string{}
	if img.Config != nil {
		for _, kv := range img.Config.Env {
			k, _, _ := strings.Cut(kv, "=")
			base[k] = kv
		}
	}
	env := make([]string, 0, len(ctr.Config.Env))
	for _, kv := range ctr.Config.Env {
		k, _, _ := strings.Cut(kv, "=")
		if orig, ok := base[k]; ok {
			env = append(env, orig)
		} else {
			env = append(env, k+"=")
		}
	}
	return env, nil
}
