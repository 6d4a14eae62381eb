package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMainDispatchesOrphans: `orphans` runs the orphans command (bad
// invocations exit 1 before any platform is reached, --help exits 0),
// never the provider server.
func TestMainDispatchesOrphans(t *testing.T) {
	cases := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"help", []string{"orphans", "--help"}, 0, "Usage: terraform-provider-sbx orphans"},
		{"no state", []string{"orphans", "--owner", "ci"}, 1, "orphans: no state given"},
		{"bad state on stdin", []string{"orphans", "--owner", "ci", "-"}, 1, "standard input: truncated JSON"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], c.args...)
			cmd.Env = append(os.Environ(), "SBX_MAIN_TEST_RUN_MAIN=1")
			cmd.Stdin = strings.NewReader(`{"version":4,"resources":[`)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != c.wantCode || !strings.Contains(errb.String(), c.wantErr) {
				t.Errorf("exit %d (want %d)\nstdout: %s\nstderr: %s", code, c.wantCode, out.String(), errb.String())
			}
		})
	}
}
