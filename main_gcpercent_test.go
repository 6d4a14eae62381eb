package main

import (
	"runtime/debug"
	"testing"
)

// TestRelaxGC: the provider raises the collector's target when GOGC is
// unset, and leaves a user's GOGC alone.
func TestRelaxGC(t *testing.T) {
	prev := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(prev) })

	relaxGC(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != servingGCPercent {
		t.Errorf("with GOGC unset the target is %d, want %d", got, servingGCPercent)
	}
	relaxGC(func(string) string { return "50" })
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC=50 set the target was changed to %d", got)
	}
}
