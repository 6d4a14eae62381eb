// Package cpuprofile lets a served provider write its CPU profile, for
// make bench-scale: the provider and floorprovider alike, so `go tool pprof
// -diff_base` shows what the provider spends above the floor.
package cpuprofile

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// Env names the file prefix a served provider writes its CPU
// profile to. Terraform starts the provider several times in one command,
// so each process writes PREFIX.PID; `go tool pprof` merges them.
const Env = "SBX_CPUPROFILE"

// Start starts profiling when SBX_CPUPROFILE is set and returns
// what stops it; profiling that cannot start is reported and skipped, it
// never keeps the provider from serving.
func Start() (stop func()) {
	prefix := os.Getenv(Env)
	if prefix == "" {
		return func() {}
	}
	f, err := os.Create(fmt.Sprintf("%s.%d", prefix, os.Getpid()))
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", Env, err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", Env, err)
		_ = f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}
}
