package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docker/docker/api/types/events"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	sbxacctest "github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// sandboxExecActionHCL is a template, a running box, and the exec action
// running the agent with args in it (extra lines in its config), given a
// sensitive token through env.
func sandboxExecActionHCL(t *testing.T, name, args, extra string) string {
	return sandboxAccTemplateHCL(t, name) + fmt.Sprintf(`
variable "token" {
  type      = string
  sensitive = true
}

resource "sbx_sandbox" "box" {
  name        = %[1]q
  template_id = sbx_template.t.id
}

action "sbx_sandbox_exec" "run" {
  config {
    sandbox_id = sbx_sandbox.box.id
    command    = ["/agent", %[2]s]
    env        = { TOKEN = var.token }
%[3]s
  }
}
`, name, args, extra)
}

// The exec action runs the command in the box when invoked: its output is
// shown with env's values masked, env from a sensitive variable is hidden
// in the plan and in no state, a failing command fails the apply with its
// output, a command past its timeout fails it saying so, and the invocation
// changes no state. Arguments are checked at plan time.
func TestAccSandboxExecAction_docker(t *testing.T) {
	sbxacctest.SkipOnOpenTofu(t, "OpenTofu has no actions: Terraform ≥ 1.14 only")
	sbxacctest.SkipBelowTerraform(t, 1, 14)
	sbxacctest.RequireDocker(t)
	name := acctest.RandomWithPrefix("tf-acc-exec")
	secret := sbxacctest.Secret()
	s := sbxacctest.NewOtherState(t, New("test"))
	s.WriteFile("terraform.tfvars", fmt.Sprintf("token = %q\n", secret))
	invoke := func(args, extra string) (string, error) {
		t.Helper()
		s.WriteFile("main.tf", sandboxExecActionHCL(t, name, args, extra))
		return s.Run("apply", "-auto-approve", "-input=false", "-no-color", "-invoke=action.sbx_sandbox_exec.run")
	}

	// Triggered after the box's create: the box is up when it runs.
	created := strings.Replace(sandboxExecActionHCL(t, name, `"ls", "/"`, ""), `  template_id = sbx_template.t.id
}`, `  template_id = sbx_template.t.id
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.sbx_sandbox_exec.run]
    }
  }
}`, 1)
	out, err := s.TryApply(created)
	if err != nil || !strings.Contains(out, "(triggered by sbx_sandbox.box): stdout:\n") || !strings.Contains(out, "\nagent\n") {
		t.Fatalf("the box's create did not run the command after it (%v):\n%s", err, out)
	}

	// By hand, with env's value masked in what is shown.
	out, err = invoke(`"env", "TOKEN"`, "")
	t.Logf("terraform apply -invoke:\n%s", out)
	if err != nil {
		t.Fatalf("invoking the exec action: %v\n%s", err, out)
	}
	if strings.Contains(out, secret) {
		t.Fatal("the invocation's output shows env's value")
	}
	if !strings.Contains(out, "stdout:\n***") || !strings.Contains(out, "Exited with code 0") {
		t.Errorf("the output is not the masked value and exit 0:\n%s", out)
	}
	if out, err := s.Run("plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
		t.Fatalf("the plan after the invocation is not empty (%v):\n%s", err, out)
	}
	// The plan of an invocation hides env's value.
	if out, err := s.Run("plan", "-input=false", "-no-color", "-invoke=action.sbx_sandbox_exec.run"); err != nil ||
		strings.Contains(out, secret) || !strings.Contains(out, "sensitive value") {
		t.Fatalf("the invocation's plan (%v) shows env's value or does not say it is sensitive:\n%s", err, out)
	}
	state, _ := os.ReadFile(filepath.Join(s.Dir(), "terraform.tfstate"))
	if strings.Contains(string(state), secret) {
		t.Error("the state holds env's value")
	}

	// A failing command fails the apply with its output and exit code;
	// listed in success_exit_codes it does not.
	out, err = invoke(`"exit", "3", "it broke"`, "")
	if err == nil || !strings.Contains(out, "exited with code 3") || !strings.Contains(out, "it broke") {
		t.Fatalf("a command exiting 3: %v, want a failed apply naming the code and the output:\n%s", err, out)
	}
	out, err = invoke(`"exit", "3", "it broke"`, "    success_exit_codes = [0, 3]")
	if err != nil || !strings.Contains(out, "Exited with code 3") {
		t.Fatalf("exit 3 listed in success_exit_codes: %v\n%s", err, out)
	}
	// Past its timeout: the apply fails saying so, and the command goes on
	// in the box, as the docs say of Docker: the engine reports it ending
	// later on its own, exit 0 after sleeping longer than the timeout,
	// where a command stopped at the timeout would not exit 0. The test
	// waits for that end: a box destroyed while an exec still runs in it is
	// at the mercy of the engine's races between the exit of its processes.
	// The timeout passes after the command has started (ten seconds, far
	// more than starting it takes a machine ten times slower), and the
	// command outlasts it, however late it started.
	cmd := []string{"/agent", "sleep", "12s"}
	ended := execAccWatch(t, s.StateIDs("sbx_sandbox")[0], cmd)
	s.WriteFile("main.tf", strings.Replace(sandboxExecActionHCL(t, name, `"exit", "0", "x"`, `    timeout = "10s"`),
		`["/agent", "exit", "0", "x"]`, `["/agent", "sleep", "12s"]`, 1))
	out, err = s.Run("apply", "-auto-approve", "-input=false", "-no-color", "-invoke=action.sbx_sandbox_exec.run")
	if err == nil || !strings.Contains(out, "did not end within 10s") {
		t.Fatalf("a command past its timeout: %v, want a failed apply saying so:\n%s", err, out)
	}
	if code := ended(); code != "0" {
		t.Errorf("the command past its timeout (%v) exited with code %s, want 0: it was not left to run its course", cmd, code)
	}

	// Refused before anything runs: a relative working_dir, an empty program,
	// a code that is not a whole number.
	for _, c := range []struct{ args, extra, want string }{
		{`"pwd"`, `    working_dir = "relative"`, `working_dir = "relative": give an absolute path`},
		{`"pwd"`, `    success_exit_codes = []`, `success_exit_codes`},
		{`"pwd"`, `    success_exit_codes = [0, 1.5]`,
			`success_exit_codes[1] = 1.5 is not a whole number: success_exit_codes[1] takes whole numbers only. Round it down to 1 or up to 2.`},
	} {
		s.WriteFile("main.tf", sandboxExecActionHCL(t, name, c.args, c.extra))
		out, err := s.Run("plan", "-input=false", "-no-color", "-invoke=action.sbx_sandbox_exec.run")
		// Terraform wraps long messages: compare with whitespace collapsed.
		if err == nil || !strings.Contains(strings.Join(strings.Fields(out), " "), c.want) {
			t.Errorf("plan -invoke with %s: %v, want an error saying %q:\n%s", c.extra, err, c.want, out)
		}
	}
	// Back to a configuration the test's destroy can read.
	s.WriteFile("main.tf", sandboxExecActionHCL(t, name, `"pwd"`, ""))
}

// execAccWatch watches the engine's events about box boxID, and returns
// once the watch is live. ended waits until cmd, run by exec in the box
// after that, has ended, and returns its exit code. The watch lasts as
// long as the test, however slow the apply that runs cmd; only each wait
// for an event is bounded, by clock.Patience (acctest.WatchDockerEvents).
// ended asks after that apply, when cmd has at most the 12 seconds it
// sleeps left to run: Patience is ten times that.
func execAccWatch(t *testing.T, boxID string, cmd []string) (ended func() string) {
	t.Helper()
	watch := sbxacctest.WatchDockerEvents(t, sbxacctest.DockerClient(t), boxID)
	return func() string {
		t.Helper()
		started := string(events.ActionExecStart) + ": " + strings.Join(cmd, " ")
		var id string
		for {
			m := watch.Next()
			switch {
			case string(m.Action) == started:
				id = m.Actor.Attributes["execID"]
			case m.Action == events.ActionExecDie && id != "" && m.Actor.Attributes["execID"] == id:
				return m.Actor.Attributes["exitCode"]
			}
		}
	}
}
