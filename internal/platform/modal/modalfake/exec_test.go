package modalfake

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	modal "github.com/modal-labs/modal-client/go"
	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

// run execs argv through the SDK and gives its output and exit code.
func run(t *testing.T, f *fixture, sb *modal.Sandbox, argv []string, params *modal.SandboxExecParams) (stdout, stderr string, code int) {
	t.Helper()
	p, err := sb.Exec(f.ctx, argv, params)
	if err != nil {
		t.Fatalf("Exec %q: %v", argv, err)
	}
	out, err := io.ReadAll(p.Stdout)
	if err != nil {
		t.Fatalf("stdout of %q: %v", argv, err)
	}
	errOut, err := io.ReadAll(p.Stderr)
	if err != nil {
		t.Fatalf("stderr of %q: %v", argv, err)
	}
	code, err = p.Wait(f.ctx, nil)
	if err != nil {
		t.Fatalf("Wait %q: %v", argv, err)
	}
	return string(out), string(errOut), code
}

func TestExecPrograms(t *testing.T) {
	for _, v1 := range []bool{false, true} {
		t.Run(map[bool]string{false: "v2", true: "v1"}[v1], func(t *testing.T) {
			f := newFixture(t, v1)
			sb := f.create(t, &modal.SandboxCreateParams{Env: map[string]string{"BOX": "b", "BOTH": "box"}, Workdir: "/srv"})
			for _, tc := range []struct {
				argv           []string
				params         *modal.SandboxExecParams
				stdout, stderr string
				code           int
			}{
				{argv: []string{"echo", "hello", "world"}, stdout: "hello world\n"},
				{argv: []string{"/bin/echo", "x"}, stdout: "x\n"},
				{argv: []string{"sh", "-c", "exit 42"}, code: 42},
				{argv: []string{"sh", "-c", "echo out; echo err >&2; exit 3"}, stdout: "out\n", stderr: "err\n", code: 3},
				{argv: []string{"sh", "-c", "kill -9 $$"}, code: 137},
				{argv: []string{"sh", "-c", "nope; echo after"}, stdout: "after\n", stderr: "sh: 1: nope: not found\n"},
				{argv: []string{"false"}, code: 1},
				{argv: []string{"pwd"}, stdout: "/srv\n"},
				{argv: []string{"pwd"}, params: &modal.SandboxExecParams{Workdir: "/tmp"}, stdout: "/tmp\n"},
				{argv: []string{"printenv", "BOX", "BOTH", "EXEC"}, params: &modal.SandboxExecParams{Env: map[string]string{"EXEC": "e", "BOTH": "exec"}},
					stdout: "b\nexec\ne\n"},
				{argv: []string{"printenv", "MISSING"}, code: 1},
				{argv: []string{"git", "status"}, stderr: "exec: \"git\": executable file not found in $PATH\n", code: 127},
				{argv: []string{"echo", "dropped"}, params: &modal.SandboxExecParams{Stdout: modal.Ignore}},
			} {
				stdout, stderr, code := run(t, f, sb, tc.argv, tc.params)
				if stdout != tc.stdout || stderr != tc.stderr || code != tc.code {
					t.Errorf("%q: stdout %q, stderr %q, code %d; want %q, %q, %d", tc.argv, stdout, stderr, code, tc.stdout, tc.stderr, tc.code)
				}
			}
			execs := f.w.Execs(sb.SandboxID)
			if len(execs) != 13 || execs[9].Env["EXEC"] != "e" || execs[9].Env["BOX"] != "" || execs[8].Workdir != "/tmp" || !execs[0].Done {
				t.Errorf("execs = %+v", execs)
			}
		})
	}
}

