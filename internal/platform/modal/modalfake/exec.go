package modalfake

import (
	"context"
	"maps"
	"path"
	"time"

	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Exec through the task command router, the way Sandbox.Exec of the SDK
// v0.11.1 drives it: TaskExecStart starts the command (idempotent on
// exec_id: the SDK retries it with the same id), TaskExecStdioRead streams
// one output from an offset and ends once the command has ended and all of
// it is sent, TaskExecWait holds until the command ends and answers its exit
// code, or the signal that killed it (the SDK reports 128+signal).
//
// What the real server does that the fake follows (the official proto's
// comments and the SDK's end-to-end tests against Modal): timeout_secs
// bounds the command, which is then killed with SIGKILL (TaskExecWait
// answers signal 9, the SDK's 137); a command of a task whose sandbox has
// finished is refused (FAILED_PRECONDITION), and a sandbox that finishes
// kills its commands (signal 9); workdir must be absolute. The command
// sees the sandbox's environment, then the exec's secret_ids, env and
// secret_sources in that order, later keys winning.
//
// The fake runs no programs. It knows these (by name, or under /bin or
// /usr/bin), each as coreutils or dash would behave:
//
//   - echo ARGS: prints ARGS joined by blanks and a newline;
//   - printenv [NAMES]: every variable as NAME=value, or each NAME's value
//     (exit 1 when one is unset);
//   - pwd: the working directory (the exec's workdir, else the sandbox's,
//     else /);
//   - true, false: exit 0, 1;
//   - sleep SECONDS: waits that long in real time (a fraction allowed);
//   - sh -c SCRIPT: statements separated by ";" or newlines, each one of
//     the programs above, "echo WORDS >&2" (to stderr), "exit [N]" or
//     "kill -N $$" (the shell dies of signal N); words are split on blanks,
//     with no quoting or expansion. An unknown statement prints dash's
//     "sh: 1: NAME: not found" and sets status 127, and the script goes on.
//
// Any other program is missing: the command writes
// `exec: "NAME": executable file not found in $PATH` to stderr and exits
// 127, what an OCI runtime's exec of a missing binary reports. Modal's
// worker is not public and its answer to a missing binary could not be
// checked; the provider treats every non-zero exit alike.
//
// Not modelled: stdin (TaskExecStdinWrite and friends), TaskExecPoll, PTYs,
// sidecar containers, runtime debugging, and a filesystem (any absolute
// workdir exists).

// proc is one exec'd command.
type proc struct {
	id, taskID, sandboxID string
	argv                  []string
	env                   map[string]string // the exec's own variables, for views
	workdir               string            // as sent, "" for none
	timeoutSecs           uint32
	stdoutMode            pb.TaskExecStdoutConfig
	stderrMode            pb.TaskExecStderrConfig
	stdout, stderr        []byte
	done                  bool
	code, signal          int32 // signal > 0: killed by it
	changed               chan struct{}
	kill                  chan struct{}
	timer                 *time.Timer
}

// notify wakes every reader and waiter of p; w.s.mu held.
func (p *proc) notify() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// step is one thing a command does: write, sleep, or end.
type step struct {
	stdout, stderr string
	sleep          time.Duration
	exit           *int32
	signal         int32
}

func execKey(taskID, execID string) string { return taskID + "\x00" + execID }

// taskKey carries the task a router stream's JWT grants.
type taskKey struct{}

// TaskExecStart starts a command in a running task.
func (r *router) TaskExecStart(ctx context.Context, req *pb.TaskExecStartRequest) (*pb.TaskExecStartResponse, error) {
	w := workspaceOf(ctx)
	if req.GetExecId() == "" {
		return nil, status.Error(codes.InvalidArgument, "exec_id is required")
	}
	if len(req.GetCommandArgs()) == 0 {
		return nil, status.Error(codes.InvalidArgument, "command_args must not be empty")
	}
	if req.GetContainerId() != "" || req.HasPtyInfo() || req.GetRuntimeDebug() {
		return nil, status.Error(codes.Unimplemented, "modalfake: sidecar containers, PTYs and runtime debugging are not modelled")
	}
	switch req.GetStdoutConfig() {
	case pb.TaskExecStdoutConfig_TASK_EXEC_STDOUT_CONFIG_PIPE, pb.TaskExecStdoutConfig_TASK_EXEC_STDOUT_CONFIG_DEVNULL:
	default:
		return nil, status.Errorf(codes.InvalidArgument, "unknown stdout_config %d", req.GetStdoutConfig())
	}
	switch req.GetStderrConfig() {
	case pb.TaskExecStderrConfig_TASK_EXEC_STDERR_CONFIG_PIPE, pb.TaskExecStderrConfig_TASK_EXEC_STDERR_CONFIG_DEVNULL,
		pb.TaskExecStderrConfig_TASK_EXEC_STDERR_CONFIG_STDOUT:
	default:
		return nil, status.Errorf(codes.InvalidArgument, "unknown stderr_config %d", req.GetStderrConfig())
	}
	if req.HasWorkdir() && !path.IsAbs(req.GetWorkdir()) {
		return nil, status.Errorf(codes.InvalidArgument, "workdir must be an absolute path, got %q", req.GetWorkdir())
	}
	if req.HasTimeoutSecs() && req.GetTimeoutSecs() == 0 {
		return nil, status.Error(codes.InvalidArgument, "timeout_secs must be positive when set")
	}
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	key := execKey(req.GetTaskId(), req.GetExecId())
	if _, ok := w.execs[key]; ok {
		// A retried start of the same exec starts nothing more.
		return &pb.TaskExecStartResponse{}, nil
	}
	sb, err := w.sandboxOfTask(req.GetTaskId(), w.sandboxes[w.tasks[req.GetTaskId()]].isV2())
	if err != nil {
		return nil, err
	}
	if sb.finished {
		return nil, status.Errorf(codes.FailedPrecondition, "Task %s has already finished", sb.taskID)
	}
	own, err := w.execEnv(req)
	if err != nil {
		return nil, err
	}
	env := maps.Clone(sb.env)
	if env == nil {
		env = map[string]string{}
	}
	maps.Copy(env, own)
	workdir := req.GetWorkdir()
	if workdir == "" {
		workdir = sb.definition.GetWorkdir()
	}
	if workdir == "" {
		workdir = "/"
	}
	p := &proc{
		id: req.GetExecId(), taskID: sb.taskID, sandboxID: sb.id,
		argv: append([]string(nil), req.GetCommandArgs()...), env: own,
		workdir: req.GetWorkdir(), timeoutSecs: req.GetTimeoutSecs(),
		stdoutMode: req.GetStdoutConfig(), stderrMode: req.GetStderrConfig(),
		changed: make(chan struct{}), kill: make(chan struct{}),
	}
	w.execs[key] = p
	w.execOrder = append(w.execOrder, p)
	sb.runningExecs++
	if p.timeoutSecs > 0 {
		w.armTimeout(p, func() {
			r.s.mu.Lock()
			defer r.s.mu.Unlock()
			w.endExec(p, 0, 9)
		})
	}
	go w.runExec(p, commandSteps(p.argv, env, workdir))
	return &pb.TaskExecStartResponse{}, nil
}

// armTimeout has kill run once p's timeout_secs have passed: on a real
// timer, or once w.timeoutWait says so when a test set it; w.s.mu held.
func (w *Workspace) armTimeout(p *proc, kill func()) {
	d := time.Duration(p.timeoutSecs) * time.Second
	if wait := w.timeoutWait; wait != nil {
		go func() {
			if wait(d, p.kill) {
				kill()
			}
		}()
		return
	}
	p.timer = time.AfterFunc(d, kill)
}

// execEnv is what an exec adds to its sandbox's environment: secret_ids,
// then env, then secret_sources, in order; w.s.mu held.
func (w *Workspace) execEnv(req *pb.TaskExecStartRequest) (map[string]string, error) {
	env := map[string]string{}
	for _, id := range req.GetSecretIds() {
		vals, ok := w.secrets[id]
		if !ok {
			return nil, status.Errorf(codes.NotFound, "Secret '%s' not found", id)
		}
		maps.Copy(env, vals)
	}
	maps.Copy(env, req.GetEnv())
	for _, src := range req.GetSecretSources() {
		switch {
		case src.HasSecretId():
			vals, ok := w.secrets[src.GetSecretId()]
			if !ok {
				return nil, status.Errorf(codes.NotFound, "Secret '%s' not found", src.GetSecretId())
			}
			maps.Copy(env, vals)
		case src.HasEnv():
			maps.Copy(env, src.GetEnv().GetContents())
		default:
			return nil, status.Error(codes.InvalidArgument, "secret source without secret_id or env")
		}
	}
	return env, nil
}

// runExec plays a command's steps in real time, until it ends or is killed.
func (w *Workspace) runExec(p *proc, steps []step) {
	for _, st := range steps {
		if st.sleep > 0 {
			select {
			case <-time.After(st.sleep):
			case <-p.kill:
				return
			}
			continue
		}
		w.s.mu.Lock()
		if p.done {
			w.s.mu.Unlock()
			return
		}
		switch {
		case st.exit != nil:
			w.endExec(p, *st.exit, 0)
		case st.signal > 0:
			w.endExec(p, 0, st.signal)
		default:
			p.stdout = append(p.stdout, st.stdout...)
			if p.stderrMode == pb.TaskExecStderrConfig_TASK_EXEC_STDERR_CONFIG_STDOUT {
				p.stdout = append(p.stdout, st.stderr...)
			} else {
				p.stderr = append(p.stderr, st.stderr...)
			}
			p.notify()
		}
		done := p.done
		w.s.mu.Unlock()
		if done {
			return
		}
	}
}

// endExec ends a running command with an exit code, or killed by signal
// (> 0); w.s.mu held.
func (w *Workspace) endExec(p *proc, code, signal int32) {
	if p.done {
		return
	}
	p.done, p.code, p.signal = true, code, signal
	if p.timer != nil {
		p.timer.Stop()
	}
	close(p.kill)
	p.notify()
	if sb := w.sandboxes[p.sandboxID]; sb != nil {
		sb.runningExecs--
		sb.lastActive = w.now
	}
}

// killExecs kills the running commands of a finishing sandbox; w.s.mu held.
func (w *Workspace) killExecs(sb *sandbox) {
	for _, p := range w.execOrder {
		if p.sandboxID == sb.id {
			w.endExec(p, 0, 9)
		}
	}
}

// execFor finds an exec of the task the call names; w.s.mu unlocked.
func (w *Workspace) execFor(taskID, execID string) (*proc, error) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	p, ok := w.execs[execKey(taskID, execID)]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "Exec '%s' not found in task %s", execID, taskID)
	}
	return p, nil
}

