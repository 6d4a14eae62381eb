package conformance_test

import (
	"os"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/kits"
)

// scenarioParallelism is how many scenarios run at once unless -parallel
// says otherwise: each runs on an instance of its own and mostly waits on
// terraform, on its fake or on the Docker engine.
const scenarioParallelism = 6

// TestMain starts the Modal fake the Modal kit's instances are workspaces
// of (kits.Main) and runs the scenarios scenarioParallelism at a time.
func TestMain(m *testing.M) {
	os.Exit(acctest.RunParallel(m, scenarioParallelism, kits.Main))
}
