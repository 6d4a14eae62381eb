package acctest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ProviderBinary builds the provider binary for a test that runs it (and
// the terraform CLI) as separate processes, and returns its path with the
// environment those processes need: a CLI configuration whose dev_overrides
// point sbxhq/sbx at the built binary, no inherited TF_LOG, no checkpoint
// calls. Only the child processes see this configuration.
func ProviderBinary(t testing.TB) (bin string, env []string) {
	t.Helper()
	binDir := t.TempDir()
	bin = filepath.Join(binDir, "terraform-provider-sbx")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = repoRoot()
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the provider: %v\n%s", err, out)
	}
	cliConfig := filepath.Join(t.TempDir(), "terraformrc")
	rc := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"sbxhq/sbx\" = %q\n  }\n  direct {}\n}\n", binDir)
	if err := os.WriteFile(cliConfig, []byte(rc), 0o644); err != nil {
		t.Fatal(err)
	}
	env = make([]string, 0, len(os.Environ())+3)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TF_CLI_CONFIG_FILE=") && !strings.HasPrefix(kv, "TF_LOG") {
			env = append(env, kv)
		}
	}
	env = append(env, "TF_CLI_CONFIG_FILE="+cliConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	return bin, env
}
