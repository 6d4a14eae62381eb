package acctest

import (
	"os"
	"path/filepath"
	"testing"
)

// fakeCLI writes an executable that prints out for `version`, the way the
// CLIs do (a configuration warning on stderr first), and returns its path.
func fakeCLI(t *testing.T, out string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "cli")
	script := "#!/bin/sh\necho 'Warning: Unable to open CLI configuration file' >&2\nprintf '" + out + "\\non linux_amd64\\n'\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSkipOnOpenTofu(t *testing.T) {
	tofu := fakeCLI(t, "OpenTofu v1.12.6")
	terraform := fakeCLI(t, "Terraform v1.15.9")

	t.Setenv(AccEnv, "1")
	t.Setenv(TerraformPathEnv, tofu)
	if !tierOutcome(t, func(t *testing.T) { SkipOnOpenTofu(t, "no resource identity") }) {
		t.Error("SkipOnOpenTofu did not skip on OpenTofu")
	}
	if p, ok := IsOpenTofu(); !ok || p != tofu {
		t.Errorf("IsOpenTofu() = %q, %v; want %q, true", p, ok, tofu)
	}

	t.Setenv(TerraformPathEnv, terraform)
	if tierOutcome(t, func(t *testing.T) { SkipOnOpenTofu(t, "no resource identity") }) {
		t.Error("SkipOnOpenTofu skipped on Terraform")
	}

	// A CLI that does not run is not OpenTofu: the test goes on, and its tier
	// check says what is missing.
	t.Setenv(TerraformPathEnv, filepath.Join(t.TempDir(), "missing"))
	if tierOutcome(t, func(t *testing.T) { SkipOnOpenTofu(t, "no resource identity") }) {
		t.Error("SkipOnOpenTofu skipped with no CLI")
	}

	// Without TF_ACC it does nothing, whatever the CLI.
	t.Setenv(AccEnv, "")
	t.Setenv(TerraformPathEnv, tofu)
	if tierOutcome(t, func(t *testing.T) { SkipOnOpenTofu(t, "no resource identity") }) {
		t.Error("SkipOnOpenTofu skipped without TF_ACC")
	}
}

// The CLI the acceptance tests run by default (make test) is Terraform.
func TestIsOpenTofuDefaultCLI(t *testing.T) {
	path := RequireTerraform(t)
	line := cliVersion(path)
	if line == "" {
		t.Fatalf("%s version printed no version line", path)
	}
	_, tofu := IsOpenTofu()
	if tofu != isOpenTofuVersion(line) {
		t.Errorf("IsOpenTofu() = %v for %q", tofu, line)
	}
	t.Logf("%s: %s", path, line)
}
