package drift_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// TestDriftE2E runs the detector on states written by real applies: the
// provider binary is built and installed through a dev_overrides CLI
// configuration, the terraform CLI applies a template, a sandbox with a
// one-hour timeout and a snapshot on the local Docker engine, and the
// built binary's `drift` subcommand reads the state file, `terraform state
// pull` on standard input and `terraform show -json`, judged before the
// deadline, within --warn-before and after it.
func TestDriftE2E(t *testing.T) {
	acctest.RequireDocker(t)
	tf := acctest.RequireTerraform(t)

	e := driftE2ESetup(t, tf)
	e.apply()

	// An apply must leave nothing to change.
	if out, code := e.terraform("plan", "-input=false", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Fatalf("plan after apply: exit %d, want 0 (no changes):\n%s", code, out)
	}

	showJSON, code := e.terraform("show", "-json")
	if code != 0 {
		t.Fatalf("terraform show -json: exit %d:\n%s", code, showJSON)
	}
	pulled, code := e.terraform("state", "pull")
	if code != 0 {
		t.Fatalf("terraform state pull: exit %d:\n%s", code, pulled)
	}
	box := driftE2EResource(t, showJSON, "sbx_sandbox.box")
	// Docker snapshots never expire: the snapshot is checked and has no deadline.
	if v := driftE2EResource(t, showJSON, "sbx_snapshot.snap")["expires_at"]; v != nil {
		t.Fatalf("sbx_snapshot.snap expires_at = %v, want null on Docker", v)
	}

	// The recorded deadline is the timeout counted from the last start.
	started := driftE2ETime(t, box, "started_at")
	deadline := driftE2ETime(t, box, "expires_at")
	if !deadline.Equal(started.Add(time.Hour)) {
		t.Fatalf("sbx_sandbox.box expires_at = %s, want started_at + 1h = %s", deadline, started.Add(time.Hour))
	}
	// Recorded at apply time: the rule and what it does; the judgement
	// (expiring, expired) is drift's, at its --now.
	for k, want := range map[string]string{"platform": "docker", "retention_rule": "running_sandbox", "retention_action": "kill"} {
		if got, _ := box[k].(string); got != want {
			t.Errorf("sbx_sandbox.box %s = %q, want %q", k, got, want)
		}
	}
	boxID, _ := box["id"].(string)

	inputs := []struct {
		name, arg string
		stdin     []byte
		format    string
	}{
		{"tfstate file", filepath.Join(e.dir, "terraform.tfstate"), nil, "state"},
		{"state pull on stdin", "-", pulled, "state"},
		{"show -json file", e.write("show.json", showJSON), nil, "show-json"},
		{"show -json on stdin", "-", showJSON, "show-json"},
	}
	moments := []struct {
		name     string
		now      time.Time
		wantExit int
		// wantBox is the sandbox's retention status in the report; "" = not reported.
		wantBox string
	}{
		{"before the deadline", deadline.Add(-2 * time.Hour), 0, ""},
		{"within warn-before", deadline.Add(-10 * time.Minute), 0, "expiring"},
		{"after the deadline", deadline.Add(time.Minute), 2, "expired"},
	}
	for _, in := range inputs {
		for _, m := range moments {
			t.Run(in.name+"/"+m.name, func(t *testing.T) {
				out, stderr, code := e.drift(in.stdin, "--format", "json", "--now", m.now.Format(time.RFC3339), "--warn-before", "30m", in.arg)
				if code != m.wantExit {
					t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, m.wantExit, out, stderr)
				}
				var rep driftE2EReport
				if err := json.Unmarshal(out, &rep); err != nil {
					t.Fatalf("report is not JSON: %v\n%s", err, out)
				}
				if rep.InputFormat != in.format {
					t.Errorf("input_format = %q, want %q", rep.InputFormat, in.format)
				}
				// The template, the sandbox and the snapshot are checked; only the
				// sandbox has a deadline (Docker has no template rule).
				if rep.Summary.Checked != 3 || rep.Summary.NoDeadline != 2 {
					t.Errorf("summary %+v: want 3 checked, 2 without a deadline", rep.Summary)
				}
				if m.wantBox == "" {
					if len(rep.Findings) != 0 || rep.Summary.OK != 1 {
						t.Errorf("want no findings and 1 ok, got %+v / %+v", rep.Findings, rep.Summary)
					}
					return
				}
				if len(rep.Findings) != 1 {
					t.Fatalf("want exactly the sandbox reported, got %+v", rep.Findings)
				}
				want := driftE2EFinding{
					Address: "sbx_sandbox.box", Type: "sbx_sandbox", ID: boxID, Platform: "docker", Status: "running",
					ExpiresAt: deadline.UTC().Format(time.RFC3339), Rule: "running_sandbox", Action: "kill",
					RetentionStatus: m.wantBox, RecordedRetentionStatus: "", // a state saved since schema version 1 records none
					SecondsLeft: int64(deadline.Sub(m.now) / time.Second),
				}
				if got := rep.Findings[0]; got != want {
					t.Errorf("finding\n got %+v\nwant %+v", got, want)
				}
			})
		}
	}

	// The table, as a CI log shows it: one row naming the expired sandbox.
	t.Run("table after the deadline", func(t *testing.T) {
		out, stderr, code := e.drift(pulled, "--now", deadline.Add(time.Minute).Format(time.RFC3339), "--warn-before", "30m", "-")
		if code != 2 {
			t.Fatalf("exit %d, want 2\n%s\n%s", code, out, stderr)
		}
		var row string
		for _, line := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(line, "expired ") {
				row = line
			}
		}
		fields := strings.Fields(row)
		wantFields := []string{"expired", "sbx_sandbox.box", boxID, "docker", "running", deadline.UTC().Format(time.RFC3339), "1m", "ago", "running_sandbox", "kill"}
		if strings.Join(fields, " ") != strings.Join(wantFields, " ") {
			t.Errorf("expired row = %q, want the fields %q\n%s", row, wantFields, out)
		}
		if !strings.Contains(string(out), "1 expired, 0 expiring within 30m0s, of 3 sandboxes, snapshots and templates checked") {
			t.Errorf("summary line missing:\n%s", out)
		}
	})
}

