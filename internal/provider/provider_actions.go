package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/provider"
)

var _ provider.ProviderWithActions = (*sbxProvider)(nil)

// Actions are the provider's actions (Terraform 1.14 or later), built for
// the platforms the provider offers.
func (p *sbxProvider) Actions(_ context.Context) []func() action.Action {
	defs := p.definitions()
	return []func() action.Action{
		func() action.Action { return newSandboxSnapshotAction(defs) },
		func() action.Action { return newSandboxExecAction(defs) },
	}
}
