package modalfake

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// srv is the one fake of this test binary: the SDK reads MODAL_SERVER_URL
// from the process environment, so every test shares it and keeps to a
// workspace of its own.
var srv *Server

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	s, err := Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	srv = s
	dir, err := os.MkdirTemp("", "modalfake")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() { _ = os.RemoveAll(dir) }()
	// No user's ~/.modal.toml may leak into the tests.
	for k, v := range map[string]string{
		"MODAL_SERVER_URL":  s.URL(),
		"MODAL_CONFIG_PATH": filepath.Join(dir, "absent.toml"),
		"MODAL_ENVIRONMENT": "",
		"MODAL_PROFILE":     "",
		"MODAL_TOKEN_ID":    "",
	} {
		if err := os.Setenv(k, v); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return m.Run()
}
