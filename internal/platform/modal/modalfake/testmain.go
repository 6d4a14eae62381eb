package modalfake

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// sdkEnvironment are the variables Modal's SDK reads from the machine it
// runs on (tokens, profile, environment, the V1/V2 sandbox switch, the
// throttle cap, OAuth); RunTests clears them all.
var sdkEnvironment = []string{
	"MODAL_TOKEN_ID", "MODAL_TOKEN_SECRET", "MODAL_PROFILE", "MODAL_ENVIRONMENT",
	"MODAL_SANDBOX_V2", "MODAL_MAX_THROTTLE_WAIT", "MODAL_IMAGE_BUILDER_VERSION", "MODAL_LOGLEVEL",
	"MODAL_OAUTH_REFRESH_TOKEN", "MODAL_OAUTH_CLIENT_ID", "MODAL_OAUTH_CLIENT_SECRET", "MODAL_OAUTH_JWT_KEY",
}

// RunTests is the TestMain of a package whose tests reach the fake through
// Modal's SDK: it starts one server, hands it to started, and runs the
// tests against it. The SDK reads the server URL only from
// MODAL_SERVER_URL (or a profile's server_url), for every client made in
// the process, so one server serves every test, each in a workspace of its
// own. Everything else the SDK would take from the machine is cleared and
// ~/.modal.toml is replaced by a file that does not exist, so a
// developer's Modal setup never leaks into the tests nor do the tests reach
// a real workspace. It returns the exit code.
func RunTests(m *testing.M, started func(*Server)) int {
	for _, name := range sdkEnvironment {
		if err := os.Unsetenv(name); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	home, err := os.MkdirTemp("", "modalfake-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() {
		if err := os.RemoveAll(home); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}()
	srv, err := Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer srv.Close()
	for name, value := range map[string]string{
		"MODAL_SERVER_URL":  srv.URL(),
		"MODAL_CONFIG_PATH": filepath.Join(home, "absent.toml"),
	} {
		if err := os.Setenv(name, value); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	started(srv)
	return m.Run()
}
