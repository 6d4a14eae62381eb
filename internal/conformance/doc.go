// Package conformance runs the platform conformance suite (platformtest)
// on every platform of the registry (platformtest/kits), in parallel
// across platforms, each on an instance of its own; its tests also keep
// the registry and the provider's Platforms() naming the same platforms.
package conformance
