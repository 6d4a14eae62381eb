package crashtest

import (
	"os"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
)

// modalFake is the Modal fake of the test binary: Modal's SDK, in the
// provider binary too, finds it through MODAL_SERVER_URL, which RunTests
// sets for this process and so for every terraform child it starts.
var modalFake *modalfake.Server

func TestMain(m *testing.M) {
	os.Exit(modalfake.RunTests(m, func(s *modalfake.Server) { modalFake = s }))
}
