// Package kits is the registry of the platforms under test: one line per
// platform kit, beside the provider's own list (provider.Platforms, in
// internal/provider/platforms.go). Every cross-platform suite iterates it,
// so adding a platform to the tests is its kit plus one line here; a test
// (internal/conformance) fails while this list and Platforms() name
// different platforms.
//
// It must not import internal/provider: the provider's own tests may use it.
package kits

import (
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/docker/dockerkit"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/live"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/nothing"
)

// Entry is one platform under test.
type Entry struct {
	Kit platformtest.Kit
	// TestOnly: the provider does not register the platform (the
	// do-nothing platform). Suites run it too, adding its Definition to
	// the provider's platforms.
	TestOnly bool
}

// All are the platforms under test, in the order of platforms.All(),
// then the test-only ones. A cloud platform named in SBX_ACC_LIVE is its
// real service (platformtest/live) instead of its fake.
func All() []Entry {
	return []Entry{
		{Kit: dockerkit.Kit()},
		{Kit: live.Or(e2bfake.Kit(e2b.Definition()))},
		{Kit: live.Or(daytonafake.Kit(daytona.Definition()))},
		{Kit: live.Or(flyfake.Kit(fly.Definition()))},
		{Kit: live.Or(modalfake.Kit(modal.Definition()))},
		{Kit: nothing.Kit(), TestOnly: true},
	}
}

// Main is the TestMain of a package whose tests iterate the registry: it
// starts the Modal fake the Modal kit's instances are workspaces of (Modal's
// SDK finds its server only through the process's environment) and runs the
// tests. It returns the exit code. With Modal tested live there is no fake
// to start, and the SDK's environment is left as the user set it.
func Main(m *testing.M) int {
	if live.Enabled(modal.Definition().Name) {
		return m.Run()
	}
	return modalfake.RunKitTests(m, nil)
}
