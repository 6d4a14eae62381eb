// Package platforms holds the one list of the platforms the provider
// supports. It is its own small package so that what needs the list and
// not the Terraform framework (the orphans command, the retention-doc
// generator, the tests' registry of platform kits) imports the platforms
// and nothing above them.
package platforms

import (
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/docker"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal"
)

// All is the one list of platforms, in the order the provider shows them:
// each entry becomes a block of the provider configuration (Docker's is
// the default), a platform the orphans command can list, and a column of
// the retention table; nothing else names a platform. A new platform is
// one more entry here. A test that keeps a list of its own (a registry of
// test kits) compares it with All, so that neither misses a platform.
func All() []platform.Definition {
	return []platform.Definition{
		docker.Definition(),
		e2b.Definition(),
		daytona.Definition(),
		fly.Definition(),
		modal.Definition(),
	}
}
