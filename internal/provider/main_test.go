package provider

import (
	"os"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// testParallelism is how many parallel tests run at once unless -parallel
// says otherwise: the acceptance tests mostly wait on terraform and on the
// Docker engine.
const testParallelism = 6

func TestMain(m *testing.M) {
	os.Exit(acctest.RunParallel(m, testParallelism, (*testing.M).Run))
}
