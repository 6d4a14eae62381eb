package docker

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// sshTestFake puts a stand-in ssh client first on PATH: it records its
// arguments, one a line, in the file returned, then runs script.
func sshTestFake(t *testing.T, script string) string {
	t.Helper()
	dir := t.TempDir()
	args := filepath.Join(dir, "args")
	prog := "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + args + "'\n" + script + "\n"
	if err := os.WriteFile(filepath.Join(dir, sshProgram), []byte(prog), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return args
}

func TestParseSSHHost(t *testing.T) {
	cases := []struct{ host, args, err string }{
		{"ssh://build-host", "-o BatchMode=yes -T -- build-host docker system dial-stdio", ""},
		{"ssh://dev@build-host:2222", "-o BatchMode=yes -T -l dev -p 2222 -- build-host docker system dial-stdio", ""},
		{"ssh://dev@build-host/run/user/1000/docker.sock", "-o BatchMode=yes -T -l dev -- build-host docker --host unix:///run/user/1000/docker.sock system dial-stdio", ""},
		{"ssh://dev:hunter2@build-host", "", "never a password"},
		{"ssh://-oProxyCommand=x", "", "needs a host"},
		{"ssh://dev@build-host?x=1", "", "query"},
	}
	for _, tc := range cases {
		target, err := parseSSHHost(tc.host)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("parseSSHHost(%q) = %v, want an error containing %q", tc.host, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("parseSSHHost(%q) = %v", tc.host, err)
		case tc.err == "" && strings.Join(target.args(), " ") != tc.args:
			t.Errorf("ssh %s, want ssh %s", strings.Join(target.args(), " "), tc.args)
		}
	}
}

// An ssh:// engine is reached through the ssh client and the docker command
// line on the far side (`docker system dial-stdio`), as the docker command
// line does it; here a stand-in ssh runs dial-stdio against the local engine.
func TestNewOverSSH(t *testing.T) {
	acctest.RequireDocker(t) // the engine behind the stand-in
	if _, err := exec.LookPath("docker"); err != nil {
		t.Skip("needs the docker command line, whose dial-stdio stands in for the remote host")
	}
	args := sshTestFake(t, "exec docker system dial-stdio")
	p, err := New(t.Context(), Config{Host: "ssh://tester@build-host:2222"})
	if err != nil {
		t.Fatalf("New over ssh: %v", err)
	}
	defer func() { _ = p.Close() }()
	if _, err := p.Sandboxes().List(t.Context(), platform.SandboxFilter{}); err != nil {
		t.Fatalf("listing sandboxes over ssh: %v", err)
	}
	got, err := os.ReadFile(args)
	if err != nil {
		t.Fatal(err)
	}
	if want := "-o BatchMode=yes -T -l tester -p 2222 -- build-host docker system dial-stdio"; strings.Join(strings.Fields(string(got)), " ") != want {
		t.Errorf("ssh was run as ssh %s, want ssh %s", strings.Join(strings.Fields(string(got)), " "), want)
	}
}

// When the ssh client fails, the error says so in its own words.
func TestNewOverSSHFails(t *testing.T) {
	sshTestFake(t, "echo 'tester@build-host: Permission denied (publickey).' >&2\nexit 255")
	_, err := New(t.Context(), Config{Host: "ssh://tester@build-host"})
	if err == nil || !strings.Contains(err.Error(), "ssh to ssh://tester@build-host: tester@build-host: Permission denied (publickey).") {
		t.Errorf("error = %v, want the ssh client's complaint", err)
	}
}
