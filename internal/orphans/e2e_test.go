package orphans

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestOrphansE2E is the scenario of a killed apply, through the terraform
// CLI and the built provider binary. A configuration whose provider block
// sets owner applies a template and three unnamed sandboxes. One more
// sandbox is then made with the same marks outside the state, as an apply
// killed mid-create leaves it: the plan is empty, yet the box exists.
// `orphans --owner <owner> --state terraform.tfstate` lists exactly that
// box (so does `terraform state pull | orphans --owner <owner> -`),
// destroying the configuration fails at the template the box still runs;
// `--delete` removes the box and nothing else, a second run finds nothing,
// and the destroy then completes.
func TestOrphansE2E(t *testing.T) {
	t.Parallel() // its objects carry owners of its own: the engine and other runs may hold others
	p, api := needDocker(t)
	tf := acctest.RequireTerraform(t)
	e := newE2E(t, tf)
	sfx := randomSuffix(t)
	owner, name := "orphans-e2e-"+sfx, "tf-acc-orphans-e2e-"+sfx
	e.write("main.tf", fmt.Sprintf(`terraform {
  required_providers {
    sbx = { source = "sbxhq/sbx" }
  }
}

provider "sbx" {
  owner = %[1]q
}

resource "sbx_template" "t" {
  name        = %[2]q
  context_dir = %[3]q
  dockerfile  = <<-EOT
%[4]sEOT
}

resource "sbx_sandbox" "box" {
  count       = 3
  template_id = sbx_template.t.id
}
`, owner, name, acctest.AgentContextDir(t), acctest.AgentDockerfile))

	destroyed := false
	t.Cleanup(func() {
		if !destroyed {
			e.terraform("destroy", "-auto-approve", "-input=false", "-no-color")
		}
	})
	if out, code := e.terraform("apply", "-auto-approve", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("terraform apply: exit %d:\n%s", code, out)
	}
	stateFile := filepath.Join(e.dir, "terraform.tfstate")

	// What a killed apply leaves: a box with this configuration's marks
	// (its owner, a create token of its own) that no state records.
	left, err := p.Sandboxes().Create(context.Background(), platform.SandboxSpec{
		TemplateID: "sbx/" + name + ":latest", State: platform.StateRunning, Marks: platform.NewMarks(owner),
	})
	if left != nil {
		t.Cleanup(func() { _ = p.Sandboxes().Delete(context.Background(), left.ID) })
	}
	if err != nil {
		t.Fatalf("the leftover box: %v", err)
	}
	if out, code := e.terraform("plan", "-input=false", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Fatalf("plan: exit %d, want 0 (the leftover is invisible to Terraform):\n%s", code, out)
	}

	pulled, code := e.terraform("state", "pull")
	if code != 0 {
		t.Fatalf("terraform state pull: exit %d:\n%s", code, pulled)
	}
	for _, in := range []struct {
		name  string
		stdin []byte
		args  []string
	}{
		{"state file", nil, []string{"--state", stateFile}},
		{"state pull on stdin", pulled, []string{"-"}},
	} {
		t.Run(in.name, func(t *testing.T) {
			out, stderr, code := e.orphans(in.stdin, append([]string{"--owner", owner, "--format", "json"}, in.args...)...)
			if code != ExitOrphans {
				t.Fatalf("exit %d, want 2\n%s\n%s", code, out, stderr)
			}
			var rep jsonReport
			if err := json.Unmarshal(out, &rep); err != nil {
				t.Fatalf("report is not JSON: %v\n%s", err, out)
			}
			if len(rep.Orphans) != 1 || rep.Orphans[0].ID != left.ID || rep.Orphans[0].Kind != "sandbox" || rep.Orphans[0].Owner != owner {
				t.Errorf("orphans = %+v, want only the leftover %s", rep.Orphans, left.ID)
			}
			// The template and the three boxes are held.
			if rep.Summary.Checked != 5 || rep.Summary.Held != 4 || len(rep.Kept) != 0 {
				t.Errorf("summary = %+v, kept %+v: want 5 checked, 4 held", rep.Summary, rep.Kept)
			}
		})
	}

	// The symptom: destroying the configuration fails at the
	// template, which the leftover box still runs.
	out, code := e.terraform("destroy", "-auto-approve", "-input=false", "-no-color")
	if code == 0 || !strings.Contains(string(out), "still in use") {
		t.Fatalf("terraform destroy with the leftover there: exit %d, want a failure at the template in use:\n%s", code, out)
	}

	// The state now holds only the template; the leftover is still the one orphan.
	out, stderr, code := e.orphans(nil, "--owner", owner, "--state", stateFile, "--all-states", "--delete")
	if code != ExitOrphans || !strings.Contains(string(out), left.ID[:12]) || !strings.Contains(string(out), "removed") ||
		!strings.Contains(string(out), "1 orphan of 2 objects checked on docker") ||
		!strings.Contains(string(out), "Removed 1, 0 already gone, 0 could not be removed.") {
		t.Fatalf("--delete: exit %d, want 2 and the leftover removed\n%s\n%s", code, out, stderr)
	}
	if _, err := api.ContainerInspect(context.Background(), left.ID); err == nil {
		t.Errorf("the leftover %s is still there", left.ID)
	}
	out, stderr, code = e.orphans(nil, "--owner", owner, "--state", stateFile)
	if code != ExitClean || !strings.Contains(string(out), "0 orphans of 1 object checked on docker") {
		t.Errorf("after --delete: exit %d, want 0\n%s\n%s", code, out, stderr)
	}
	out, code = e.terraform("destroy", "-auto-approve", "-input=false", "-no-color")
	destroyed = code == 0
	if !destroyed {
		t.Fatalf("terraform destroy after --delete: exit %d:\n%s", code, out)
	}
}

// e2e is one working directory with the built provider installed through
// a dev_overrides CLI configuration.
type e2e struct {
	t   *testing.T
	tf  string
	bin string
	dir string
	env []string
}

func newE2E(t *testing.T, tf string) *e2e {
	t.Helper()
	bin, env := acctest.ProviderBinary(t)
	return &e2e{t: t, tf: tf, bin: bin, dir: t.TempDir(), env: env}
}

func (e *e2e) write(name, content string) {
	e.t.Helper()
	if err := os.WriteFile(filepath.Join(e.dir, name), []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// terraform runs the CLI in the working directory and returns its stdout
// (stderr appended when it fails) and exit code.
func (e *e2e) terraform(args ...string) ([]byte, int) {
	e.t.Helper()
	cmd := exec.Command(e.tf, args...)
	cmd.Dir, cmd.Env = e.dir, e.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	code := e.exitCode(cmd.Run())
	if code != 0 {
		stdout.Write(stderr.Bytes())
	}
	return stdout.Bytes(), code
}

// orphans runs the built binary's orphans subcommand.
func (e *e2e) orphans(stdin []byte, args ...string) (stdout, stderr []byte, code int) {
	e.t.Helper()
	cmd := exec.Command(e.bin, append([]string{"orphans"}, args...)...)
	cmd.Dir, cmd.Env = e.dir, e.env
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	code = e.exitCode(cmd.Run())
	return out.Bytes(), errb.Bytes(), code
}

func (e *e2e) exitCode(err error) int {
	e.t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	e.t.Fatalf("running a command: %v", err)
	return -1
}
