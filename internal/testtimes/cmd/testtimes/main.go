// Command testtimes reads `go test -json` on its standard input, prints
// each package's ok or FAIL line as it ends, the output of every failed
// test, and then where the time went (package.Report). It exits 1 when a
// package failed. `make test-slow` pipes the suite through it:
//
//	go test -json -timeout 60m ./... | go run ./internal/testtimes/cmd/testtimes -timeout 60m
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/testtimes"
)

func main() {
	timeout := flag.Duration("timeout", 60*time.Minute, "the go test -timeout the run used: each package's wall is shown as a share of it")
	top := flag.Int("top", 25, "how many of the slowest tests to list")
	flag.Parse()
	res, err := testtimes.Read(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testtimes:", err)
		os.Exit(1)
	}
	for _, f := range res.Failed {
		if f.Test != "" {
			fmt.Printf("\n--- FAIL: %s (%s)\n%s", f.Test, f.Package, f.Output)
		}
	}
	fmt.Println()
	near := testtimes.Report(os.Stdout, res, *timeout, *top)
	if len(near) > 0 {
		fmt.Printf("\n%d package(s) used half of their -timeout or more: a machine slower than this one could cut them off\n", len(near))
	}
	failed := 0
	for _, f := range res.Failed {
		if f.Test == "" {
			failed++
		}
	}
	if failed > 0 {
		fmt.Printf("\n%d package(s) failed\n", failed)
		os.Exit(1)
	}
}
