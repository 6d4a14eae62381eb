package acctest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

// The CLI matrix (make test-cli-matrix, scripts/acc-matrix.sh) runs the
// acceptance packages on more than one CLI: Terraform 1.11.4 (make test),
// Terraform 1.15.9 and OpenTofu 1.12.6. A feature a newer Terraform brings
// is gated with terraform-plugin-testing's tfversion checks
// (tfversion.SkipBelow), which compare version numbers only. OpenTofu
// reports its own version, so a Terraform feature OpenTofu lacks passes a
// SkipBelow(1.12) gate on OpenTofu 1.12.6: such a test also calls
// SkipOnOpenTofu, naming what OpenTofu lacks.

// openTofuCLI caches, per CLI path, whether that CLI is OpenTofu: the CLI is
// asked (`version`) once per test binary, not once per test.
var (
	openTofuMu  sync.Mutex
	openTofuCLI = map[string]bool{} // CLI path -> is OpenTofu
)

// SkipOnOpenTofu skips the test, with reason, when the CLI the acceptance
// tests run (TF_ACC_TERRAFORM_PATH, else terraform on PATH) is OpenTofu.
// The reason says which feature OpenTofu lacks; it is printed in the skip
// message, which the matrix summary lists. Without TF_ACC it does nothing:
// the test skips in its own tier check.
func SkipOnOpenTofu(t testing.TB, reason string) {
	t.Helper()
	if os.Getenv(AccEnv) == "" {
		return
	}
	if path, ok := IsOpenTofu(); ok {
		t.Skipf("skipped on OpenTofu (%s): %s", path, reason)
	}
}

// IsOpenTofu reports whether the CLI the acceptance tests run is OpenTofu,
// and its path. A CLI that cannot be found or run is not OpenTofu: the test
// then fails, or skips, in its own tier check.
func IsOpenTofu() (string, bool) {
	path := os.Getenv(TerraformPathEnv)
	if path == "" {
		p, err := exec.LookPath("terraform")
		if err != nil {
			return "", false
		}
		path = p
	}
	openTofuMu.Lock()
	defer openTofuMu.Unlock()
	tofu, ok := openTofuCLI[path]
	if !ok {
		tofu = isOpenTofuVersion(cliVersion(path))
		openTofuCLI[path] = tofu
	}
	return path, tofu
}

// cliVersion is the first line of `<path> version` naming a version, e.g.
// "OpenTofu v1.12.6" or "Terraform v1.15.9"; empty when the CLI does not run.
// The command is given clock.Patience: it answers in well under a second,
// and a CLI that hangs is ended then, while a loaded machine's slow start
// is waited out (an empty answer would take OpenTofu for Terraform).
func cliVersion(path string) string {
	ctx, cancel := context.WithTimeout(context.Background(), clock.Patience)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "version")
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1")
	out, err := cmd.Output() // stdout only: CLI configuration warnings go to stderr
	if err != nil && len(out) == 0 {
		return ""
	}
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "OpenTofu v") || strings.HasPrefix(line, "Terraform v") {
			return line
		}
	}
	return ""
}

func isOpenTofuVersion(line string) bool { return strings.HasPrefix(line, "OpenTofu v") }
