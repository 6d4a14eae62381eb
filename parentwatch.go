package main

import (
	"context"
	"os"
	"time"
)

// parentCheckInterval is how often a served provider checks that the
// Terraform process that started it still runs.
const parentCheckInterval = 500 * time.Millisecond

// watchParent calls gone once the process that started the provider has
// ended, and returns; it returns without calling gone when ctx ends first.
//
// Terraform stops its providers when it exits, but a Terraform that is
// killed (SIGKILL, the OOM killer, a CI runner's cancel) cannot, and
// go-plugin serves until it is told to stop: the provider would stay up,
// idle, for good. Nothing it does after that can reach a state (its
// requests were cancelled with Terraform's connection). A process whose
// parent ends is adopted by another (init or a subreaper), so its parent
// process id changes: that is the sign, checked at every tick.
func watchParent(ctx context.Context, parent int, getppid func() int, ticks <-chan time.Time, gone func()) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticks:
			if getppid() != parent {
				gone()
				return
			}
		}
	}
}

// endWhenOrphaned runs watchParent on the served process: once Terraform is
// gone and the applies in flight have ended, stop (which flushes what must
// be flushed) runs and the process exits. Not in debug mode, where the
// provider is started by hand and outlives the Terraform runs that attach
// to it.
func endWhenOrphaned(gate *applyGate, stop func()) {
	ticker := time.NewTicker(parentCheckInterval)
	go watchParent(context.Background(), os.Getppid(), os.Getppid, ticker.C, func() {
		ticker.Stop()
		gate.drain()
		stop()
		os.Exit(1)
	})
}
