package docker

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// commitSandbox snapshots a sandbox's container (running, paused or
// stopped) and returns the snapshot image's id; with an error too when the
// snapshot was made but the intermediate commit could not be removed. Pause keeps a running box's
// filesystem still while it is read; a paused box stays paused.
//
// docker commit records the container's whole configuration, its env
// values included, as the committed image's ContainerConfig, which no
// option leaves out. So the commit is only an intermediate: the snapshot
// image is written anew from it (rewriteCommit) without that record, and
// the intermediate is removed, whether the rewrite worked or not.
func commitSandbox(ctx context.Context, api *client.Client, spec platform.SnapshotSpec) (string, error) {
	ctr, err := api.ContainerInspect(ctx, spec.SandboxID)
	if err != nil {
		return "", wrapErr("sandbox", spec.SandboxID, err)
	}
	parent := ""
	if ctr.Config != nil {
		parent = ctr.Config.Labels[labelFromSnapshotID]
	}
	labels := snapshotLabels(kindSnapshot, spec.Name, ctr.ID, "", parent, spec.Marks, spec.Labels)
	env, err := scrubbedEnv(ctx, api, ctr)
	if err != nil {
		return "", err
	}
	sweepSnapshotCommits(ctx, api)
	// The intermediate is untagged and of its own kind, so it is never
	// taken for a snapshot (nor for a template: it has neither that kind
	// nor a template tag), and "docker image prune" removes it if it is
	// ever left behind. The engine merges the container's labels under
	// these, so every key the provider owns is given explicitly.
	commitLabels := maps.Clone(labels)
	commitLabels[platform.LabelKind] = kindSnapshotCommit
	resp, err := api.ContainerCommit(ctx, ctr.ID, container.CommitOptions{
		Comment: "sbx snapshot of sandbox " + ctr.ID,
		Pause:   true,
		Config:  &container.Config{Labels: commitLabels, Env: env},
	})
	if err != nil {
		return "", wrapErr("sandbox", spec.SandboxID, fmt.Errorf("committing a snapshot: %w", err))
	}
	id, err := rewriteCommit(ctx, api, resp.ID, ctr.Image, snapshotRepo+":"+randomHex(6), labels)
	rmErr := removeSnapshotCommit(api, resp.ID)
	if err != nil {
		return "", fmt.Errorf("snapshot of sandbox %q: %w", spec.SandboxID, errors.Join(err, rmErr))
	}
	return id, rmErr
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
