package docker

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Exec runs a command in a running box through the engine: its output,
// exit code, added environment and working directory; output past
// MaxOutput is cut; a paused box, a box that is gone and a command past its
// timeout are errors saying so, and an error never shows an env value.
func TestSandboxExec(t *testing.T) {
	t.Parallel()
	p := templateTestPlatform(t)
	tmpl := sandboxTestTemplate(t, p, "")
	sb := sandboxTestCreate(t, p, platform.SandboxSpec{TemplateID: tmpl.ID, State: platform.StateRunning,
		Env: map[string]string{"BOX_VAR": "from-the-box"}})
	const secret = "exec-secret-value-7d1"

	for _, tc := range []struct {
		name       string
		spec       platform.ExecSpec
		wantCode   int
		wantStdout string
		wantStderr string
		truncated  bool
	}{
		{name: "output and exit 0", spec: platform.ExecSpec{Command: []string{"/agent", "cat", "/data.txt"}},
			wantStdout: "data"},
		{name: "the box's environment", spec: platform.ExecSpec{Command: []string{"/agent", "env", "BOX_VAR"}},
			wantStdout: "from-the-box\n"},
		{name: "added environment", spec: platform.ExecSpec{Command: []string{"/agent", "env", "TOKEN"},
			Env: map[string]string{"TOKEN": secret}}, wantStdout: secret + "\n"},
		{name: "working directory", spec: platform.ExecSpec{Command: []string{"/agent", "pwd"}, WorkingDir: "/etc"},
			wantStdout: "/etc\n"},
		{name: "a failing command is a result", spec: platform.ExecSpec{Command: []string{"/agent", "exit", "3", "it broke"}},
			wantCode: 3, wantStderr: "it broke\n"},
		{name: "output past MaxOutput is cut", spec: platform.ExecSpec{Command: []string{"/agent", "cat", "/data.txt"}, MaxOutput: 2},
			wantStdout: "da", truncated: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.spec.MaxOutput == 0 {
				tc.spec.MaxOutput = 1 << 16
			}
			got, err := p.Exec(t.Context(), sb.ID, tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			if got.ExitCode != tc.wantCode || string(got.Stdout) != tc.wantStdout || string(got.Stderr) != tc.wantStderr ||
				got.Truncated != tc.truncated {
				t.Errorf("exit %d, stdout %q, stderr %q, truncated %v; want %d, %q, %q, %v", got.ExitCode, got.Stdout, got.Stderr,
					got.Truncated, tc.wantCode, tc.wantStdout, tc.wantStderr, tc.truncated)
			}
		})
	}

	t.Run("a program that does not exist", func(t *testing.T) {
		// As docker exec: the engine runs nothing and reports 126 or 127,
		// with its reason as output.
		got, err := p.Exec(t.Context(), sb.ID, platform.ExecSpec{Command: []string{"/no/such/program"}, MaxOutput: 1024,
			Env: map[string]string{"TOKEN": secret}})
		if err != nil {
			t.Fatal(err)
		}
		out := string(got.Stdout) + string(got.Stderr)
		if (got.ExitCode != 126 && got.ExitCode != 127) || !strings.Contains(out, "/no/such/program") {
			t.Errorf("exit %d, output %q; want 126 or 127 naming the program", got.ExitCode, out)
		}
		if strings.Contains(out, secret) {
			t.Errorf("the engine's message shows an env value: %q", out)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		// The deadline passes once the command runs, not at a fixed time,
		// which a slow machine could reach before the command started.
		ctx := clock.NewDeadline(t.Context())
		ctx.PassWhen(func() bool { return execTestRunning(p, sb.ID) })
		// The agent without arguments runs until signalled.
		_, err := p.Exec(ctx, sb.ID, platform.ExecSpec{Command: []string{"/agent"}, Timeout: 500 * time.Millisecond, MaxOutput: 1024})
		var timeout *platform.ExecTimeoutError
		if !errors.As(err, &timeout) || !strings.Contains(err.Error(), "goes on running in the box") {
			t.Fatalf("err %v, want an ExecTimeoutError saying the command goes on", err)
		}
		if !execTestRunning(p, sb.ID) {
			t.Error("the command past its deadline no longer runs in the box")
		}
	})
	t.Run("a paused box", func(t *testing.T) {
		if _, err := p.Sandboxes().SetState(t.Context(), sb.ID, platform.StatePaused); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _, _ = p.Sandboxes().SetState(context.Background(), sb.ID, platform.StateRunning) })
		_, err := p.Exec(t.Context(), sb.ID, platform.ExecSpec{Command: []string{"/agent", "pwd"}, MaxOutput: 1024})
		if err == nil || !strings.Contains(err.Error(), "is not running") {
			t.Fatalf("err %v, want one saying the box is not running", err)
		}
	})
	t.Run("a box that is gone", func(t *testing.T) {
		_, err := p.Exec(t.Context(), "sbx-no-such-box-"+templateTestName("gone"), platform.ExecSpec{Command: []string{"/agent", "pwd"}, MaxOutput: 1024})
		if !platform.IsNotFound(err) {
			t.Fatalf("err %v, want not found", err)
		}
	})
}

// execTestRunning reports whether the engine says an exec runs in box id.
func execTestRunning(p *Platform, id string) bool {
	ctx := context.Background()
	box, err := p.api.ContainerInspect(ctx, id)
	if err != nil {
		return false
	}
	return slices.ContainsFunc(box.ExecIDs, func(exec string) bool {
		e, err := p.api.ContainerExecInspect(ctx, exec)
		return err == nil && e.Running
	})
}
