package fly

import (
	"context"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Definition is Fly.io as the provider registers it: the fly {} block.
func Definition() platform.Definition {
	url := platform.APIURLSetting("Fly", DefaultAPIURL, "FLY_API_URL")
	url.Description = "Fly Machines API host; requests go to its `/v1` paths."
	url.Env = nil
	return platform.Definition{
		Name:  platformName,
		Title: "Fly.io",
		Description: "Use [Fly.io](https://fly.io) as the platform, through the Machines API: sandboxes are Fly Machines " +
			"of one app, volumes are Fly volumes, snapshots are Fly volume snapshots, and a template is a record in state " +
			"of an image reference (Fly has no template or build API). The app must exist, or is created in `org` when " +
			"`org` is set; the provider never deletes an app, including one it created. Requests are paced to Fly's rate " +
			"limits. See the provider guide for what Fly supports and rejects.",
		Retries: true,
		// flyctl and fly-go read FLY_API_TOKEN and FLY_ACCESS_TOKEN, FLY_APP,
		// FLY_ORG and FLY_REGION.
		Settings: []platform.Setting{
			{
				Name:        "api_token",
				Title:       "API token",
				Description: "Fly API token (`fly tokens create`), sent as `Authorization: FlyV1` for macaroon tokens, else `Bearer`. Never logged.",
				Env:         []string{"FLY_API_TOKEN", "FLY_ACCESS_TOKEN"},
				Required:    true,
				Hint:        "Create one with `fly tokens create org` (or `fly auth token`).",
				Sensitive:   true,
			},
			{
				Name:  "app",
				Title: "app",
				Description: "The Fly app machines and volumes are made in. It must exist unless `org` is set; " +
					"the provider never deletes it.",
				Env:      []string{"FLY_APP"},
				Required: true,
				Hint:     "Create an app with `fly apps create`, or name a new one and set `org`.",
			},
			{
				Name:  "org",
				Title: "organization",
				Description: "The Fly organization slug: when set, a missing `app` is created there at the first create " +
					"(and never deleted by the provider).",
				Env: []string{"FLY_ORG"},
			},
			{
				Name:        "region",
				Title:       "region",
				Description: "The default region of machines and volumes, such as `iad`; when unset, Fly's choice.",
				Env:         []string{"FLY_REGION"},
			},
			url,
		},
		Retention:    retentionRules(),
		Capabilities: capabilities,
		Configure:    configure,
	}
}

// configure builds the Fly client from the block's settings and the
// provider's hooks; it makes no request.
func configure(_ context.Context, cfg platform.Config) (platform.Platform, error) {
	return New(Config{
		APIToken: cfg.Settings["api_token"], App: cfg.Settings["app"], Org: cfg.Settings["org"],
		Region: cfg.Settings["region"], APIURL: cfg.Settings["api_url"],
		MaxRetries: cfg.MaxRetries, UserAgent: cfg.UserAgent + " (+fly)",
		Sleep: cfg.Hooks.Sleep, PollSleep: cfg.Hooks.PollSleep,
		HTTPClient: cfg.Hooks.HTTPClient, PollInterval: cfg.Hooks.PollInterval,
	})
}
