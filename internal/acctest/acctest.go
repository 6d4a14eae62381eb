// Package acctest holds what acceptance and conformance tests share: the
// test tiers (RequireTerraform, RequireDocker: what a test needs, and where
// it is skipped), a reachable Docker engine and a locally built sandbox
// image context, so no test needs an image registry; the provider served
// in-process to the terraform CLI (Factories, NoWaitHooks), a second
// working directory with its own state (OtherState), and the checks the
// provider's tests and the platforms' acceptance tests have in common
// (ErrorPattern, ResourceID, CaptureAttr; Secret, Without and the trace
// log checks for values that must be shown nowhere).
//
// It takes the provider as its constructor and never imports it, so the
// provider's own tests (package provider) use it as the platforms' do.
package acctest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/buildctx"
)

// AgentDockerfile builds the quickstart agent into an image FROM scratch.
const AgentDockerfile = "FROM scratch\nCOPY agent /agent\nCMD [\"/agent\"]\n"

var (
	agentOnce sync.Once
	agentDir  string
	agentErr  error
)

// AgentContextDir returns a build context holding a static build of
// examples/quickstart/agent and a Dockerfile (AgentDockerfile). Tests must
// not change it (copy it to a t.TempDir first).
//
// The context is shared by every test of the binary, by the test binaries of
// other packages running at the same time, and by later runs, so it cannot
// be a t.TempDir that ends with one test. It lives under os.TempDir in a
// directory named after everything the build depends on: an unchanged agent
// is built once, a changed one gets a new directory, and runs leave no new
// directory behind.
func AgentContextDir(t testing.TB) string {
	t.Helper()
	agentOnce.Do(func() { agentDir, agentErr = agentContext() })
	if agentErr != nil {
		t.Fatalf("building the sandbox agent: %v", agentErr)
	}
	return agentDir
}

// agentContext finds or builds the agent build context keyed by its inputs.
func agentContext() (string, error) {
	root := repoRoot()
	key, err := agentContextKey(root)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(os.TempDir(), "sbx-agent-context-"+key)
	if agentContextComplete(dir) {
		return dir, nil
	}
	// Build next to the final directory and rename it into place: the
	// rename is atomic, so a concurrent reader sees the whole context or
	// none, and of two racing builders the loser just uses the winner's.
	tmp := fmt.Sprintf("%s.tmp-%d-%d", dir, os.Getpid(), time.Now().UnixNano())
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return "", err
	}
	if err := buildAgentContext(root, tmp); err != nil {
		_ = os.RemoveAll(tmp) // best effort: a partial build is of no use
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		_ = os.RemoveAll(tmp) // best effort: ours is redundant either way
		if agentContextComplete(dir) {
			return dir, nil
		}
		return "", err
	}
	return dir, nil
}

// agentContextKey names what the built context depends on: the agent's
// source, the module file, the Dockerfile, the Go toolchain and the build
// settings taken from the environment.
func agentContextKey(root string) (string, error) {
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	inputs := strings.Join([]string{
		AgentDockerfile, string(mod), runtime.Version(), runtime.GOARCH,
		os.Getenv("GOARCH"), os.Getenv("GOFLAGS"),
	}, "\x00")
	sum, err := buildctx.Hash(filepath.Join(root, agentSource), inputs)
	if err != nil {
		return "", err
	}
	return sum[:16], nil
}

func agentContextComplete(dir string) bool {
	for _, name := range []string{"agent", "Dockerfile"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || !fi.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// agentSource is the agent's package directory, relative to the module root.
const agentSource = "examples/quickstart/agent"

func buildAgentContext(root, dir string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(dir, "agent"), "./"+agentSource)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
	if out, err := cmd.CombinedOutput(); err != nil {
		return &buildError{out: string(out), err: err}
	}
	return os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte(AgentDockerfile), 0o644)
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// repoRoot is the module root, found from this file's location.
func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}
