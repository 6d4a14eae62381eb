package modalfake

import (
	"os"
	"testing"
)

// srv is the one fake of this test binary: the SDK reads MODAL_SERVER_URL
// from the process environment, so every test shares it and keeps to a
// workspace of its own.
var srv *Server

func TestMain(m *testing.M) {
	os.Exit(RunTests(m, func(s *Server) { srv = s }))
}
