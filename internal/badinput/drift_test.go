package badinput_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/drift"
)

// driftRow is a bad input to `terraform-provider-sbx drift`: its arguments
// (a file named by the row is written first, its path put where {file}
// stands), its standard input, and what its error must say.
type driftRow struct {
	name  string
	file  *string // the state file's content, nil for none
	args  []string
	stdin string
	want  []string
}

func str(s string) *string { return &s }

func driftRows() []driftRow {
	box := `{"mode":"managed","type":"sbx_sandbox","name":"a","instances":[{"attributes":{"id":"c1","expires_at":%s}}]}`
	return []driftRow{
		{name: "missing_file", args: []string{"{dir}/absent.tfstate"},
			want: w("drift: cannot read {dir}/absent.tfstate: no such file or directory")},
		{name: "directory", args: []string{"{dir}"},
			want: w("drift: cannot read {dir}: it is a directory, want a state file")},
		{name: "not_json", file: str("hello\n"), args: []string{"{file}"},
			want: w("drift: {file}: not a state file: it does not start with a JSON object")},
		{name: "empty_file", file: str(""), args: []string{"{file}"},
			want: w("drift: {file}: not a state file: the input is empty")},
		{name: "binary", file: str("\x00\x01\x02\xff"), args: []string{"{file}"},
			want: w("drift: {file}: not a state file: it does not start with a JSON object", "found byte 0x00")},
		{name: "state_version_3", file: str(`{"version":3,"resources":[]}`), args: []string{"{file}"},
			want: w("drift: {file}: unsupported state version 3: drift reads state format version 4")},
		{name: "state_version_5", file: str(`{"version":5,"resources":[]}`), args: []string{"{file}"},
			want: w("drift: {file}: unsupported state version 5: drift reads state format version 4")},
		{name: "resources_object", file: str(`{"version":4,"resources":{}}`), args: []string{"{file}"},
			want: w(`drift: {file}: not a state file: "resources" is an object, want an array`)},
		{name: "expires_at_not_a_time", file: str(`{"version":4,"resources":[` + fmt.Sprintf(box, `"yesterday"`) + `]}`), args: []string{"{file}"},
			want: w(`drift: {file}: sbx_sandbox.a: expires_at "yesterday" is not an RFC 3339 time`)},
		{name: "expires_at_a_number", file: str(`{"version":4,"resources":[` + fmt.Sprintf(box, `17`) + `]}`), args: []string{"{file}"},
			want: w(`drift: {file}: sbx_sandbox.a: attribute expires_at is a number, want a string or null`)},
		{name: "truncated_stdin", args: []string{"-"}, stdin: `{"version":4,"resources":[`,
			want: w("drift: standard input", "truncated JSON")},
		{name: "bad_format", args: []string{"--format", "xml", "-"}, stdin: `{"version":4,"resources":[]}`,
			want: w(`drift: invalid --format "xml": use table or json`)},
		{name: "unknown_flag", args: []string{"--colour", "-"}, stdin: `{"version":4,"resources":[]}`,
			want: w("drift: flag provided but not defined: -colour")},
		{name: "bad_now", args: []string{"--now", "tomorrow", "-"}, stdin: `{"version":4,"resources":[]}`,
			want: w(`drift: invalid --now "tomorrow": want an RFC 3339 time such as 2026-05-01T12:00:00Z`)},
		{name: "bad_warn_before", args: []string{"--warn-before", "soon", "-"}, stdin: `{"version":4,"resources":[]}`,
			want: w(`drift: invalid --warn-before: invalid duration "soon": use a Go duration such as "72h" or "90m"`)},
		{name: "negative_warn_before", args: []string{"--warn-before", "-1h", "-"}, stdin: `{"version":4,"resources":[]}`,
			want: w(`drift: invalid --warn-before "-1h": must not be negative`)},
		{name: "no_state", args: nil,
			want: w("drift: missing STATE: give a state file, or - to read standard input")},
		{name: "two_states", args: []string{"a.tfstate", "b.tfstate"},
			want: w("drift: expected one STATE argument, got 2: a.tfstate b.tfstate")},
	}
}

// TestDriftBadInputs runs the drift command (drift.Main, what main.go
// runs for `terraform-provider-sbx drift`) on every bad input: it exits 1
// with an error naming the problem, prints no report, and does not panic.
func TestDriftBadInputs(t *testing.T) {
	t.Parallel()
	for _, r := range driftRows() {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			file := filepath.Join(dir, "state.json")
			if r.file != nil {
				if err := os.WriteFile(file, []byte(*r.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			expand := strings.NewReplacer("{file}", file, "{dir}", dir)
			args := make([]string, len(r.args))
			for i, a := range r.args {
				args[i] = expand.Replace(a)
			}
			want := make([]string, len(r.want))
			for i, p := range r.want {
				want[i] = expand.Replace(p)
			}
			code, stdout, stderr, panicked := runDrift(args, r.stdin)
			if panicked != nil {
				t.Fatalf("drift %s panicked: %v", strings.Join(args, " "), panicked)
			}
			if code != drift.ExitError {
				t.Errorf("drift %s exited %d, want %d (bad input)\nstdout: %s\nstderr: %s",
					strings.Join(args, " "), code, drift.ExitError, stdout, stderr)
			}
			if !wantPattern(want).MatchString(stderr) {
				t.Errorf("drift %s: the error does not say %q:\n%s", strings.Join(args, " "), want, stderr)
			}
			if stdout != "" {
				t.Errorf("drift %s printed a report for a bad input:\n%s", strings.Join(args, " "), stdout)
			}
		})
	}
}

// runDrift runs the drift command in-process on a fixed clock.
func runDrift(args []string, stdin string) (code int, stdout, stderr string, panicked any) {
	var out, errb bytes.Buffer
	defer func() {
		if p := recover(); p != nil {
			panicked = p
		}
	}()
	clock := clock.NewFake(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	code = drift.Main(args, strings.NewReader(stdin), &out, &errb, clock)
	return code, out.String(), errb.String(), nil
}
