package daytona

import (
	"context"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/restplatform"
)

// Definition is Daytona as the provider registers it: the daytona {} block.
func Definition() platform.Definition {
	return platform.Definition{
		Name:  platformName,
		Title: "Daytona",
		Description: "Use [Daytona](https://www.daytona.io) as the platform: templates are Daytona snapshots built " +
			"from the Dockerfile (or adopted from an image), sandboxes are Daytona sandboxes, volumes are Daytona " +
			"volumes, snapshots are Daytona snapshots of a sandbox that new sandboxes start from. See the provider " +
			"guide for what Daytona supports and rejects.",
		// Every request goes through internal/rest, which retries.
		Retries: true,
		// Daytona's SDKs (libs/sdk-go/pkg/daytona/client.go,
		// libs/sdk-typescript/src/Daytona.ts) read DAYTONA_API_KEY,
		// DAYTONA_API_URL, DAYTONA_TARGET and DAYTONA_ORGANIZATION_ID.
		Settings: []platform.Setting{
			restplatform.APIKeySetting("Daytona", "Authorization: Bearer", "DAYTONA_API_KEY", "Create a key in the Daytona dashboard (Keys)."),
			restplatform.APIURLSetting("Daytona", DefaultAPIURL, "DAYTONA_API_URL"),
			{
				Name:  "target",
				Title: "target",
				Description: "The region (Daytona's target) new sandboxes are made in, such as `us` or `eu`; " +
					"when unset, the organisation's default region.",
				Env: []string{"DAYTONA_TARGET"},
			},
			{
				Name:  "organization_id",
				Title: "organization ID",
				Description: "The Daytona organisation to work in, sent as `X-Daytona-Organization-ID`; " +
					"when unset, the organisation of the API key.",
				Env: []string{"DAYTONA_ORGANIZATION_ID"},
			},
		},
		Retention:    retentionRules(),
		Capabilities: capabilities,
		Configure:    configure,
	}
}

// configure builds the Daytona client from the block's settings and the
// provider's hooks; it makes no request.
func configure(_ context.Context, cfg platform.Config) (platform.Platform, error) {
	return New(Config{
		APIKey: cfg.Settings["api_key"], APIURL: cfg.Settings["api_url"],
		Target: cfg.Settings["target"], OrganizationID: cfg.Settings["organization_id"],
		MaxRetries: cfg.MaxRetries, UserAgent: cfg.UserAgent + " (+daytona)",
		Sleep: cfg.Hooks.Sleep, PollSleep: cfg.Hooks.PollSleep,
		PollInterval: cfg.Hooks.PollInterval,
	})
}