// stdioChunk is the most one TaskExecStdioReadResponse carries.
const stdioChunk = 32 << 10

// TaskExecStdioRead streams one output of a command from an offset; the
// stream ends once the command has ended and everything is sent. An
// output not piped (DEVNULL, or stderr merged into stdout) is empty.
func (r *router) TaskExecStdioRead(req *pb.TaskExecStdioReadRequest, stream grpc.ServerStreamingServer[pb.TaskExecStdioReadResponse]) error {
	ctx := stream.Context()
	w := workspaceOf(ctx)
	if granted, _ := ctx.Value(taskKey{}).(string); granted != req.GetTaskId() {
		w.violation("TaskExecStdioRead: task %q with a JWT for task %q", req.GetTaskId(), granted)
		return status.Errorf(codes.PermissionDenied, "token does not grant access to task %s", req.GetTaskId())
	}
	fd := req.GetFileDescriptor()
	if fd != pb.TaskExecStdioFileDescriptor_TASK_EXEC_STDIO_FILE_DESCRIPTOR_STDOUT &&
		fd != pb.TaskExecStdioFileDescriptor_TASK_EXEC_STDIO_FILE_DESCRIPTOR_STDERR {
		return status.Errorf(codes.InvalidArgument, "unknown file_descriptor %d", fd)
	}
	p, err := w.execFor(req.GetTaskId(), req.GetExecId())
	if err != nil {
		return err
	}
	off := req.GetOffset()
	for {
		r.s.mu.Lock()
		var out []byte
		switch {
		case fd == pb.TaskExecStdioFileDescriptor_TASK_EXEC_STDIO_FILE_DESCRIPTOR_STDOUT &&
			p.stdoutMode == pb.TaskExecStdoutConfig_TASK_EXEC_STDOUT_CONFIG_PIPE:
			out = p.stdout
		case fd == pb.TaskExecStdioFileDescriptor_TASK_EXEC_STDIO_FILE_DESCRIPTOR_STDERR &&
			p.stderrMode == pb.TaskExecStderrConfig_TASK_EXEC_STDERR_CONFIG_PIPE:
			out = p.stderr
		}
		if off > uint64(len(out)) {
			r.s.mu.Unlock()
			return status.Errorf(codes.OutOfRange, "offset %d is past the %d bytes written", off, len(out))
		}
		pending := append([]byte(nil), out[off:]...)
		done, changed := p.done, p.changed
		r.s.mu.Unlock()
		for len(pending) > 0 {
			n := min(len(pending), stdioChunk)
			if err := stream.Send(pb.TaskExecStdioReadResponse_builder{Data: pending[:n]}.Build()); err != nil {
				return err
			}
			pending = pending[n:]
			off += uint64(n)
		}
		if done {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return status.FromContextError(ctx.Err()).Err()
		}
	}
}

// TaskExecWait holds until the command ends.
func (r *router) TaskExecWait(ctx context.Context, req *pb.TaskExecWaitRequest) (*pb.TaskExecWaitResponse, error) {
	w := workspaceOf(ctx)
	p, err := w.execFor(req.GetTaskId(), req.GetExecId())
	if err != nil {
		return nil, err
	}
	for {
		r.s.mu.Lock()
		done, code, signal, changed := p.done, p.code, p.signal, p.changed
		r.s.mu.Unlock()
		if done {
			if signal > 0 {
				return pb.TaskExecWaitResponse_builder{Signal: proto.Int32(signal)}.Build(), nil
			}
			return pb.TaskExecWaitResponse_builder{Code: proto.Int32(code)}.Build(), nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, status.FromContextError(ctx.Err()).Err()
		}
	}
}
