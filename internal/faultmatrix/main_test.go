package faultmatrix_test

import (
	"os"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/kits"
)

// cellParallelism is how many cells run at once unless -parallel says
// otherwise: a cell mostly waits on terraform and on the fakes' injected
// delays.
const cellParallelism = 8

// TestMain starts the Modal fake the Modal kit's instances are workspaces
// of (kits.Main) and runs the cells cellParallelism at a time.
func TestMain(m *testing.M) {
	os.Exit(acctest.RunParallel(m, cellParallelism, kits.Main))
}
