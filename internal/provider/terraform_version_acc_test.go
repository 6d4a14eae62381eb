package provider

import (
	"encoding/json"
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	sbxacctest "github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// requireTerraform114 skips the test when the terraform CLI the tests run
// (acctest.RequireTerraform) is older than 1.14, the first with list
// resources (terraform query) and actions.
func requireTerraform114(t *testing.T) {
	t.Helper()
	const major, minor = 1, 14
	tf := sbxacctest.RequireTerraform(t)
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
		t.Skipf("needs Terraform ≥ %d.%d (this is %s): set %s to a newer CLI", major, minor, v.Version, sbxacctest.TerraformPathEnv)
	}
}
