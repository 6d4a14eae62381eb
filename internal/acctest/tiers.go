package acctest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/docker/docker/client"
)

// The test tiers. A test that needs something outside the Go toolchain says
// so first thing, through RequireTerraform or RequireDocker, and runs only
// in the tiers that provide it; everywhere else it is skipped with a message
// naming what it needs and which make target runs it.
//
//	make testunit   no TF_ACC: needs neither a Docker engine nor the terraform CLI
//	make test-e2b   TF_ACC=1 SBX_ACC_SKIP_DOCKER=1: the terraform CLI against the
//	                E2B fake and the in-process fakes; no Docker engine
//	make test       TF_ACC=1: everything (the terraform CLI and a Docker engine)
//
// RequirePostgres (postgres.go) is the same for PostgreSQL's server binaries:
// skipped without them and without TF_ACC, failed without them under TF_ACC.
//
// Under TF_ACC a missing requirement fails the test instead of skipping it:
// the acceptance tiers exist to run against the real thing.
const (
	// AccEnv is the variable that turns on the acceptance tiers, as it does
	// for terraform-plugin-testing's resource.Test.
	AccEnv = "TF_ACC"
	// SkipDockerEnv, set to any value beside TF_ACC, skips the tests that
	// need a Docker engine: the tier of make test-e2b.
	SkipDockerEnv = "SBX_ACC_SKIP_DOCKER"
	// TerraformPathEnv names the terraform CLI to use, as it does for
	// terraform-plugin-testing; else terraform is looked up on PATH.
	TerraformPathEnv = "TF_ACC_TERRAFORM_PATH"
)

// RequireTerraform skips the test unless TF_ACC is set, and returns the
// terraform CLI the test is to run: TF_ACC_TERRAFORM_PATH, else terraform
// on PATH. With TF_ACC set and no CLI found, the test fails.
//
// Tests driving resource.Test get the TF_ACC gate from it too; call
// RequireTerraform first when the test needs the CLI before that (a second
// working directory, a built provider binary), or to say what it needs.
func RequireTerraform(t testing.TB) string {
	t.Helper()
	if os.Getenv(AccEnv) == "" {
		t.Skip("needs the terraform CLI: runs only with TF_ACC set (make test-e2b, make test)")
	}
	if p := os.Getenv(TerraformPathEnv); p != "" {
		if fi, err := os.Stat(p); err != nil || fi.IsDir() {
			t.Fatalf("%s=%s is not the terraform CLI (%v)", TerraformPathEnv, p, err)
		}
		return p
	}
	p, err := exec.LookPath("terraform")
	if err != nil {
		t.Fatalf("%s is set, but the terraform CLI is not on PATH (nor named by %s): install Terraform ≥ 1.11", AccEnv, TerraformPathEnv)
	}
	return p
}

// RequireDocker skips the test unless TF_ACC is set and SBX_ACC_SKIP_DOCKER
// is not, and returns a client for the engine the tests run against
// (DOCKER_HOST or the local socket). With TF_ACC set and no engine
// answering, the test fails: start dockerd, or run .ci/run.
func RequireDocker(t testing.TB) *client.Client {
	t.Helper()
	if os.Getenv(AccEnv) == "" {
		t.Skip("needs a Docker engine: runs only with TF_ACC set (make test)")
	}
	if os.Getenv(SkipDockerEnv) != "" {
		t.Skipf("needs a Docker engine: %s is set (make test-e2b); make test runs it", SkipDockerEnv)
	}
	c, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		t.Fatalf("docker client: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if _, err := c.Ping(context.Background()); err != nil {
		t.Fatalf("%s", dockerUnreachable(c.DaemonHost(), err))
	}
	return c
}

// DockerClient is RequireDocker under the name check functions use: every
// use of the engine goes through the same tier rule, so a test that reaches
// for the engine without declaring it first still skips in the unit tier
// instead of failing.
func DockerClient(t testing.TB) *client.Client {
	t.Helper()
	return RequireDocker(t)
}

func dockerUnreachable(host string, err error) string {
	return fmt.Sprintf("the Docker engine at %s is not reachable (start dockerd, or run .ci/run; "+
		"%s=1 runs the tests that need no engine): %v", host, SkipDockerEnv, err)
}
