package modal

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

const execSecret = "hunter2-very-secret"

func TestExec(t *testing.T) {
	tests := []struct {
		name           string
		spec           platform.ExecSpec
		stdout, stderr string
		code           int
		truncated      bool
		ran            []string // the command the fake saw
		env            map[string]string
		workdir        string
	}{
		{name: "echo", spec: platform.ExecSpec{Command: []string{"echo", "hello", "world"}},
			stdout: "hello world\n", ran: []string{"echo", "hello", "world"}},
		{name: "non-zero exit is a result", spec: platform.ExecSpec{Command: []string{"sh", "-c", "echo oops >&2; exit 3"}},
			stderr: "oops\n", code: 3},
		{name: "missing program", spec: platform.ExecSpec{Command: []string{"git", "status"}},
			stderr: "exec: \"git\": executable file not found in $PATH\n", code: 127},
		{name: "killed by a signal", spec: platform.ExecSpec{Command: []string{"sh", "-c", "kill -9 $$"}}, code: 137},
		{name: "env over the box's", spec: platform.ExecSpec{Command: []string{"printenv", "BOX", "TOKEN"},
			Env: map[string]string{"TOKEN": execSecret}},
			stdout: "from-box\n" + execSecret + "\n", env: map[string]string{"TOKEN": execSecret}},
		{name: "working dir", spec: platform.ExecSpec{Command: []string{"pwd"}, WorkingDir: "/work"},
			stdout: "/work\n", workdir: "/work"},
		{name: "default working dir", spec: platform.ExecSpec{Command: []string{"pwd"}}, stdout: "/\n"},
		{name: "truncated", spec: platform.ExecSpec{Command: []string{"sh", "-c", "echo 0123456789; echo abcdefghij >&2"}, MaxOutput: 4},
			stdout: "0123", stderr: "abcd", truncated: true},
		// Rounded up to 3601 s; the hour keeps the SDK's own deadline for
		// the command (the timeout, on the wall clock) out of reach of a
		// slow machine.
		{name: "timeout sent in whole seconds", spec: platform.ExecSpec{Command: []string{"true"}, Timeout: time.Hour + 500*time.Millisecond}},
	}
	for _, v1 := range []bool{false, true} {
		f := newFixture(t, v1)
		box := f.box(t, platform.SandboxSpec{Env: map[string]string{"BOX": "from-box"}})
		for _, tc := range tests {
			t.Run(map[bool]string{false: "v2/", true: "v1/"}[v1]+tc.name, func(t *testing.T) {
				if tc.spec.MaxOutput == 0 {
					tc.spec.MaxOutput = 1 << 20
				}
				before := len(f.w.Execs(box.ID))
				got, err := f.p.Exec(f.ctx, box.ID, tc.spec)
				if err != nil {
					t.Fatalf("Exec: %v", err)
				}
				if string(got.Stdout) != tc.stdout || string(got.Stderr) != tc.stderr || got.ExitCode != tc.code || got.Truncated != tc.truncated {
					t.Fatalf("result = stdout %q, stderr %q, code %d, truncated %t; want %q, %q, %d, %t",
						got.Stdout, got.Stderr, got.ExitCode, got.Truncated, tc.stdout, tc.stderr, tc.code, tc.truncated)
				}
				execs := f.w.Execs(box.ID)
				if len(execs) != before+1 {
					t.Fatalf("the fake ran %d commands, want 1", len(execs)-before)
				}
				ran := execs[len(execs)-1]
				if tc.ran != nil && strings.Join(ran.Command, "\x00") != strings.Join(tc.ran, "\x00") {
					t.Errorf("ran %q, want %q", ran.Command, tc.ran)
				}
				for k, v := range tc.env {
					if ran.Env[k] != v {
						t.Errorf("exec env %s = %q, want %q", k, ran.Env[k], v)
					}
				}
				if ran.Workdir != tc.workdir {
					t.Errorf("workdir sent %q, want %q", ran.Workdir, tc.workdir)
				}
				if want := uint32((tc.spec.Timeout + time.Second - 1) / time.Second); ran.TimeoutSecs != want {
					t.Errorf("timeout_secs %d, want %d", ran.TimeoutSecs, want)
				}
			})
		}
	}
}

// A box that finished (terminated, timed out) or never was runs nothing:
// both are gone to the provider, and no error shows an env value.
func TestExecRefused(t *testing.T) {
	f := newFixture(t, false)
	box := f.box(t, platform.SandboxSpec{})
	spec := platform.ExecSpec{Command: []string{"echo", "x"}, Env: map[string]string{"TOKEN": execSecret}, MaxOutput: 1024}
	if err := f.w.TerminateSandbox(box.ID); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{box.ID, "sb-0000000000000000000000"} {
		_, err := f.p.Exec(f.ctx, id, spec)
		if !platform.IsNotFound(err) {
			t.Errorf("Exec in %s: %v, want a NotFoundError", id, err)
		}
		if err != nil && strings.Contains(err.Error(), execSecret) {
			t.Errorf("error shows the env value: %v", err)
		}
	}
	if _, err := f.p.Exec(f.ctx, box.ID, spec); err == nil || !strings.Contains(err.Error(), "terminated") {
		t.Errorf("Exec in a terminated box: %v, want the reason", err)
	}
	if n := len(f.w.Execs(box.ID)); n != 0 {
		t.Errorf("the fake ran %d commands in a finished box", n)
	}
	// The SDK refuses a bad name before sending anything; the value stays hidden.
	live := f.box(t, platform.SandboxSpec{})
	_, err := f.p.Exec(f.ctx, live.ID, platform.ExecSpec{Command: []string{"true"}, Env: map[string]string{"BAD NAME": execSecret}})
	if err == nil || strings.Contains(err.Error(), execSecret) {
		t.Errorf("Exec with a bad env name: %v", err)
	}
}