type driftE2EReport struct {
	InputFormat string `json:"input_format"`
	Summary     struct {
		Checked    int `json:"checked"`
		Expired    int `json:"expired"`
		Expiring   int `json:"expiring"`
		OK         int `json:"ok"`
		NoDeadline int `json:"no_deadline"`
	} `json:"summary"`
	Findings []driftE2EFinding `json:"findings"`
}

type driftE2EFinding struct {
	Address                 string `json:"address"`
	Type                    string `json:"type"`
	ID                      string `json:"id"`
	Platform                string `json:"platform"`
	Status                  string `json:"status"`
	ExpiresAt               string `json:"expires_at"`
	SecondsLeft             int64  `json:"seconds_left"`
	Rule                    string `json:"rule"`
	Action                  string `json:"action"`
	RetentionStatus         string `json:"retention_status"`
	RecordedRetentionStatus string `json:"recorded_retention_status"`
}

// driftE2EEnv is one working directory with the built provider installed.
type driftE2EEnv struct {
	t      *testing.T
	tf     string
	bin    string
	dir    string
	env    []string
	name   string
	source string
}

func driftE2ESetup(t *testing.T, tf string) *driftE2EEnv {
	t.Helper()
	bin, env := acctest.ProviderBinary(t)

	suffix := make([]byte, 4)
	if _, err := rand.Read(suffix); err != nil {
		t.Fatal(err)
	}
	e := &driftE2EEnv{t: t, tf: tf, bin: bin, dir: t.TempDir(), env: env, name: "sbx-drift-e2e-" + hex.EncodeToString(suffix)}
	e.source = fmt.Sprintf(`terraform {
  required_providers {
    sbx = { source = "sbxhq/sbx" }
  }
}

provider "sbx" {}

resource "sbx_template" "t" {
  name        = %[1]q
  context_dir = %[2]q
  dockerfile  = <<-EOT
%[3]sEOT
}

resource "sbx_sandbox" "box" {
  name        = %[1]q
  template_id = sbx_template.t.id
  timeout     = "1h"
}

resource "sbx_snapshot" "snap" {
  sandbox_id = sbx_sandbox.box.id
  name       = %[1]q
}
`, e.name, acctest.AgentContextDir(t), acctest.AgentDockerfile)
	e.write("main.tf", []byte(e.source))
	return e
}

