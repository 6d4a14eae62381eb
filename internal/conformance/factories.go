package conformance

import (
	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

// Options are the provider's options for a started instance: the
// provider's platforms with the instance's Definition in its platform's
// place (or added, for a test-only platform), the instance's hooks and its
// clock. Every suite that iterates the registry builds its provider from
// these (platformtest cannot: it must not import the provider).
func Options(in *platformtest.Instance) provider.Options {
	opts := provider.Options{Platforms: Definitions(in), Hooks: in.Hooks}
	if in.Clock != nil {
		opts.Clock = in.Clock
	}
	return opts
}

// Definitions are the provider's platforms with in's Definition in its
// platform's place, or added when the provider does not register it.
func Definitions(in *platformtest.Instance) []platform.Definition {
	defs := provider.Platforms()
	for i := range defs {
		if defs[i].Name == in.Name {
			defs[i] = in.Definition
			return defs
		}
	}
	return append(defs, in.Definition)
}

// Factories serve the provider built with Options(in) to the terraform CLI.
func Factories(in *platformtest.Instance) platformtest.Factories {
	return acctest.Factories(provider.NewWithOptions("test", Options(in)))
}
