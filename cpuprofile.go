package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// envCPUProfile names the file prefix a served provider writes its CPU
// profile to. Terraform starts the provider several times in one command,
// so each process writes PREFIX.PID; `go tool pprof` merges them.
const envCPUProfile = "SBX_CPUPROFILE"

// startCPUProfile starts profiling when SBX_CPUPROFILE is set and returns
// what stops it; profiling that cannot start is reported and skipped, it
// never keeps the provider from serving.
func startCPUProfile() (stop func()) {
	prefix := os.Getenv(envCPUProfile)
	if prefix == "" {
		return func() {}
	}
	f, err := os.Create(fmt.Sprintf("%s.%d", prefix, os.Getpid()))
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", envCPUProfile, err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", envCPUProfile, err)
		_ = f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}
}
