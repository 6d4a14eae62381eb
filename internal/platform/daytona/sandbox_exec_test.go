package daytona

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
)

// Exec runs argv through the box's toolbox proxy: the daemon's splitting
// of the one command string gives back exactly the arguments (quotes,
// spaces, tabs, non-ASCII), the working directory and the timeout reach
// it, the box's env is the command's, the output comes back merged as
// stdout, a non-zero exit is a result, and output past MaxOutput is cut.
func TestExec(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	sb := f.box(t, "", platform.SandboxSpec{Name: "box", Env: map[string]string{"GREETING": "hello there"}})
	tricky := []string{"echo", "a b", "it's", `say "hi"`, `'"'`, "''", "tab\there", "ünï  cödé", `\n`, "--"}
	for _, c := range []struct {
		name string
		spec platform.ExecSpec
		exit int
		out  string
		cut  bool
	}{
		{name: "arguments survive the daemon's splitting", spec: platform.ExecSpec{Command: tricky},
			out: strings.Join(tricky[1:], " ") + "\n"},
		{name: "the box's env", spec: platform.ExecSpec{Command: []string{"printenv", "GREETING"}}, out: "hello there\n"},
		{name: "working dir", spec: platform.ExecSpec{Command: []string{"pwd"}, WorkingDir: "/srv/app"}, out: "/srv/app\n"},
		{name: "default working dir", spec: platform.ExecSpec{Command: []string{"pwd"}}, out: "/home/daytona\n"},
		{name: "non-zero exit is a result, output merged", spec: platform.ExecSpec{
			Command: []string{"/bin/sh", "-c", "echo out; echo oops >&2; exit 3"}}, exit: 3, out: "out\noops\n"},
		{name: "a program that cannot start", spec: platform.ExecSpec{Command: []string{"nosuch"}}, exit: -1,
			out: `exec: "nosuch": executable file not found in $PATH`},
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
			if res.ExitCode != c.exit || string(res.Stdout) != c.out || len(res.Stderr) != 0 || res.Truncated != c.cut {
				t.Errorf("got exit %d stdout %q stderr %q truncated %v; want %d %q \"\" %v",
					res.ExitCode, res.Stdout, res.Stderr, res.Truncated, c.exit, c.out, c.cut)
			}
		})
	}
	runs := f.srv.ExecRuns()
	if len(runs) != 7 || !slices.Equal(runs[0].Argv, tricky) || runs[0].Timeout != 90 || runs[0].Sandbox != sb.ID ||
		runs[2].Cwd != "/srv/app" {
		t.Errorf("the fake ran %+v; want the argv as given, timeout 90 s, the working dir", runs)
	}
}

// daemonCommand refuses what the daemon's one command string cannot carry.
func TestDaemonCommandRefuses(t *testing.T) {
	for _, argv := range [][]string{nil, {"echo", ""}, {"echo", "\xff"}} {
		if s, err := daemonCommand(argv); err == nil {
			t.Errorf("daemonCommand(%q) = %q, want an error", argv, s)
		}
	}
}

// Exec refuses what Daytona cannot run: env (its values not in the error),
// a box not started (saying its state), one that is gone
// (platform.NotFoundError); a command past its timeout is an
// ExecTimeoutError, whether the daemon's timeout or the caller's ends it.
func TestExecRefusals(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	ctx := context.Background()
	sb := f.box(t, "", platform.SandboxSpec{Name: "box"})

	_, err := f.p.Exec(ctx, sb.ID, platform.ExecSpec{Command: []string{"true"}, Env: map[string]string{"TOKEN": "s3cr3t-value"}})
	if err == nil || strings.Contains(err.Error(), "s3cr3t-value") || !strings.Contains(err.Error(), "env") {
		t.Errorf("env: %v; want a refusal without the value", err)
	}

	// The daemon's timeout (1 s) passes first: its 408.
	_, err = f.p.Exec(ctx, sb.ID, platform.ExecSpec{Command: []string{"sleep", "5"}, Timeout: time.Second, MaxOutput: 100})
	var te *platform.ExecTimeoutError
	if !errors.As(err, &te) || !strings.Contains(te.Detail, "daemon ended it") {
		t.Errorf("past the daemon's timeout: %v; want an ExecTimeoutError from the daemon", err)
	}
	// The caller's deadline passes first: it passes once the fake holds
	// the command running (its sleep), not at an instant of the wall clock
	// a slow machine could reach before the request was sent, and the
	// command and the daemon's timeout are far longer than any test.
	tctx := clock.NewDeadline(ctx)
	tctx.PassWhen(func() bool { return f.srv.ExecsSleeping() > 0 })
	_, err = f.p.Exec(tctx, sb.ID, platform.ExecSpec{Command: []string{"sleep", "3600"}, Timeout: time.Hour, MaxOutput: 100})
	if !errors.As(err, &te) || te.Timeout != time.Hour || !strings.Contains(te.Detail, "(3600 s)") {
		t.Errorf("past the caller's deadline: %v; want an ExecTimeoutError", err)
	}
	if !clock.Eventually(func() bool { return f.srv.ExecsSleeping() == 0 }) {
		t.Error("the fake still holds the command its caller left")
	}

	f.srv.StopOutOfBand(sb.ID)
	_, err = f.p.Exec(ctx, sb.ID, platform.ExecSpec{Command: []string{"true"}, MaxOutput: 100})
	if err == nil || !strings.Contains(err.Error(), "is stopped on Daytona") || platform.IsNotFound(err) {
		t.Errorf("a stopped box: %v; want a refusal naming its state", err)
	}

	f.srv.DeleteSandboxOutOfBand(sb.ID)
	if _, err := f.p.Exec(ctx, sb.ID, platform.ExecSpec{Command: []string{"true"}, MaxOutput: 100}); !platform.IsNotFound(err) {
		t.Errorf("a deleted box: %v; want platform.NotFoundError", err)
	}
}

// The fake's toolbox answers a box that is not started with an error
// (the client checks the state first, so only a raw call sees it), and
// the deprecated API route is a violation.
func TestToolboxRefusesStoppedBox(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	sb := f.box(t, "", platform.SandboxSpec{Name: "box"})
	f.srv.StopOutOfBand(sb.ID)
	req, _ := http.NewRequest(http.MethodPost, f.srv.URL()+"/_fake/toolbox/"+sb.ID+"/process/execute",
		bytes.NewReader([]byte(`{"command":"true"}`)))
	req.Header.Set("Authorization", "Bearer "+testKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("execute in a stopped box: %s, want 400", resp.Status)
	}
}
