package docker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/mount"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Healthcheck timing for a template's ready_cmd. Checks run every second so
// a create returns soon after the box is ready; they keep running while it
// runs, which is what makes `docker ps` show its health.
const (
	readyInterval = time.Second
	readyTimeout  = 10 * time.Second
	readyRetries  = 3
)

// containerNameRE is what the engine accepts as a container name.
var containerNameRE = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_.-]*$`)

// Create makes a container from the template (or snapshot image) and brings
// it to spec.State: "stopped" is a container created but never started.
//
// With spec.Name set, a container of that name is taken up only when this
// very create made it (its create token: a request that reached the engine
// before its answer was lost); any other container of the name is a
// NotOwnedError, whoever made it. Docker keeps container names unique, so a
// create_before_destroy replacement of a named box cannot work here and
// fails the same way. Once the container exists, a failure in a later step
// returns the sandbox as read back together with the error, so the caller
// can save it and never orphan it.
func (s *sandboxes) Create(ctx context.Context, spec platform.SandboxSpec) (*platform.Sandbox, error) {
	state := spec.State
	if state == "" {
		state = platform.StateRunning
	}
	if err := checkSandboxSpec(spec, state); err != nil {
		return nil, err
	}
	spec.Marks = spec.Marks.Ensure()
	name := spec.Name
	if name != "" {
		if id, err := s.findOwn(ctx, name, spec.Marks); err != nil || id != "" {
			if err != nil {
				return nil, err
			}
			return s.converge(ctx, id, "", state)
		}
	} else {
		name = randomSandboxName()
	}
	cfg, hostCfg, err := s.containerConfig(ctx, name, spec)
	if err != nil {
		return nil, err
	}
	created, err := s.api.ContainerCreate(ctx, cfg, hostCfg, nil, nil, name)
	if err != nil {
		if cerrdefs.IsConflict(err) && spec.Name != "" {
			// The name was taken meanwhile: by this create's own request
			// (retried after its answer was lost), or by someone else.
			if id, ferr := s.findOwn(ctx, name, spec.Marks); ferr != nil || id != "" {
				if ferr != nil {
					return nil, ferr
				}
				return s.converge(ctx, id, "", state)
			}
		}
		return nil, fmt.Errorf("creating sandbox %q: %w", name, wrapErr(kindSandbox, name, err))
	}
	// A container just created is stopped (created, never started): no
	// need to read it to know that.
	return s.converge(ctx, created.ID, platform.StateStopped, state)
}

// converge brings an existing container, known to be in state from ("":
// read it), to state and reads it back; on failure the sandbox is
// returned with the error.
func (s *sandboxes) converge(ctx context.Context, id string, from, state platform.SandboxState) (*platform.Sandbox, error) {
	var stateErr error
	if from == "" {
		stateErr = s.setState(ctx, id, state)
	} else {
		stateErr = s.setStateFrom(ctx, id, from, state)
	}
	// Read back even when ctx has expired: the caller must learn the id.
	readCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	sb, getErr := s.Get(readCtx, id)
	if sb == nil {
		sb = &platform.Sandbox{ID: id, Status: platform.StateUnknown}
	}
	if stateErr != nil {
		return sb, stateErr
	}
	return sb, getErr
}

// findOwn returns the id of the container called name when this create
// (marks) made it, "" when there is no container of that name, and a
// NotOwnedError when another create, state or person made it.
func (s *sandboxes) findOwn(ctx context.Context, name string, marks platform.Marks) (string, error) {
	// The engine's name filter is a regular expression over "/name".
	args := filters.NewArgs(filters.Arg("name", "^/"+regexp.QuoteMeta(name)+"$"))
	list, err := s.api.ContainerList(ctx, container.ListOptions{All: true, Filters: args})
	if err != nil {
		return "", fmt.Errorf("looking for sandbox %q: %w", name, err)
	}
	for _, c := range list {
		if !slices.Contains(c.Names, "/"+name) {
			continue
		}
		if marks.MadeBy(c.Labels) {
			return c.ID, nil
		}
		detail := provenance(c.Labels, kindSandbox)
		switch c.Labels[platform.LabelKind] {
		case kindSandbox:
			detail += "; if this is a create_before_destroy replacement: Docker keeps container names unique, so the " +
				"new box cannot be made before the old one is gone: drop create_before_destroy or the name"
		case kindHelperContainer:
			// The provider's own short-lived helper: nothing to import.
			return "", &platform.NotOwnedError{Kind: kindSandbox, Name: name, Detail: "a helper container of this provider, removed when its operation ends"}
		}
		return "", &platform.NotOwnedError{Kind: kindSandbox, Name: name, ID: c.ID, Detail: detail}
	}
	return "", nil
}

// containerConfig is the container a spec asks for. The template's labels
// supply the start command, the readiness check and the default size.
func (s *sandboxes) containerConfig(ctx context.Context, name string, spec platform.SandboxSpec) (*container.Config, *container.HostConfig, error) {
	ref, kind := spec.TemplateID, kindTemplate
	if spec.FromSnapshotID != "" {
		ref, kind = spec.FromSnapshotID, kindSnapshot
	}
	img, err := s.api.ImageInspect(ctx, ref)
	if err != nil {
		return nil, nil, wrapErr(kind, ref, err)
	}
	if err := checkSource(ref, img, spec.FromSnapshotID != ""); err != nil {
		return nil, nil, err
	}
	tmpl := imageLabels(img)
	start, err := parseCommand(tmpl[labelStartCmd])
	if err != nil {
		return nil, nil, fmt.Errorf("%s %q: start_cmd: %w", kind, ref, err)
	}
	ready, err := parseCommand(tmpl[labelReadyCmd])
	if err != nil {
		return nil, nil, fmt.Errorf("%s %q: ready_cmd: %w", kind, ref, err)
	}

	labels := managedLabels(kindSandbox, name, spec.Marks, spec.Labels)
	// Set even when empty, so nothing is inherited from a snapshot image
	// (whose labels are those of the box it was taken from).
	labels[labelTemplateID] = spec.TemplateID
	labels[labelFromSnapshotID] = spec.FromSnapshotID
	withUserLabelKeys(labels, spec.Labels)

	cfg := &container.Config{
		// The image id, not the tag: the labels read above are this
		// image's even if a rebuild moves the tag meanwhile.
		Image:  img.ID,
		Cmd:    start, // nil: the image's own CMD
		Env:    envList(spec.Env),
		Labels: labels,
	}
	if ready != nil {
		cfg.Healthcheck = &container.HealthConfig{
			Test:     append([]string{"CMD"}, ready...),
			Interval: readyInterval,
			Timeout:  readyTimeout,
			Retries:  readyRetries,
			// See readyStartPeriod (sandbox_ready.go).
			StartPeriod: readyStartPeriod,
		}
	}

	hostCfg := &container.HostConfig{
		RestartPolicy: container.RestartPolicy{Name: container.RestartPolicyDisabled},
		Resources:     sandboxResources(spec.CPUCount, spec.MemoryMB, tmpl),
	}
	if spec.Network.InternetOff() {
		// No interface but loopback: the box reaches nothing outside.
		hostCfg.NetworkMode = networkNone
	}
	for _, vm := range spec.VolumeMounts {
		// The engine would make a missing volume on the fly; a sandbox
		// must never get an empty stand-in for the user's data.
		if _, err := s.api.VolumeInspect(ctx, vm.VolumeID); err != nil {
			return nil, nil, wrapErr(kindVolume, vm.VolumeID, err)
		}
		hostCfg.Mounts = append(hostCfg.Mounts, mount.Mount{
			Type: mount.TypeVolume, Source: vm.VolumeID, Target: vm.Path, ReadOnly: vm.ReadOnly,
		})
	}
	return cfg, hostCfg, nil
}

// networkNone is the network mode of a container with no network.
const networkNone = "none"

func checkSandboxSpec(spec platform.SandboxSpec, state platform.SandboxState) error {
	switch {
	case spec.DiskMB != 0:
		return &platform.UnsupportedError{Platform: "docker", Capability: "disk_mb on sandboxes"}
	case (spec.TemplateID == "") == (spec.FromSnapshotID == ""):
		return fmt.Errorf("sandbox: set exactly one of template_id and from_snapshot_id")
	case !isDesiredState(state):
		return fmt.Errorf("sandbox: state %q is not one of running, paused, stopped", state)
	case spec.Name != "" && !containerNameRE.MatchString(spec.Name):
		return fmt.Errorf("sandbox name %q: use letters, digits, '_', '.' and '-', starting with a letter or digit", spec.Name)
	case spec.CPUCount < 0 || spec.MemoryMB < 0:
		return fmt.Errorf("sandbox: cpu_count and memory_mb cannot be negative")
	}
	if spec.Network != nil && (len(spec.Network.AllowOut) > 0 || len(spec.Network.DenyOut) > 0) {
		return &platform.UnsupportedError{Platform: "docker", Capability: "allow_out and deny_out (the engine filters no " +
			"outbound traffic by destination; internet = false cuts a box off the network)"}
	}
	for _, vm := range spec.VolumeMounts {
		if vm.VolumeID == "" || !path.IsAbs(vm.Path) {
			return fmt.Errorf("sandbox: volume_mount needs a volume_id and an absolute path (got %q at %q)", vm.VolumeID, vm.Path)
		}
	}
	return nil
}

// envList is env in the engine's KEY=value form, in key order.
func envList(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for _, k := range slices.Sorted(maps.Keys(env)) {
		out = append(out, k+"="+env[k])
	}
	return out
}

// randomSandboxName names a box the user did not name.
func randomSandboxName() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return "sbx-" + hex.EncodeToString(b)
}
