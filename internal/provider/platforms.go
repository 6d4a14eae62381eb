package provider

import (
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/docker"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal"
)

// Platforms is the provider's one list of platforms: each entry becomes a
// block of the provider configuration, and nothing else in the provider
// names a platform. The orphans command builds its platforms from it too.
// A new platform is one more entry here.
func Platforms() []platform.Definition {
	return []platform.Definition{
		docker.Definition(),
		e2b.Definition(),
		daytona.Definition(),
		fly.Definition(),
		modal.Definition(),
	}
}
