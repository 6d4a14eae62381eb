package flyacc_test

import (
	"os"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// TestMain runs the package's parallel tests acctest.AccParallelism at a
// time.
func TestMain(m *testing.M) {
	os.Exit(acctest.RunParallel(m, acctest.AccParallelism, (*testing.M).Run))
}
