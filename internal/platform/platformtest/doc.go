// Package platformtest is the conformance suite every sandbox platform must
// pass: the same Terraform scenarios (lifecycle, in-place state changes,
// drift, disappearing objects, snapshots and restore, lookups, import), run
// through the real terraform CLI against an instance of whichever
// platform's Kit the caller started (see kit.go; the registry of kits is
// platformtest/kits, and internal/conformance runs the suite on each). A
// platform is skipped out of a scenario only when its capability matrix
// (or its kit: a platform that makes no template) says it lacks the
// feature, and the skip says so.
//
// The suite must not import internal/provider (that package's tests import
// this one), so the caller hands in the provider factories.
package platformtest
