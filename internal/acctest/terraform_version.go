package acctest

import (
	"encoding/json"
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// SkipBelowTerraform skips t when the terraform CLI the tests run
// (RequireTerraform) is older than major.minor, for a test that drives the
// CLI itself rather than through resource.Test (whose
// TerraformVersionChecks do this): list resources (terraform query) and
// actions need 1.14.
func SkipBelowTerraform(t *testing.T, major, minor int) {
	t.Helper()
	tf := RequireTerraform(t)
	out, err := exec.Command(tf, "version", "-json").Output()
	if err != nil {
		t.Fatalf("%s version: %v", tf, err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("reading %s version -json: %v", tf, err)
	}
	parts := strings.SplitN(v.Version, ".", 3)
	if len(parts) < 2 {
		t.Fatalf("%s reports version %q", tf, v.Version)
	}
	gotMajor, err1 := strconv.Atoi(parts[0])
	gotMinor, err2 := strconv.Atoi(parts[1])
	if err := errors.Join(err1, err2); err != nil {
		t.Fatalf("%s reports version %q: %v", tf, v.Version, err)
	}
	if gotMajor < major || (gotMajor == major && gotMinor < minor) {
		t.Skipf("needs Terraform ≥ %d.%d (this is %s): set %s to a newer CLI", major, minor, v.Version, TerraformPathEnv)
	}
}
