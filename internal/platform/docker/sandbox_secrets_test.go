package docker

import (
	"errors"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// The engine refuses an env value with a NUL at start, quoting NAME=value
// whole (runc: `can't contain null(\x00): "API_TOKEN=..."`). The provider
// refuses such a value at plan time; should one reach the engine anyway,
// the error names the variable and masks its value, and the box that exists
// is returned for the caller to save.
func TestSandboxCreateErrorMasksEnvValues(t *testing.T) {
	t.Parallel()
	p := templateTestPlatform(t)
	tmpl := sandboxTestTemplate(t, p, "")
	name := templateTestName("box")
	sandboxTestCleanup(t, p.api, name)
	const secret = "Zq7-unique-SECRET-9x"
	sb, err := p.Sandboxes().Create(t.Context(), platform.SandboxSpec{
		Name: name, TemplateID: tmpl.ID, Env: map[string]string{"API_TOKEN": secret + "\x00tail", "LEVEL": "1"},
	})
	if err == nil {
		t.Fatal("the engine started a box with a NUL in its env")
	}
	if strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "tail") {
		t.Errorf("the error shows the env value: %v", err)
	}
	if !strings.Contains(err.Error(), "API_TOKEN=***") {
		t.Errorf("the error should name the variable, its value masked: %v", err)
	}
	if sb == nil || sb.ID == "" {
		t.Errorf("sandbox = %+v, want the box that exists", sb)
	}
}

// A box whose command exits at once fails the start with its exit code and
// last log lines, its env values masked in them (the agent quotes the
// AGENT_FILES it cannot read), on create and on a later start alike.
func TestSandboxExitAtOnceQuotesLogMasked(t *testing.T) {
	t.Parallel()
	p := templateTestPlatform(t)
	tmpl := sandboxTestTemplate(t, p, "")
	const secret = "no-separator-SECRET-4471"
	env := map[string]string{"AGENT_FILES": secret}
	check := func(what string, err error) {
		t.Helper()
		switch {
		case err == nil:
			t.Fatalf("%s: the box exited at once, and the start succeeded", what)
		case strings.Contains(err.Error(), "SECRET"):
			t.Errorf("%s: the error shows the env value: %v", what, err)
		case !strings.Contains(err.Error(), "its command exited with code 1 right after it started"),
			!strings.Contains(err.Error(), `AGENT_FILES entry "***" is not path=content`):
			t.Errorf("%s: error %v, want the exit code and the masked log line", what, err)
		}
		var se *startError
		if !errors.As(err, &se) {
			t.Errorf("%s: error %v is not a startError", what, err)
		}
	}

	name := templateTestName("box")
	sandboxTestCleanup(t, p.api, name)
	sb, err := p.Sandboxes().Create(t.Context(), platform.SandboxSpec{Name: name, TemplateID: tmpl.ID, Env: env})
	check("create", err)
	if sb == nil || sb.Status != platform.StateStopped {
		t.Errorf("sandbox = %+v, want the stopped box returned", sb)
	}

	stopped := sandboxTestCreate(t, p, platform.SandboxSpec{TemplateID: tmpl.ID, Env: env, State: platform.StateStopped})
	_, err = p.Sandboxes().SetState(t.Context(), stopped.ID, platform.StateRunning)
	check("start", err)
}
