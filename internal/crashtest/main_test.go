package crashtest

import (
	"os"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/kits"
)

// TestMain starts the Modal fake the Modal kit's instances are workspaces
// of: Modal's SDK, in the provider binary too, finds it through
// MODAL_SERVER_URL, which it sets for this process and so for every
// terraform child it starts.
func TestMain(m *testing.M) {
	os.Exit(kits.Main(m))
}
