package orphans

import (
	"context"
	"strings"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// definition returns the platform called name among defs.
func definition(defs []platform.Definition, name string) (platform.Definition, bool) {
	for _, d := range defs {
		if d.Name == name {
			return d, true
		}
	}
	return platform.Definition{}, false
}

// defaultPlatform is the name of the platform checked without --platform:
// the provider's default.
func defaultPlatform(defs []platform.Definition) string {
	for _, d := range defs {
		if d.Default {
			return d.Name
		}
	}
	if len(defs) > 0 {
		return defs[0].Name
	}
	return ""
}

// platformNames lists the names of defs as "a, b or c".
func platformNames(defs []platform.Definition) string {
	names := make([]string, 0, len(defs))
	for _, d := range defs {
		names = append(names, d.Name)
	}
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// connect builds the platform def from the environment, as the provider
// does when its block sets nothing: each setting from the environment
// variables the provider reads for it (DOCKER_HOST for docker, E2B_API_KEY
// and E2B_API_URL for e2b, ...).
func connect(ctx context.Context, def platform.Definition, version string, getenv func(string) string) (platform.Platform, error) {
	cfg, err := def.Resolve(nil, getenv)
	if err != nil {
		return nil, err
	}
	cfg.MaxRetries = rest.DefaultMaxRetries
	cfg.UserAgent = "terraform-provider-sbx/" + version + " (orphans)"
	return def.Configure(ctx, cfg)
}
