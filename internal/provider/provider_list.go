package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/provider"
)

var _ provider.ProviderWithListResources = (*sbxProvider)(nil)

// ListResources are the list resources (`terraform query`), one per
// resource type, built for the platforms the provider offers.
func (p *sbxProvider) ListResources(_ context.Context) []func() list.ListResource {
	defs := p.definitions()
	return []func() list.ListResource{
		func() list.ListResource { return newTemplateList(defs) },
		func() list.ListResource { return newVolumeList(defs) },
		func() list.ListResource { return newSandboxList(defs) },
		func() list.ListResource { return newSnapshotList(defs) },
	}
}
