package acctest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAgentContextDir checks the shared context holds the agent and its
// Dockerfile, and that a second lookup reuses the built context instead of
// building it again.
func TestAgentContextDir(t *testing.T) {
	dir := AgentContextDir(t)
	df, err := os.ReadFile(filepath.Join(dir, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	if string(df) != AgentDockerfile {
		t.Errorf("Dockerfile = %q, want %q", df, AgentDockerfile)
	}
	agent, err := os.Stat(filepath.Join(dir, "agent"))
	if err != nil {
		t.Fatal(err)
	}
	if agent.Size() == 0 || agent.Mode().Perm()&0o100 == 0 {
		t.Errorf("agent binary: size %d, mode %v; want a non-empty executable", agent.Size(), agent.Mode())
	}

	again, err := agentContext()
	if err != nil {
		t.Fatal(err)
	}
	if again != dir {
		t.Errorf("second lookup gave %s, want the same context %s", again, dir)
	}
	after, err := os.Stat(filepath.Join(again, "agent"))
	if err != nil {
		t.Fatal(err)
	}
	if !after.ModTime().Equal(agent.ModTime()) {
		t.Errorf("agent rebuilt on the second lookup (mtime %v, was %v)", after.ModTime(), agent.ModTime())
	}
}

// TestAgentContextKey checks the key follows the agent's inputs: stable for
// the same inputs, different when the build settings change.
func TestAgentContextKey(t *testing.T) {
	root := repoRoot()
	k1, err := agentContextKey(root)
	if err != nil {
		t.Fatal(err)
	}
	k2, err := agentContextKey(root)
	if err != nil {
		t.Fatal(err)
	}
	if k1 != k2 {
		t.Errorf("key changed between calls with the same inputs: %s, %s", k1, k2)
	}
	t.Setenv("GOFLAGS", "-tags=acctest_key_probe")
	k3, err := agentContextKey(root)
	if err != nil {
		t.Fatal(err)
	}
	if k3 == k1 {
		t.Errorf("key %s did not change with GOFLAGS", k1)
	}
}
