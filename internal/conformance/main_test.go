package conformance_test

import (
	"flag"
	"os"
	"strconv"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/kits"
)

// TestMain runs every platform of the registry at once unless -parallel
// says otherwise: a platform's scenarios mostly wait on terraform, on its
// fake or on the Docker engine, so go test's default (the number of CPUs,
// often 2) would run the platforms two by two.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		if err := flag.Set("test.parallel", strconv.Itoa(len(kits.All()))); err != nil {
			panic(err)
		}
	}
	os.Exit(kits.Main(m))
}
