package badinput_test

import (
	"os"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/kits"
)

// TestMain starts the Modal fake the Modal kit's instances are workspaces
// of: Modal's SDK reads the server address from the process's environment;
// the package's parallel tests run acctest.AccParallelism at a time.
func TestMain(m *testing.M) {
	os.Exit(acctest.RunParallel(m, acctest.AccParallelism, kits.Main))
}