// A command still running at the timeout is an ExecTimeoutError, whether
// ctx or Modal's kill ends it first; the timeout goes to Modal, which kills
// it.
func TestExecTimeout(t *testing.T) {
	f := newFixture(t, false)
	box := f.box(t, platform.SandboxSpec{})
	for _, tc := range []struct {
		name    string
		timeout time.Duration
		ctx     func(waits int) (context.Context, func())
	}{
		// The deadline passes once the platform waits for the command (the
		// fake has one more TaskExecWait), not at an instant a slow machine
		// could reach before the command started; the hour sent to Modal
		// is far longer than any test, so ctx ends it first.
		{"ctx deadline", time.Hour, func(waits int) (context.Context, func()) {
			d := clock.NewDeadline(f.ctx)
			d.PassWhen(func() bool { return f.w.Calls("TaskExecWait") > waits })
			return d, d.Pass
		}},
		// The fake kills the command on a real timer at the second sent,
		// which stays real: the platform tells Modal's kill from any other
		// 137 by the time it has waited. The second is a least wait, not a
		// bound: a slow machine only makes it longer, and whichever ends
		// the command first, the SDK's own deadline (armed after the start)
		// or the fake's kill, Exec answers an ExecTimeoutError.
		{"Modal's kill", time.Second, func(int) (context.Context, func()) { return context.WithCancel(f.ctx) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := tc.ctx(f.w.Calls("TaskExecWait"))
			defer cancel()
			_, err := f.p.Exec(ctx, box.ID, platform.ExecSpec{Command: []string{"sleep", "3600"}, Timeout: tc.timeout, MaxOutput: 1024})
			var te *platform.ExecTimeoutError
			if !errors.As(err, &te) || te.Timeout != tc.timeout || !strings.Contains(te.Detail, "Modal kills it") {
				t.Fatalf("Exec = %v, want an ExecTimeoutError", err)
			}
		})
	}
	// The first command runs on until its hour; the second is killed by
	// the fake's timer, which may come after Exec returned on the SDK's
	// own deadline (the kill happens by itself, in real time).
	killed := func() bool {
		e := f.w.Execs(box.ID)
		return len(e) == 2 && !e[0].Done && e[0].TimeoutSecs == 3600 && e[1].Signal == 9 && e[1].TimeoutSecs == 1
	}
	if !clock.Eventually(killed) {
		t.Errorf("execs = %+v, want the first running with its hour sent, the second killed by Modal", f.w.Execs(box.ID))
	}
}

// A throttled start is waited out and tried again, starting one command.
func TestExecThrottled(t *testing.T) {
	f := newFixture(t, false)
	var waits []time.Duration
	f.p.throttleSleep = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	box := f.box(t, platform.SandboxSpec{})
	f.w.Throttle("TaskExecStart", 1, 2*time.Second)
	got, err := f.p.Exec(f.ctx, box.ID, platform.ExecSpec{Command: []string{"echo", "ok"}, MaxOutput: 1024})
	if err != nil || string(got.Stdout) != "ok\n" {
		t.Fatalf("Exec = %+v, %v", got, err)
	}
	if len(waits) != 1 || waits[0] != 2*time.Second || len(f.w.Execs(box.ID)) != 1 {
		t.Errorf("waits %v, execs %d", waits, len(f.w.Execs(box.ID)))
	}
}

// Without a timeout sent, a ctx deadline leaves the command running on
// Modal and says so; a cancelled ctx is just that. Each ctx ends once the
// platform waits for its command (the fake has its TaskExecWait), not at
// an instant a slow machine could reach before the command started.
func TestExecCtxEnds(t *testing.T) {
	f := newFixture(t, false)
	box := f.box(t, platform.SandboxSpec{})
	// The sleep outlasts any test: both commands still run at the end.
	spec := platform.ExecSpec{Command: []string{"sleep", "3600"}, MaxOutput: 1024}
	waiting := func(n int) func() bool { return func() bool { return f.w.Calls("TaskExecWait") >= n } }
	d := clock.NewDeadline(f.ctx)
	d.PassWhen(waiting(1))
	defer d.Pass()
	_, err := f.p.Exec(d, box.ID, spec)
	var te *platform.ExecTimeoutError
	if !errors.As(err, &te) || !strings.Contains(te.Detail, "may still be running") {
		t.Fatalf("Exec past a ctx deadline = %v, want an ExecTimeoutError saying it may run on", err)
	}
	ctx, cancel := context.WithCancel(f.ctx)
	defer cancel()
	go func() {
		clock.Eventually(waiting(2))
		cancel()
	}()
	if _, err := f.p.Exec(ctx, box.ID, spec); !errors.Is(err, context.Canceled) {
		t.Fatalf("Exec with ctx cancelled = %v, want context.Canceled", err)
	}
	if e := f.w.Execs(box.ID); len(e) != 2 || e[0].Done || e[0].TimeoutSecs != 0 {
		t.Errorf("execs = %+v, want two still running, with no timeout", e)
	}
}
