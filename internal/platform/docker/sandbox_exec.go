package docker

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/pkg/stdcopy"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/redact"
)

var _ platform.CommandRunner = (*Platform)(nil)

// execSupport is what the sbx_sandbox_exec action can do on Docker.
var execSupport = platform.ExecSupport{
	Runs: true, Env: true, WorkingDir: true,
	Doc: "the command runs as `docker exec` would run it, in the running container, without a shell; a paused or " +
		"stopped box is an error. A command still running at the timeout goes on in the box: the engine cannot stop an exec",
}

// Exec implements platform.CommandRunner with the engine's exec API: the
// command is created in the container, attached to (stdout and stderr,
// which the engine multiplexes on one stream) and inspected for its exit
// code once the stream ends.
func (p *Platform) Exec(ctx context.Context, id string, spec platform.ExecSpec) (*platform.ExecResult, error) {
	var secrets redact.Secrets
	secrets.EnvMap(spec.Env)
	env := make([]string, 0, len(spec.Env))
	for _, k := range slices.Sorted(maps.Keys(spec.Env)) {
		env = append(env, k+"="+spec.Env[k])
	}
	created, err := p.api.ContainerExecCreate(ctx, id, container.ExecOptions{
		Cmd: spec.Command, Env: env, WorkingDir: spec.WorkingDir,
		AttachStdout: true, AttachStderr: true,
	})
	if err != nil {
		return nil, secrets.Error(execErr(id, err))
	}
	attached, err := p.api.ContainerExecAttach(ctx, created.ID, container.ExecAttachOptions{})
	if err != nil {
		return nil, secrets.Error(execErr(id, err))
	}
	defer attached.Close()
	stdout := &cappedBuffer{max: spec.MaxOutput}
	stderr := &cappedBuffer{max: spec.MaxOutput}
	copied := make(chan error, 1)
	go func() {
		_, err := stdcopy.StdCopy(stdout, stderr, attached.Reader)
		copied <- err
	}()
	select {
	case err := <-copied:
		if err != nil && ctx.Err() == nil {
			return nil, secrets.Error(fmt.Errorf("reading the output of the command in sandbox %q: %w", id, err))
		}
	case <-ctx.Done():
	}
	if ctx.Err() != nil {
		attached.Close()
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, &platform.ExecTimeoutError{Timeout: spec.Timeout,
				Detail: "it goes on running in the box (the Docker engine cannot stop a command it runs with exec)"}
		}
		return nil, ctx.Err()
	}
	inspect, err := p.api.ContainerExecInspect(ctx, created.ID)
	if err != nil {
		return nil, secrets.Error(execErr(id, err))
	}
	if inspect.Running {
		return nil, fmt.Errorf("the command in sandbox %q closed its output but the engine reports it still running", id)
	}
	return &platform.ExecResult{ExitCode: inspect.ExitCode, Stdout: stdout.buf, Stderr: stderr.buf,
		Truncated: stdout.dropped || stderr.dropped}, nil
}

// execErr describes an exec the engine refused: a box that is gone, or
// not running (paused, stopped), says so.
func execErr(id string, err error) error {
	switch {
	case cerrdefs.IsNotFound(err):
		return &platform.NotFoundError{Kind: kindSandbox, ID: id}
	case cerrdefs.IsConflict(err):
		return fmt.Errorf("sandbox %q is not running, so no command can run in it (%s); set its state to running first", id, err)
	}
	return fmt.Errorf("running a command in sandbox %q: %w", id, err)
}

// cappedBuffer keeps the first max bytes written to it and drops the rest.
type cappedBuffer struct {
	max     int
	buf     []byte
	dropped bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	room := b.max - len(b.buf)
	if room < len(p) {
		b.dropped = true
		if room > 0 {
			b.buf = append(b.buf, p[:room]...)
		}
		return len(p), nil
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
}
