package acctest

import (
	"os"
	"path/filepath"
	"testing"
)

// tierOutcome runs fn in a subtest and reports whether it was skipped.
// Only the paths that skip or succeed are exercised: a failing subtest
// would fail this test too.
func tierOutcome(t *testing.T, fn func(t *testing.T)) (skipped bool) {
	t.Helper()
	t.Run("probe", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		fn(t)
	})
	return skipped
}

// Without TF_ACC both requirements skip, whatever else is set: the unit
// tier never reaches for an engine or the CLI.
func TestRequireSkipsWithoutAcc(t *testing.T) {
	t.Setenv(AccEnv, "")
	t.Setenv(TerraformPathEnv, "/nonexistent/terraform")
	t.Setenv("DOCKER_HOST", "tcp://127.0.0.1:1")
	if !tierOutcome(t, func(t *testing.T) { RequireTerraform(t) }) {
		t.Error("RequireTerraform did not skip without TF_ACC")
	}
	if !tierOutcome(t, func(t *testing.T) { RequireDocker(t) }) {
		t.Error("RequireDocker did not skip without TF_ACC")
	}
	if !tierOutcome(t, func(t *testing.T) { DockerClient(t) }) {
		t.Error("DockerClient did not skip without TF_ACC")
	}
}

// The terraform-only tier (make test-e2b): Docker tests skip before any
// engine is dialled, the terraform CLI is the one TF_ACC_TERRAFORM_PATH names.
func TestRequireTerraformTier(t *testing.T) {
	cli := filepath.Join(t.TempDir(), "terraform")
	if err := os.WriteFile(cli, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(AccEnv, "1")
	t.Setenv(SkipDockerEnv, "1")
	t.Setenv(TerraformPathEnv, cli)
	t.Setenv("DOCKER_HOST", "tcp://127.0.0.1:1")
	if !tierOutcome(t, func(t *testing.T) { RequireDocker(t) }) {
		t.Error("RequireDocker did not skip with SBX_ACC_SKIP_DOCKER set")
	}
	var got string
	if tierOutcome(t, func(t *testing.T) { got = RequireTerraform(t) }) {
		t.Fatal("RequireTerraform skipped with TF_ACC set")
	}
	if got != cli {
		t.Errorf("RequireTerraform = %q, want %q", got, cli)
	}
}
