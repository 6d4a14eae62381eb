package acctest

import (
	"flag"
	"strconv"
	"testing"
)

// AccParallelism is how many parallel acceptance tests a package of them
// runs at once (RunParallel): each mostly waits on terraform, on a fake or
// on the Docker engine. Six gave make test the same time as four on two
// CPUs (13:07 and 13:02 on a cold cache) with more load beside it.
const AccParallelism = 4

// RunParallel runs a package's tests through run (m.Run, or a wrapper of it
// such as kits.Main) with go test's -parallel at n unless the command line
// set it, and returns run's exit code; call it from TestMain. Acceptance
// tests mostly wait (on terraform, a fake's delays, the Docker engine), so
// go test's default, the number of CPUs (often 2), leaves a package of them
// waiting in turn.
func RunParallel(m *testing.M, n int, run func(*testing.M) int) int {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		if err := flag.Set("test.parallel", strconv.Itoa(n)); err != nil {
			panic(err)
		}
	}
	return run(m)
}