// timeout_secs kills the command with SIGKILL: the SDK's 137. The fake
// waits the timeout through the test (timeoutWait) rather than on a real
// timer, so the test sees which wait was armed and ends it itself instead
// of timing the kill; the hour sent keeps the SDK's own deadline for the
// command (the timeout, on the wall clock) out of reach.
func TestExecTimeoutKills(t *testing.T) {
	f := newFixture(t, false)
	sb := f.create(t, nil)
	waits := make(chan time.Duration, 1)
	timedOut := make(chan struct{})
	f.w.s.mu.Lock()
	f.w.timeoutWait = func(d time.Duration, ended <-chan struct{}) bool {
		waits <- d
		select {
		case <-timedOut:
			return true
		case <-ended:
			return false
		}
	}
	f.w.s.mu.Unlock()
	p, err := sb.Exec(f.ctx, []string{"sleep", "3600"}, &modal.SandboxExecParams{Timeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case d := <-waits:
		if d != time.Hour {
			t.Errorf("the fake waits %s before the kill, want the 1h sent", d)
		}
	case <-time.After(clock.Patience): // the fake arms it by itself, at once
		t.Fatal("the fake armed no wait for the command's timeout")
	}
	// Nothing kills the command before its timeout has passed.
	if e := f.w.Execs(sb.SandboxID); len(e) != 1 || e[0].Done {
		t.Fatalf("execs before the timeout passed = %+v, want one running", e)
	}
	close(timedOut)
	code, err := p.Wait(f.ctx, nil)
	if err != nil || code != 137 {
		t.Fatalf("Wait = %d, %v; want 137", code, err)
	}
	if e := f.w.Execs(sb.SandboxID); len(e) != 1 || e[0].Signal != 9 || e[0].TimeoutSecs != 3600 {
		t.Errorf("execs = %+v", e)
	}
	// The kill was the command's own: its sandbox runs on.
	if v := f.view(t, sb.SandboxID); v.Finished {
		t.Errorf("the sandbox finished with its command: %+v", v)
	}
}

// A finished sandbox runs nothing, and one that finishes kills its commands.
func TestExecFinishedSandbox(t *testing.T) {
	f := newFixture(t, false)
	sb := f.create(t, nil)
	// The sleep outlasts any test: only the sandbox's end stops it.
	p, err := sb.Exec(f.ctx, []string{"sh", "-c", "echo started; sleep 3600"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	if n, err := io.ReadFull(p.Stdout, buf); err != nil || string(buf[:n]) != "started\n" {
		t.Fatalf("first output %q, %v", buf[:n], err)
	}
	if err := f.w.TerminateSandbox(sb.SandboxID); err != nil {
		t.Fatal(err)
	}
	if code, err := p.Wait(f.ctx, nil); err != nil || code != 137 {
		t.Fatalf("Wait after terminate = %d, %v; want 137", code, err)
	}
	if rest, err := io.ReadAll(p.Stdout); err != nil || len(rest) != 0 {
		t.Errorf("rest of stdout %q, %v", rest, err)
	}

	// A fresh handle: the task's router access is refused.
	again, err := f.c.Sandboxes.FromID(f.ctx, sb.SandboxID, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = again.Exec(f.ctx, []string{"echo", "x"}, nil)
	var conflict modal.ConflictError
	if err == nil || !errors.As(err, &conflict) && status.Code(err) != codes.FailedPrecondition {
		t.Fatalf("exec in a finished sandbox: %v", err)
	}
}

// The router itself: exec_id makes a start idempotent, a finished task is
// refused, and the request is checked.
func TestRouterExecRules(t *testing.T) {
	f := newFixture(t, false)
	sb := f.create(t, nil)
	rt, ctx, task := routerFor(t, f, sb.SandboxID)
	start := func(b pb.TaskExecStartRequest_builder) error {
		b.TaskId = task
		if b.StdoutConfig == 0 {
			b.StdoutConfig = pb.TaskExecStdoutConfig_TASK_EXEC_STDOUT_CONFIG_PIPE
		}
		_, err := rt.TaskExecStart(ctx, b.Build())
		return err
	}
	rel := "tmp"
	zero := uint32(0)
	for _, tc := range []struct {
		name string
		req  pb.TaskExecStartRequest_builder
		want codes.Code
	}{
		{"no exec id", pb.TaskExecStartRequest_builder{CommandArgs: []string{"true"}}, codes.InvalidArgument},
		{"no command", pb.TaskExecStartRequest_builder{ExecId: "a"}, codes.InvalidArgument},
		{"relative workdir", pb.TaskExecStartRequest_builder{ExecId: "b", CommandArgs: []string{"pwd"}, Workdir: &rel}, codes.InvalidArgument},
		{"zero timeout", pb.TaskExecStartRequest_builder{ExecId: "c", CommandArgs: []string{"true"}, TimeoutSecs: &zero}, codes.InvalidArgument},
		{"unknown secret", pb.TaskExecStartRequest_builder{ExecId: "d", CommandArgs: []string{"true"}, SecretIds: []string{"st-none"}}, codes.NotFound},
		{"ok", pb.TaskExecStartRequest_builder{ExecId: "once", CommandArgs: []string{"echo", "1"}}, codes.OK},
		{"same exec id", pb.TaskExecStartRequest_builder{ExecId: "once", CommandArgs: []string{"echo", "2"}}, codes.OK},
	} {
		if err := start(tc.req); status.Code(err) != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.want)
		}
	}
	if e := f.w.Execs(sb.SandboxID); len(e) != 1 || strings.Join(e[0].Command, " ") != "echo 1" {
		t.Errorf("execs = %+v, want one echo 1", e)
	}
	w, err := rt.TaskExecWait(ctx, pb.TaskExecWaitRequest_builder{TaskId: task, ExecId: "once"}.Build())
	if err != nil || !w.HasCode() || w.GetCode() != 0 {
		t.Errorf("wait = %v, %v", w, err)
	}
	if _, err := rt.TaskExecWait(ctx, pb.TaskExecWaitRequest_builder{TaskId: task, ExecId: "none"}.Build()); status.Code(err) != codes.NotFound {
		t.Errorf("wait on an unknown exec: %v", err)
	}
	stream, err := rt.TaskExecStdioRead(ctx, pb.TaskExecStdioReadRequest_builder{TaskId: task, ExecId: "once", Offset: 99}.Build())
	if err == nil {
		_, err = stream.Recv()
	}
	if status.Code(err) != codes.OutOfRange {
		t.Errorf("read past the output: %v", err)
	}
	if err := f.w.TerminateSandbox(sb.SandboxID); err != nil {
		t.Fatal(err)
	}
	if err := start(pb.TaskExecStartRequest_builder{ExecId: "late", CommandArgs: []string{"true"}}); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("start in a finished task: %v", err)
	}
}

// A running command keeps its sandbox from idling out.
func TestExecIsActivity(t *testing.T) {
	f := newFixture(t, false)
	sb := f.create(t, &modal.SandboxCreateParams{IdleTimeout: time.Minute})
	ctx, cancel := context.WithCancel(f.ctx)
	defer cancel()
	// The sleep outlasts any test, so the command still runs at Advance.
	if _, err := sb.Exec(ctx, []string{"sleep", "3600"}, nil); err != nil {
		t.Fatal(err)
	}
	// Exec returns once TaskExecStart has answered, and the fake holds the
	// command before it answers.
	if e := f.w.Execs(sb.SandboxID); len(e) != 1 || e[0].Done {
		t.Fatalf("execs = %+v, want one running", e)
	}
	f.w.Advance(2 * time.Minute)
	if v := f.view(t, sb.SandboxID); v.Finished {
		t.Fatalf("idled out while a command ran: %+v", v)
	}
}
