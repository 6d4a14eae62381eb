package e2b

import (
	"context"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/restplatform"
)

// Definition is E2B as the provider registers it: the e2b {} block.
func Definition() platform.Definition {
	return platform.Definition{
		Name:  "e2b",
		Title: "E2B",
		Description: "Use [E2B](https://e2b.dev) as the platform: templates are E2B templates built from the " +
			"Dockerfile's steps, sandboxes are E2B sandboxes, volumes are E2B volumes (a private beta), snapshots are " +
			"E2B sandbox snapshots. See the provider guide for what E2B supports and rejects.",
		// Every request goes through internal/rest, which retries.
		Retries: true,
		Settings: []platform.Setting{
			restplatform.APIKeySetting("E2B", "X-API-Key", "E2B_API_KEY", "Create a key in the E2B dashboard."),
			// E2B's own SDKs take the API root from E2B_API_URL, else
			// https://api.<E2B_DOMAIN> (e2b-dev/E2B: the JS SDK's
			// connectionConfig.ts and the Python SDK's
			// connection_config.py), and the orphans command read it
			// before this definition existed. E2B_DOMAIN is not read: the
			// SDKs derive the sandboxes' hosts from it too, and a value
			// meant for those would silently move the API root.
			restplatform.APIURLSetting("E2B", DefaultAPIURL, "E2B_API_URL"),
			{
				Name:  "tier",
				Title: "tier",
				Description: "Your E2B plan, `base` (default) or `pro`. It sets the longest `timeout` a sandbox may " +
					"have: 1 hour on base, 24 hours on pro; a longer one is a plan-time error.",
				OneOf: []string{TierBase, TierPro},
			},
		},
		Retention: retentionRules(),
		// The base tier's table; the pro tier allows a longer timeout (its
		// row's Doc says so).
		Capabilities:  func() platform.Capabilities { return capabilitiesFor(TierBase) },
		TierOverrides: tierOverrides,
		Configure:     configure,
	}
}

// configure builds the E2B client from the block's settings and the
// provider's hooks; it makes no request.
func configure(_ context.Context, cfg platform.Config) (platform.Platform, error) {
	return New(Config{
		APIKey: cfg.Settings["api_key"], APIURL: cfg.Settings["api_url"], Tier: cfg.Settings["tier"],
		MaxRetries: cfg.MaxRetries, UserAgent: cfg.UserAgent + " (+e2b)",
		Sleep: cfg.Hooks.Sleep, PollSleep: cfg.Hooks.PollSleep,
		PollInterval: cfg.Hooks.PollInterval,
	})
}
