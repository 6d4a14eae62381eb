package orphans

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/docker"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b"
)

// runResult is one run of the command.
type runResult struct {
	code           int
	stdout, stderr string
}

// run runs the command in-process with the given environment and stdin.
func run(t *testing.T, env map[string]string, stdin string, args ...string) runResult {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(context.Background(), args, Env{
		Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return env[k] }, Version: "test",
		Platforms: []platform.Definition{docker.Definition(), e2b.Definition()},
	})
	return runResult{code: code, stdout: out.String(), stderr: errb.String()}
}

// jsonReportOf decodes a --format json report.
func jsonReportOf(t *testing.T, r runResult) jsonReport {
	t.Helper()
	var rep jsonReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("report is not JSON (%v):\n%s\nstderr:\n%s", err, r.stdout, r.stderr)
	}
	return rep
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMainRefusesBadInvocations: bad flags and bad states exit 1 with a
// message, before any platform is asked anything (the Docker host given
// here does not exist); --help exits 0 with the usage.
func TestMainRefusesBadInvocations(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.tfstate", `{"version":4,"resources":[]}`)
	bad := writeFile(t, dir, "bad.tfstate", `{"version":4,"resources":[`)
	noEngine := map[string]string{"DOCKER_HOST": "unix://" + filepath.Join(dir, "no.sock")}
	cases := []struct {
		name    string
		args    []string
		wantErr string
		env     map[string]string // nil: noEngine
	}{
		{"no state", []string{"--owner", "ci"}, "no state given", nil},
		{"stdin twice", []string{"-", "--state", "-"}, "- (standard input) is given 2 times", nil},
		{"bad format", []string{"--format", "yaml", good}, `invalid --format "yaml"`, nil},
		{"bad platform", []string{"--platform", "fly", good}, `invalid --platform "fly": use docker or e2b`, nil},
		{"bad older-than", []string{"--older-than", "soon", good}, "invalid --older-than", nil},
		{"negative older-than", []string{"--older-than", "-1h", good}, "must not be negative", nil},
		{"unknown flag", []string{"--force", good}, "flag provided but not defined: -force", nil},
		{"owner and owner prefix", []string{"--owner", "ci", "--owner-prefix", "sbx-live-", good}, "--owner and --owner-prefix are given together", nil},
		{"empty owner prefix", []string{"--owner-prefix=", good}, `invalid --owner-prefix ""`, nil},
		{"truncated state", []string{"--state", good, bad}, bad + ": truncated JSON", nil},
		{"missing state", []string{filepath.Join(dir, "none.tfstate")}, "cannot read", nil},
		// An empty file is no state, as Terraform reads it; an empty
		// pipe is a state pull that failed.
		{"empty standard input", []string{"-"}, "standard input: not a state file: the input is empty", nil},
		{"unreachable engine", []string{good}, "cannot reach the Docker engine", nil},
		{"e2b without a key", []string{"--platform", "e2b", good}, "No E2B API key: Set the E2B_API_KEY environment variable.", nil},
		// The environment is checked as the provider checks its block.
		{"bad E2B_API_URL", []string{"--platform", "e2b", good},
			`Unsupported E2B API URL: E2B_API_URL = "not a url" is not an absolute http(s) URL`,
			map[string]string{"E2B_API_KEY": "k", "E2B_API_URL": "not a url"}},
		{"bad DOCKER_HOST", []string{good}, `Unsupported Docker host: DOCKER_HOST = "ftp://x" uses the scheme "ftp://"`,
			map[string]string{"DOCKER_HOST": "ftp://x"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := c.env
			if env == nil {
				env = noEngine
			}
			r := run(t, env, "", c.args...)
			if r.code != ExitError || !strings.Contains(r.stderr, c.wantErr) || r.stdout != "" {
				t.Errorf("exit %d, want 1 with %q\nstdout: %s\nstderr: %s", r.code, c.wantErr, r.stdout, r.stderr)
			}
		})
	}
	r := run(t, noEngine, "", "--help")
	if r.code != ExitClean || !strings.Contains(r.stderr, "Usage: terraform-provider-sbx orphans") || !strings.Contains(r.stderr, "-older-than") {
		t.Errorf("--help: exit %d\n%s", r.code, r.stderr)
	}
}

// TestMainNotes: a state with no sbx resources, an empty state file (what
// a terraform killed while writing its local state leaves, and Terraform
// reads as no state), and states recording another platform than the one
// checked, are pointed out on standard error (here before the unreachable
// engine fails the run).
func TestMainNotes(t *testing.T) {
	dir := t.TempDir()
	e2bState := writeFile(t, dir, "e2b.tfstate", `{"version":4,"resources":[{"mode":"managed","type":"sbx_sandbox","name":"b",
	  "instances":[{"attributes":{"id":"i1","platform":"e2b"}}]}]}`)
	empty := writeFile(t, dir, "killed.tfstate", "")
	r := run(t, map[string]string{"DOCKER_HOST": "unix://" + filepath.Join(dir, "no.sock")}, `{"version":4}`, e2bState, empty, "-")
	for _, want := range []string{
		"orphans: note: standard input holds no sbx resources",
		"orphans: note: " + empty + " is empty, which Terraform reads as no state",
		"orphans: note: the states record 1 sandboxes or snapshots on e2b, and this run checks docker (--platform)",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "e2b.tfstate holds no") {
		t.Errorf("a state with a sandbox is said to hold none:\n%s", r.stderr)
	}
}
