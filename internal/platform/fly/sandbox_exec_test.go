package fly

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
)

// Exec runs argv through POST .../exec in a started machine and reports
// what Fly answered: output, exit code (a non-zero one a result, not an
// error), the machine's own env, output past MaxOutput dropped, and the
// timeout given to Fly in whole seconds.
func TestExec(t *testing.T) {
	f := newFixture(t, flyfake.Options{}, Config{})
	sb := f.box(t, platform.SandboxSpec{Name: "box", Env: map[string]string{"GREETING": "hello there"}})
	for _, c := range []struct {
		name     string
		spec     platform.ExecSpec
		exit     int
		out, err string
		cut      bool
	}{
		{name: "echo keeps each argument", spec: platform.ExecSpec{Command: []string{"echo", "a b", `"q'`, ""}},
			out: "a b \"q' \n"},
		{name: "the box's env", spec: platform.ExecSpec{Command: []string{"printenv", "GREETING"}}, out: "hello there\n"},
		{name: "non-zero exit is a result", spec: platform.ExecSpec{Command: []string{"/bin/sh", "-c", "echo oops >&2; exit 3"}},
			exit: 3, err: "oops\n"},
		{name: "unknown program", spec: platform.ExecSpec{Command: []string{"nosuch"}}, exit: 127,
			err: "exec: \"nosuch\": executable file not found in $PATH\n"},
		{name: "output past MaxOutput", spec: platform.ExecSpec{Command: []string{"seq", "1000"}, MaxOutput: 10},
			out: "1\n2\n3\n4\n5\n", cut: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.spec.MaxOutput == 0 {
				c.spec.MaxOutput = 1 << 16
			}
			c.spec.Timeout = 90 * time.Second
			res, err := f.p.Exec(context.Background(), sb.ID, c.spec)
			if err != nil {
				t.Fatal(err)
			}
			if res.ExitCode != c.exit || string(res.Stdout) != c.out || string(res.Stderr) != c.err || res.Truncated != c.cut {
				t.Errorf("got exit %d stdout %q stderr %q truncated %v; want %d %q %q %v",
					res.ExitCode, res.Stdout, res.Stderr, res.Truncated, c.exit, c.out, c.err, c.cut)
			}
		})
	}
	runs := f.srv.ExecRuns()
	if len(runs) != 5 || !slices.Equal(runs[0].Command, []string{"echo", "a b", `"q'`, ""}) || runs[0].Timeout != 90 || runs[0].Machine != sb.ID {
		t.Errorf("the fake ran %+v; want the argv as given, with timeout 90 s", runs)
	}
}

// Exec refuses what Fly cannot do or run: env and working_dir (whose
// values stay out of the error), a machine that is not started (saying its
// state), one that is gone (platform.NotFoundError); a timeout that ends
// the call first is an ExecTimeoutError.
func TestExecRefusals(t *testing.T) {
	f := newFixture(t, flyfake.Options{}, Config{})
	ctx := context.Background()
	sb := f.box(t, platform.SandboxSpec{Name: "box"})

	_, err := f.p.Exec(ctx, sb.ID, platform.ExecSpec{Command: []string{"true"}, Env: map[string]string{"TOKEN": "s3cr3t-value"}})
	if err == nil || strings.Contains(err.Error(), "s3cr3t-value") || !strings.Contains(err.Error(), "env") {
		t.Errorf("env: %v; want a refusal without the value", err)
	}
	if _, err := f.p.Exec(ctx, sb.ID, platform.ExecSpec{Command: []string{"pwd"}, WorkingDir: "/tmp"}); err == nil {
		t.Error("working_dir was not refused")
	}

	// The deadline passes once the fake holds the command running (its
	// sleep), not at an instant of the wall clock a slow machine could
	// reach before the request was sent. The command and the timeout given
	// to Fly are far longer than any test, so the call's deadline ends it
	// first.
	tctx := clock.NewDeadline(ctx)
	tctx.PassWhen(func() bool { return f.srv.ExecsSleeping() > 0 })
	_, err = f.p.Exec(tctx, sb.ID, platform.ExecSpec{Command: []string{"sleep", "3600"}, Timeout: time.Hour, MaxOutput: 100})
	var te *platform.ExecTimeoutError
	if !errors.As(err, &te) || te.Timeout != time.Hour {
		t.Errorf("a command past its timeout: %v; want an ExecTimeoutError", err)
	}
	if !clock.Eventually(func() bool { return f.srv.ExecsSleeping() == 0 }) {
		t.Error("the fake still holds the command its caller left")
	}

	if _, err := f.p.Sandboxes().SetState(ctx, sb.ID, platform.StateStopped); err != nil {
		t.Fatal(err)
	}
	_, err = f.p.Exec(ctx, sb.ID, platform.ExecSpec{Command: []string{"true"}, MaxOutput: 100})
	if err == nil || !strings.Contains(err.Error(), "is stopped on Fly") || platform.IsNotFound(err) {
		t.Errorf("a stopped machine: %v; want a refusal naming its state", err)
	}

	f.srv.DestroyMachineOutOfBand(sb.ID)
	if _, err := f.p.Exec(ctx, sb.ID, platform.ExecSpec{Command: []string{"true"}, MaxOutput: 100}); !platform.IsNotFound(err) {
		t.Errorf("a destroyed machine: %v; want platform.NotFoundError", err)
	}
	if v := f.srv.SpecViolations(); len(v) > 0 {
		t.Errorf("violations: %v", v)
	}
}
