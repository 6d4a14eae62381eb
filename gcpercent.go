package main

import (
	"os"
	"runtime/debug"
)

// servingGCPercent is the collector's target while serving Terraform. A
// plan or apply allocates a great deal of short-lived garbage per resource
// (the framework decodes and re-encodes every attribute of every object),
// and at Go's default of 100 the collector took about a quarter of the
// provider's CPU at 300–1,000 boxes; at 400 the provider's CPU per box fell
// by about a third (make bench-scale, 300 boxes: a no-op plan from 9–10 to
// 6.5 ms per box), at the cost of a larger heap between collections.
// GOGC=100 restores Go's default.
const servingGCPercent = 400

// relaxGC sets servingGCPercent unless GOGC says otherwise: a user's
// GOGC, including "off", is left as it is.
func relaxGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(servingGCPercent)
	}
}

// relaxGCHere is relaxGC on the process's environment.
func relaxGCHere() { relaxGC(os.Getenv) }
