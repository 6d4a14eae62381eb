package acctest

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// ProviderName is the name the provider is served under to the terraform
// CLI: configurations say provider "sbx" and resource "sbx_...".
const ProviderName = "sbx"

// Factories serves the provider newProvider builds in-process to the real
// terraform CLI, as resource.TestCase's ProtoV6ProviderFactories. Every
// server gets its own provider instance, so tests with their own options
// (hooks recording the waits, a clock) run in parallel with the others.
//
// newProvider is the provider's constructor, e.g.
// provider.NewWithOptions("test", opts): this package does not import the
// provider, so the provider's own tests can use it too.
func Factories(newProvider func() provider.Provider) map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		ProviderName: func() (tfprotov6.ProviderServer, error) {
			return providerserver.NewProtocol6WithError(newProvider())()
		},
	}
}

// NoWaitHooks are platform hooks whose waits end at once: a platform's
// build polls and its retries (which the platform fakes provoke) do not
// sleep. Platforms that do not wait ignore them.
func NoWaitHooks() platform.Hooks {
	return platform.Hooks{
		Sleep:        NoWait,
		PollSleep:    NoWait,
		PollInterval: time.Millisecond,
	}
}

// NoWait is a wait that ends at once (unless ctx already has).
func NoWait(ctx context.Context, _ time.Duration) error { return ctx.Err() }
