package modal

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	modal "github.com/modal-labs/modal-client/go"
	"google.golang.org/grpc/codes"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/redact"
)

var _ platform.CommandRunner = (*Platform)(nil)

// execSupport is what the sbx_sandbox_exec action can do on Modal.
var execSupport = platform.ExecSupport{
	Runs: true, Env: true, WorkingDir: true,
	Doc: "the command runs as the SDK's Sandbox.Exec runs it, through Modal's task command router in the running " +
		"sandbox, without a shell, with env added to the sandbox's environment and working_dir an absolute path; a " +
		"finished sandbox (timed out or terminated) is an error. The timeout, rounded up to whole seconds, goes to " +
		"Modal too, which kills a command still running then",
}

// Exec implements platform.CommandRunner with the SDK's Sandbox.Exec: the
// task command router's TaskExecStart (argv, env as a secret source,
// workdir, timeout_secs), TaskExecStdioRead for each stream and
// TaskExecWait for the exit code (a signal is 128+signal).
func (p *Platform) Exec(ctx context.Context, id string, spec platform.ExecSpec) (*platform.ExecResult, error) {
	var secrets redact.Secrets
	secrets.EnvMap(spec.Env)
	if len(spec.Command) == 0 {
		return nil, errors.New("running a command in a Modal sandbox: the command is empty")
	}
	sb, err := p.client.Sandboxes.FromID(ctx, id, nil)
	if err != nil {
		return nil, notFoundOr(err, "sandbox", id)
	}
	defer release(sb)
	// A finished box is gone to the provider (Get says the same); asking
	// first gives the reason rather than the router's refusal.
	if code, err := sb.Poll(ctx, nil); err != nil {
		return nil, notFoundOr(err, "sandbox", id)
	} else if code != nil {
		return nil, &platform.NotFoundError{Kind: "sandbox", ID: id, Reason: finishedReason(*code)}
	}
	params := &modal.SandboxExecParams{Workdir: spec.WorkingDir, Env: spec.Env, Timeout: wholeSeconds(spec.Timeout)}
	started := time.Now()
	var proc *modal.ContainerProcess
	err = retryThrottled(ctx, p.throttleSleep, p.maxThrottleWait, func() (err error) {
		// Each try is a new exec id; a throttled one was not started.
		proc, err = sb.Exec(ctx, spec.Command, params)
		return err
	})
	if err != nil {
		return nil, secrets.Error(execErr(id, err))
	}
	return collect(ctx, id, spec, proc, started, &secrets)
}

// collect reads both streams of a started command and waits for its end,
// or for ctx.
func collect(ctx context.Context, id string, spec platform.ExecSpec, proc *modal.ContainerProcess, started time.Time, secrets *redact.Secrets) (*platform.ExecResult, error) {
	stdout := &cappedBuffer{max: spec.MaxOutput}
	stderr := &cappedBuffer{max: spec.MaxOutput}
	var (
		wg               sync.WaitGroup
		outErr, errErr   error
		exitCode         int
		waitErr          error
		ended            = make(chan struct{})
		streams          = []io.ReadCloser{proc.Stdout, proc.Stderr}
		copyInto         = []*cappedBuffer{stdout, stderr}
		copyErrs         = []*error{&outErr, &errErr}
		waitCtx, stopAll = context.WithCancel(ctx)
	)
	defer stopAll()
	for i := range streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, *copyErrs[i] = io.Copy(copyInto[i], streams[i])
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		exitCode, waitErr = proc.Wait(waitCtx, nil)
	}()
	go func() { wg.Wait(); close(ended) }()
	cut := false
	select {
	case <-ended:
	case <-ctx.Done():
		// The SDK reads the streams under a context of its own: closing
		// them is what ends those reads.
		cut = true
		for _, s := range streams {
			_ = s.Close()
		}
		<-ended
	}
	failed := waitErr != nil || outErr != nil || errErr != nil
	timedOut := false
	for _, err := range []error{waitErr, outErr, errErr} {
		var sdkTimeout modal.ExecTimeoutError
		if errors.As(err, &sdkTimeout) {
			timedOut = true // the SDK's deadline: the timeout sent
		}
	}
	if (cut || failed && ctx.Err() != nil) && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		timedOut = true
	}
	// Modal kills a command at its timeout with SIGKILL: 128+9.
	if !failed && !cut && exitCode == 137 && spec.Timeout > 0 && time.Since(started) >= spec.Timeout {
		timedOut = true
	}
	switch {
	case timedOut:
		detail := "it may still be running in the sandbox: no timeout was sent to Modal"
		if spec.Timeout > 0 {
			detail = fmt.Sprintf("Modal kills it at its timeout (%s)", wholeSeconds(spec.Timeout))
		}
		return nil, &platform.ExecTimeoutError{Timeout: spec.Timeout, Detail: detail}
	case cut || failed && ctx.Err() != nil:
		return nil, ctx.Err()
	case waitErr != nil:
		return nil, secrets.Error(execErr(id, waitErr))
	case outErr != nil:
		return nil, secrets.Error(fmt.Errorf("reading the output of the command in sandbox %q: %w", id, translate(outErr)))
	case errErr != nil:
		return nil, secrets.Error(fmt.Errorf("reading the error output of the command in sandbox %q: %w", id, translate(errErr)))
	}
	return &platform.ExecResult{ExitCode: exitCode, Stdout: stdout.buf, Stderr: stderr.buf,
		Truncated: stdout.dropped || stderr.dropped}, nil
}

// wholeSeconds rounds a timeout up to whole seconds, which the SDK needs.
func wholeSeconds(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return (d + time.Second - 1).Truncate(time.Second)
}

// execErr describes an exec Modal refused: a box that is gone, or that
// finished between the check and the exec, says so.
func execErr(id string, err error) error {
	var conflict modal.ConflictError
	switch {
	case isNotFound(err):
		return &platform.NotFoundError{Kind: "sandbox", ID: id}
	case errors.As(err, &conflict), grpcCode(err) == codes.FailedPrecondition:
		return &platform.NotFoundError{Kind: "sandbox", ID: id, Reason: "finished: " + translate(err).Error()}
	}
	return fmt.Errorf("running a command in sandbox %q: %w", id, translate(err))
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
