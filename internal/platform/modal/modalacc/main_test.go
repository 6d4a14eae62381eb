package modalacc_test

import (
	"os"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
)

// modalFake is the one fake every test of the binary talks to, each in a
// workspace of its own (modalAccWorkspace).
var modalFake *modalfake.Server

// TestMain starts the fake and points Modal's SDK at it, for the whole
// process (modalfake.RunTests), and runs the package's parallel tests
// acctest.AccParallelism at a time.
func TestMain(m *testing.M) {
	os.Exit(acctest.RunParallel(m, acctest.AccParallelism, func(m *testing.M) int {
		return modalfake.RunTests(m, func(s *modalfake.Server) { modalFake = s })
	}))
}
