package docker

import (
	"context"
	"fmt"
	"sort"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// stopTimeout is how long a stop waits for the box's process to exit after
// SIGTERM before the engine kills it.
const stopTimeout = 10 * time.Second

// pollInterval is how often waits re-read a container.
const pollInterval = 250 * time.Millisecond

// sandboxes implements platform.SandboxService: a sandbox is a container,
// and its id is the full container id.
type sandboxes struct {
	api *client.Client
	// settle replaces startSettle when set (tests).
	settle time.Duration
	// clock tells waitReady the time; nil is the system clock (tests set
	// a fake one, to say when the settle time has passed).
	clock clock.Clock
	// readHook, when set (tests), is shown each read of a box being
	// started before waitReady judges it.
	readHook func(container.InspectResponse)
}

// Get reads a sandbox; a container that is gone is a NotFoundError.
func (s *sandboxes) Get(ctx context.Context, id string) (*platform.Sandbox, error) {
	c, err := s.api.ContainerInspect(ctx, id)
	if err != nil {
		return nil, wrapErr(kindSandbox, id, err)
	}
	if c.Config != nil && c.Config.Labels[platform.LabelKind] == kindHelperContainer {
		// Never a sandbox: importing one would let a destroy remove a
		// helper in the middle of its operation.
		return nil, fmt.Errorf("container %s is a short-lived helper of the provider (it copies volume data), not a sandbox", id)
	}
	sb := sandboxFromContainer(c)
	sb.Env = s.givenEnv(ctx, c)
	return sb, nil
}

// givenEnv is the env the sandbox was given; nil when the image it was
// made from is gone, since then the image's own variables are unknown.
func (s *sandboxes) givenEnv(ctx context.Context, c container.InspectResponse) map[string]string {
	if c.Config == nil {
		return nil
	}
	img, err := s.api.ImageInspect(ctx, c.Image)
	if err != nil {
		return nil
	}
	var imageEnv []string
	if img.Config != nil {
		imageEnv = img.Config.Env
	}
	return containerOwnEnv(c.Config.Env, imageEnv)
}

// List returns the sandboxes the provider made (with filter.AnyMaker, every
// container of the engine, however made, but the provider's short-lived
// helpers), newest first, that
// carry every label in filter.Labels and, when set, are in filter.Status.
func (s *sandboxes) List(ctx context.Context, filter platform.SandboxFilter) ([]platform.Sandbox, error) {
	args := filters.NewArgs()
	if !filter.AnyMaker {
		args.Add("label", platform.LabelManaged+"="+"true")
		args.Add("label", platform.LabelKind+"="+kindSandbox)
	}
	for k, v := range filter.Labels {
		args.Add("label", k+"="+v)
	}
	list, err := s.api.ContainerList(ctx, container.ListOptions{All: true, Filters: args})
	if err != nil {
		return nil, fmt.Errorf("listing sandboxes: %w", err)
	}
	var out []platform.Sandbox
	for _, summary := range list {
		if summary.Labels[platform.LabelKind] == kindHelperContainer {
			continue // the provider's helpers are no boxes (Get refuses them)
		}
		sb, err := s.Get(ctx, summary.ID)
		if platform.IsNotFound(err) {
			continue // deleted while we listed
		}
		if err != nil {
			return nil, err
		}
		if !platform.MatchLabels(sb.Labels, filter.Labels) {
			continue // the label came from the image, not the user
		}
		if filter.Status != "" && sb.Status != filter.Status {
			continue
		}
		out = append(out, *sb)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].CreatedAt.After(out[j].CreatedAt) })
	return out, nil
}

// SetState moves a sandbox to running, paused or stopped in place: the
// container, and so the id, stays the same.
func (s *sandboxes) SetState(ctx context.Context, id string, state platform.SandboxState) (*platform.Sandbox, error) {
	if err := s.setState(ctx, id, state); err != nil {
		return nil, err
	}
	return s.Get(ctx, id)
}

func (s *sandboxes) setState(ctx context.Context, id string, state platform.SandboxState) error {
	c, err := s.api.ContainerInspect(ctx, id)
	if err != nil {
		return wrapErr(kindSandbox, id, err)
	}
	return s.setStateFrom(ctx, id, normalizeStatus(c.State), state)
}

// setStateFrom is setState for a container known to be in state from.
func (s *sandboxes) setStateFrom(ctx context.Context, id string, from, state platform.SandboxState) error {
	steps, err := stateSteps(from, state)
	if err != nil {
		return &platform.ConflictError{Kind: kindSandbox, ID: id, Reason: err.Error()}
	}
	for _, step := range steps {
		if err := s.do(ctx, id, step); err != nil {
			return err
		}
	}
	return nil
}

