// Package acctest holds what acceptance and conformance tests share: a
// reachable Docker engine and a locally built sandbox image context, so no
// test needs an image registry.
package acctest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/docker/docker/client"
)

// AgentDockerfile builds the quickstart agent into an image FROM scratch.
const AgentDockerfile = "FROM scratch\nCOPY agent /agent\nCMD [\"/agent\"]\n"

var (
	agentOnce sync.Once
	agentDir  string
	agentErr  error
)

// AgentContextDir returns a build context holding a static build of
// examples/quickstart/agent and a Dockerfile (AgentDockerfile). It is built
// once per test binary.
func AgentContextDir(t testing.TB) string {
	t.Helper()
	agentOnce.Do(func() {
		agentDir, agentErr = os.MkdirTemp("", "sbx-agent-context-")
		if agentErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(agentDir, "agent"), "./examples/quickstart/agent")
		cmd.Dir = repoRoot()
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
		out, err := cmd.CombinedOutput()
		if err != nil {
			agentErr = &buildError{out: string(out), err: err}
			return
		}
		agentErr = os.WriteFile(filepath.Join(agentDir, "Dockerfile"), []byte(AgentDockerfile), 0o644)
	})
	if agentErr != nil {
		t.Fatalf("building the sandbox agent: %v", agentErr)
	}
	return agentDir
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

// DockerClient returns a client for the engine the tests run against
// (DOCKER_HOST or the local socket). A missing engine fails the test: the
// acceptance tests exist to run against a real one.
func DockerClient(t testing.TB) *client.Client {
	t.Helper()
	c, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		t.Fatalf("docker client: %v", err)
	}
	if _, err := c.Ping(context.Background()); err != nil {
		t.Fatalf("the Docker engine at %s is not reachable (start dockerd, or run .ci/run): %v", c.DaemonHost(), err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}
