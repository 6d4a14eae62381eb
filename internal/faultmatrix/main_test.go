package faultmatrix_test

import (
	"flag"
	"os"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/kits"
)

// cellParallelism is how many cells run at once unless -parallel says
// otherwise: a cell mostly waits on terraform and on the fakes' injected
// delays, so go test's default (the number of CPUs, often 2 on CI
// machines) would leave the matrix running for many minutes.
const cellParallelism = "8"

// TestMain starts the Modal fake the Modal kit's instances are workspaces
// of (kits.Main) and runs the cells cellParallelism at a time.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		if err := flag.Set("test.parallel", cellParallelism); err != nil {
			panic(err)
		}
	}
	os.Exit(kits.Main(m))
}
