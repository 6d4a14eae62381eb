package modal

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

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
		{name: "timeout sent in whole seconds", spec: platform.ExecSpec{Command: []string{"true"}, Timeout: 1500 * time.Millisecond}},
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
// ctx or Modal's kill ends it first; Modal kills it.
func TestExecTimeout(t *testing.T) {
	f := newFixture(t, false)
	box := f.box(t, platform.SandboxSpec{})
	for _, tc := range []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
	}{
		{"ctx deadline", func() (context.Context, context.CancelFunc) { return context.WithTimeout(f.ctx, time.Second) }},
		{"Modal's kill", func() (context.Context, context.CancelFunc) { return context.WithCancel(f.ctx) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := tc.ctx()
			defer cancel()
			_, err := f.p.Exec(ctx, box.ID, platform.ExecSpec{Command: []string{"sleep", "30"}, Timeout: time.Second, MaxOutput: 1024})
			var te *platform.ExecTimeoutError
			if !errors.As(err, &te) || te.Timeout != time.Second || !strings.Contains(te.Detail, "Modal kills it") {
				t.Fatalf("Exec = %v, want an ExecTimeoutError", err)
			}
		})
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if e := f.w.Execs(box.ID); len(e) == 2 && e[0].Signal == 9 && e[1].Signal == 9 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("execs = %+v, want both killed by Modal", f.w.Execs(box.ID))
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
// Modal and says so; a cancelled ctx is just that.
func TestExecCtxEnds(t *testing.T) {
	f := newFixture(t, false)
	box := f.box(t, platform.SandboxSpec{})
	spec := platform.ExecSpec{Command: []string{"sleep", "30"}, MaxOutput: 1024}
	ctx, cancel := context.WithTimeout(f.ctx, 200*time.Millisecond)
	defer cancel()
	_, err := f.p.Exec(ctx, box.ID, spec)
	var te *platform.ExecTimeoutError
	if !errors.As(err, &te) || !strings.Contains(te.Detail, "may still be running") {
		t.Fatalf("Exec past a ctx deadline = %v, want an ExecTimeoutError saying it may run on", err)
	}
	ctx, cancel = context.WithCancel(f.ctx)
	time.AfterFunc(200*time.Millisecond, cancel)
	if _, err := f.p.Exec(ctx, box.ID, spec); !errors.Is(err, context.Canceled) {
		t.Fatalf("Exec with ctx cancelled = %v, want context.Canceled", err)
	}
	if e := f.w.Execs(box.ID); len(e) != 2 || e[0].Done || e[0].TimeoutSecs != 0 {
		t.Errorf("execs = %+v, want two still running, with no timeout", e)
	}
}
