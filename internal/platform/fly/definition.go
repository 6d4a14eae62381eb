package fly

import (
	"context"
	"os"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/restplatform"
)

// Definition is Fly.io as the provider registers it: the fly {} block.
func Definition() platform.Definition {
	url := restplatform.APIURLSetting("Fly", DefaultAPIURL, "FLY_API_URL")
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
		// flyctl reads FLY_ACCESS_TOKEN before FLY_API_TOKEN, then the
		// access_token of its config.yml (internal/config ApplyEnv and
		// applyFile); FLY_APP, FLY_ORG and FLY_REGION as flyctl does.
		Settings: []platform.Setting{
			{
				Name:        "api_token",
				Title:       "API token",
				Description: "Fly API token (`fly tokens create`), sent as `Authorization: FlyV1` for macaroon tokens, else `Bearer`. Never logged.",
				Env:         []string{"FLY_ACCESS_TOKEN", "FLY_API_TOKEN"},
				Fallback: "the `access_token` of `~/.fly/config.yml` (`$FLY_CONFIG_DIR/config.yml` when set) " +
					"that `fly auth login` writes",
				// Not Required for Resolve: configure falls back on flyctl's
				// config file and reports a token found nowhere (apiToken).
				Sensitive: true,
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

// tokenHint ends the error of a missing token: where to get one.
const tokenHint = "Create one with `fly tokens create org` (or `fly auth token`)."

// configure builds the Fly client from the block's settings and the
// provider's hooks; it makes no request. Without a token from the block or
// the environment it reads the one `fly auth login` saved (flyconfig.go).
func configure(_ context.Context, cfg platform.Config) (platform.Platform, error) {
	token, err := apiToken(cfg.Settings["api_token"], os.Getenv, os.UserHomeDir)
	if err != nil {
		return nil, err
	}
	return New(Config{
		APIToken: token, App: cfg.Settings["app"], Org: cfg.Settings["org"],
		Region: cfg.Settings["region"], APIURL: cfg.Settings["api_url"],
		MaxRetries: cfg.MaxRetries, UserAgent: cfg.UserAgent + " (+fly)",
		Sleep: cfg.Hooks.Sleep, PollSleep: cfg.Hooks.PollSleep,
		PollInterval: cfg.Hooks.PollInterval,
	})
}

// apiToken is the token configured (block, else FLY_ACCESS_TOKEN, else
// FLY_API_TOKEN: Resolve applied those), else the access_token of flyctl's
// config file. Found nowhere, or the file unreadable, it is a SettingError
// on api_token; the error never shows a token.
func apiToken(configured string, getenv func(string) string, home func() (string, error)) (string, error) {
	if configured != "" {
		return configured, nil
	}
	path, err := flyConfigPath(getenv, home)
	if err != nil {
		return "", &platform.SettingError{Setting: "api_token", Summary: "No Fly.io API token",
			Detail: "Set fly { api_token = ... } or the FLY_ACCESS_TOKEN or FLY_API_TOKEN environment variable (" + err.Error() + "). " + tokenHint}
	}
	token, exists, err := flyConfigToken(path)
	if err != nil {
		return "", &platform.SettingError{Setting: "api_token", Summary: "Unreadable Fly.io config file",
			Detail: err.Error() + ". Fix or remove the file (`fly auth logout`, then `fly auth login`), or set fly { api_token = ... } " +
				"or the FLY_ACCESS_TOKEN or FLY_API_TOKEN environment variable."}
	}
	if token == "" {
		found := "there is no such file"
		if exists {
			found = "it holds no access_token"
		}
		return "", &platform.SettingError{Setting: "api_token", Summary: "No Fly.io API token",
			Detail: "Set fly { api_token = ... } or the FLY_ACCESS_TOKEN or FLY_API_TOKEN environment variable, or log in with " +
				"`fly auth login`, which saves a token in " + path + " (" + found + "). " + tokenHint}
	}
	return token, nil
}
