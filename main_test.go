package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMain lets the test binary act as terraform-provider-sbx itself when
// the tests below re-run it, so the real main() dispatch is what they check.
func TestMain(m *testing.M) {
	if os.Getenv("SBX_MAIN_TEST_RUN_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestMainDispatchesDrift(t *testing.T) {
	cases := []struct {
		name     string
		stdin    string
		args     []string
		wantCode int
		wantOut  string
		wantErr  string
	}{
		{"expired box exits 2", `{"version":4,"resources":[{"mode":"managed","type":"sbx_sandbox","name":"a","instances":[{"attributes":{"id":"c1","expires_at":"2026-01-01T00:00:00Z"}}]}]}`,
			[]string{"drift", "--now", "2026-05-01T12:00:00Z", "-"}, 2, "sbx_sandbox.a", ""},
		{"clean state exits 0", `{"version":4,"resources":[]}`, []string{"drift", "-"}, 0, "0 expired", ""},
		{"bad input exits 1", `{"version":4,"resources":[`, []string{"drift", "-"}, 1, "", "truncated JSON"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], c.args...)
			cmd.Env = append(os.Environ(), "SBX_MAIN_TEST_RUN_MAIN=1")
			cmd.Stdin = strings.NewReader(c.stdin)
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
			if code != c.wantCode || !strings.Contains(out.String(), c.wantOut) || !strings.Contains(errb.String(), c.wantErr) {
				t.Errorf("exit %d (want %d)\nstdout: %s\nstderr: %s", code, c.wantCode, out.String(), errb.String())
			}
		})
	}
}