// apply applies the configuration and registers its destroy; the engine is
// then checked for leftovers by name.
func (e *driftE2EEnv) apply() {
	e.t.Helper()
	e.t.Cleanup(func() {
		if out, code := e.terraform("destroy", "-auto-approve", "-input=false", "-no-color"); code != 0 {
			e.t.Errorf("terraform destroy: exit %d:\n%s", code, out)
		}
		e.checkGone()
	})
	if out, code := e.terraform("apply", "-auto-approve", "-input=false", "-no-color"); code != 0 {
		e.t.Fatalf("terraform apply: exit %d:\n%s", code, out)
	}
}

// checkGone fails the test when the engine still holds the container
// the configuration made.
func (e *driftE2EEnv) checkGone() {
	list, err := acctest.DockerClient(e.t).ContainerList(context.Background(), container.ListOptions{
		All: true, Filters: filters.NewArgs(filters.Arg("name", "^/"+regexp.QuoteMeta(e.name)+"$")),
	})
	if err != nil {
		e.t.Errorf("listing containers after destroy: %v", err)
		return
	}
	if len(list) > 0 {
		e.t.Errorf("container %s (%s) still exists after destroy", e.name, list[0].ID)
	}
}

func (e *driftE2EEnv) write(name string, content []byte) string {
	e.t.Helper()
	p := filepath.Join(e.dir, name)
	if err := os.WriteFile(p, content, 0o644); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// terraform runs the CLI in the working directory and returns its stdout
// (stderr appended when it fails) and exit code.
func (e *driftE2EEnv) terraform(args ...string) ([]byte, int) {
	e.t.Helper()
	cmd := exec.Command(e.tf, args...)
	cmd.Dir = e.dir
	cmd.Env = e.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	code := driftE2ERun(e.t, cmd)
	if code != 0 {
		stdout.Write(stderr.Bytes())
	}
	return stdout.Bytes(), code
}

// drift runs the built binary's drift subcommand.
func (e *driftE2EEnv) drift(stdin []byte, args ...string) (stdout, stderr []byte, code int) {
	e.t.Helper()
	cmd := exec.Command(e.bin, append([]string{"drift"}, args...)...)
	cmd.Dir = e.dir
	cmd.Env = e.env
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	code = driftE2ERun(e.t, cmd)
	return out.Bytes(), errb.Bytes(), code
}

func driftE2ERun(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatalf("running %s: %v", cmd.Path, err)
	return -1
}

// driftE2EResource returns the attribute values of a root-module resource
// in `terraform show -json` output.
func driftE2EResource(t *testing.T, showJSON []byte, addr string) map[string]any {
	t.Helper()
	var doc struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string         `json:"address"`
					Values  map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal(showJSON, &doc); err != nil {
		t.Fatalf("terraform show -json: %v", err)
	}
	for _, r := range doc.Values.RootModule.Resources {
		if r.Address == addr {
			return r.Values
		}
	}
	t.Fatalf("%s is not in the state", addr)
	return nil
}

func driftE2ETime(t *testing.T, values map[string]any, key string) time.Time {
	t.Helper()
	s, _ := values[key].(string)
	at, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatalf("%s = %q: not an RFC 3339 time", key, s)
	}
	return at
}