// do runs one engine call of a state change. A start waits until the box
// is ready (its healthcheck passes), so a sandbox reported running is one
// that can do work.
func (s *sandboxes) do(ctx context.Context, id string, step stateAction) error {
	var err error
	switch step {
	case actStart:
		if err = s.api.ContainerStart(ctx, id, container.StartOptions{}); err == nil {
			err = s.waitReady(ctx, id)
		}
	case actPause:
		err = s.api.ContainerPause(ctx, id)
	case actUnpause:
		err = s.api.ContainerUnpause(ctx, id)
	case actStop:
		timeout := int(stopTimeout / time.Second)
		err = s.api.ContainerStop(ctx, id, container.StopOptions{Timeout: &timeout})
	}
	if err != nil {
		return fmt.Errorf("sandbox %q: %s: %w", id, step, wrapErr(kindSandbox, id, err))
	}
	return nil
}

// Update makes the in-place changes Docker's attribute table offers: a new
// size (docker update), and lifecycle settings, which the engine does not
// enforce (Capabilities.EnforcesDeadlines is false) and the provider keeps
// in state, so nothing changes on the container for them. A container's
// labels and env are fixed at create: a change of them is ErrUnsupported.
func (s *sandboxes) Update(ctx context.Context, id string, change platform.SandboxUpdate) (*platform.Sandbox, error) {
	if change.Labels != nil || change.Env != nil {
		return nil, &platform.UnsupportedError{Platform: "docker", Capability: "changing a sandbox's labels or env in place"}
	}
	if change.DiskMB != nil {
		return nil, &platform.UnsupportedError{Platform: "docker", Capability: "sizing a sandbox's disk"}
	}
	if change.Network != nil {
		return nil, &platform.UnsupportedError{Platform: "docker", Capability: "changing a sandbox's network in place (its network mode is fixed at create)"}
	}
	if change.CPUCount != nil || change.MemoryMB != nil {
		var cpu, mem int64
		if change.CPUCount != nil {
			cpu = *change.CPUCount
		}
		if change.MemoryMB != nil {
			mem = *change.MemoryMB
		}
		if err := s.resize(ctx, id, cpu, mem); err != nil {
			return nil, err
		}
	}
	return s.Get(ctx, id)
}

// resize changes CPU and memory in place. Zero means the template's default
// size (its cpu_count / memory_mb); when the template has none either, that
// limit is left as it is, since the engine cannot lift a limit once set.
func (s *sandboxes) resize(ctx context.Context, id string, cpuCount, memoryMB int64) error {
	c, err := s.api.ContainerInspect(ctx, id)
	if err != nil {
		return wrapErr(kindSandbox, id, err)
	}
	var labels map[string]string
	if c.Config != nil {
		labels = c.Config.Labels // a container's labels include its image's
	}
	res := sandboxResources(cpuCount, memoryMB, labels)
	if res.NanoCPUs != 0 || res.Memory != 0 {
		if _, err := s.api.ContainerUpdate(ctx, id, container.UpdateConfig{Resources: res}); err != nil {
			return fmt.Errorf("sandbox %q: resize: %w", id, wrapErr(kindSandbox, id, err))
		}
	}
	return nil
}

// sandboxResources turns a size into engine limits, taking the template's
// default for a zero value. Swap is pinned to the memory limit (no swap), so
// a later resize never trips over a swap limit derived from an older one.
func sandboxResources(cpuCount, memoryMB int64, templateLabels map[string]string) container.Resources {
	if cpuCount == 0 {
		cpuCount = labelInt(templateLabels, labelCPUCount)
	}
	if memoryMB == 0 {
		memoryMB = labelInt(templateLabels, labelMemoryMB)
	}
	var res container.Resources
	res.NanoCPUs = cpuCount * nanoCPUsPerCPU
	if memoryMB > 0 {
		res.Memory = memoryMB * bytesPerMB
		res.MemorySwap = res.Memory
	}
	return res
}

// Delete removes a sandbox at once: the engine kills it, with no stop
// grace period. Its volumes are kept. A sandbox already gone is success.
func (s *sandboxes) Delete(ctx context.Context, id string) error {
	err := s.api.ContainerRemove(ctx, id, container.RemoveOptions{Force: true, RemoveVolumes: false})
	switch {
	case err == nil, cerrdefs.IsNotFound(err):
		return nil
	case cerrdefs.IsConflict(err):
		// Another removal is under way: done once it is gone.
		return s.waitGone(ctx, id)
	default:
		return wrapErr(kindSandbox, id, err)
	}
}

func (s *sandboxes) waitGone(ctx context.Context, id string) error {
	for {
		_, err := s.api.ContainerInspect(ctx, id)
		if cerrdefs.IsNotFound(err) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("sandbox %q: still being removed: %w", id, ctx.Err())
		case <-time.After(pollInterval):
		}
	}
}
