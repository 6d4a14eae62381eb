package badinput_test

import (
	"os"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
)

// modalFake is the one Modal fake of the binary; every row gets a
// workspace of its own on it.
var modalFake *modalfake.Server

// TestMain starts the Modal fake and points Modal's SDK at it for the
// whole process (the SDK reads the server address from the environment).
func TestMain(m *testing.M) {
	os.Exit(modalfake.RunTests(m, func(s *modalfake.Server) { modalFake = s }))
}
