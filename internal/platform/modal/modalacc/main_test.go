package modalacc_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
)

// modalFake is the one fake every test of the binary talks to, each in a
// workspace of its own (modalAccWorkspace).
var modalFake *modalfake.Server

// TestMain starts the fake and points Modal's SDK at it. The SDK reads the
// server URL only from MODAL_SERVER_URL (or a profile's server_url), for
// every client the provider builds, so it is set for the whole process.
// Everything else the SDK would take from the machine it runs on (tokens,
// profile, environment, the V1/V2 sandbox switch, a throttle cap) is
// cleared, and ~/.modal.toml is replaced by a file that does not exist: a
// developer's Modal setup must not leak into the tests, nor the tests
// reach their real workspace.
func TestMain(m *testing.M) {
	os.Exit(runWithFake(m))
}

func runWithFake(m *testing.M) int {
	for _, name := range []string{
		"MODAL_TOKEN_ID", "MODAL_TOKEN_SECRET", "MODAL_PROFILE", "MODAL_ENVIRONMENT",
		"MODAL_SANDBOX_V2", "MODAL_MAX_THROTTLE_WAIT", "MODAL_IMAGE_BUILDER_VERSION",
		"MODAL_OAUTH_REFRESH_TOKEN", "MODAL_OAUTH_CLIENT_ID", "MODAL_OAUTH_CLIENT_SECRET", "MODAL_OAUTH_JWT_KEY",
	} {
		if err := os.Unsetenv(name); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	home, err := os.MkdirTemp("", "modalacc-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() {
		if err := os.RemoveAll(home); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}()
	srv, err := modalfake.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer srv.Close()
	modalFake = srv
	for name, value := range map[string]string{
		"MODAL_SERVER_URL":  srv.URL(),
		"MODAL_CONFIG_PATH": filepath.Join(home, "no-modal.toml"),
	} {
		if err := os.Setenv(name, value); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return m.Run()
}
