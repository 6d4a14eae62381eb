package modal

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// platformName is Modal's short name: its provider block and the value of
// every object's `platform` attribute.
const platformName = "modal"

// defaultApp is the Modal app sandboxes belong to when the block names none.
const defaultApp = "sbx"

// Definition is Modal as the provider registers it: the modal {} block.
func Definition() platform.Definition {
	return platform.Definition{
		Name:  platformName,
		Title: "Modal",
		Description: "Use [Modal](https://modal.com) as the platform, through Modal's official Go SDK: templates are Modal " +
			"Images, sandboxes are Sandboxes of one Modal app, volumes are Volumes (v2) found by name, and snapshots are " +
			"filesystem snapshots (Images with a ttl) or memory snapshots. Credentials follow the SDK's precedence: this " +
			"block, then the `MODAL_TOKEN_ID`/`MODAL_TOKEN_SECRET` environment variables, then the active profile of " +
			"`~/.modal.toml` (`MODAL_PROFILE` picks another profile, `MODAL_CONFIG_PATH` another file). The SDK takes the " +
			"server URL only from `MODAL_SERVER_URL` or the profile's `server_url`, never per block, so this block has no " +
			"URL setting. The SDK retries by itself (Modal's server-sent retry policy, idempotency keys), so the provider's " +
			"`max_retries` is an error with Modal; `max_throttle_wait` caps how long it waits out throttling.",
		// The SDK retries by itself; the provider's max_retries cannot reach it.
		Retries:    false,
		RetriesWhy: "Modal's SDK retries every call by itself (on Modal's server-sent retry policy, with idempotency keys); max_throttle_wait caps how long it waits out throttling",
		Settings: []platform.Setting{
			{
				Name:        "token_id",
				Title:       "token id",
				Description: "Modal token id (`ak-…`, from `modal token new` or the dashboard). Never logged.",
				Env:         []string{"MODAL_TOKEN_ID"},
				Fallback:    "the active profile of `~/.modal.toml`",
				Sensitive:   true,
			},
			{
				Name:        "token_secret",
				Title:       "token secret",
				Description: "Modal token secret (`as-…`), paired with `token_id`. Never logged.",
				Env:         []string{"MODAL_TOKEN_SECRET"},
				Fallback:    "the active profile of `~/.modal.toml`",
				Sensitive:   true,
			},
			{
				Name:        "environment",
				Title:       "environment",
				Description: "The Modal environment apps, images and volumes live in.",
				Env:         []string{"MODAL_ENVIRONMENT"},
				Fallback:    "the profile's, else the workspace's default environment",
			},
			{
				Name:  "app",
				Title: "app",
				Description: "The Modal app every sandbox belongs to; looked up, or created at the first sandbox or template " +
					"the provider makes. The provider never deletes it.",
				Fallback: "`" + defaultApp + "`",
			},
			{
				Name:  "max_throttle_wait",
				Title: "max throttle wait",
				Description: "The longest the SDK waits out Modal's throttling of one call (the retry delays Modal's server " +
					"asks for) before failing it, as a duration such as `5m`; `0s` fails a throttled call at once.",
				Fallback: "no limit, or the `MODAL_MAX_THROTTLE_WAIT` seconds the SDK reads itself",
				Validate: validateThrottleWait,
			},
		},
		Retention:    retentionRules(),
		Capabilities: capabilities,
		Configure:    configure,
	}
}

// validateThrottleWait accepts a non-negative Go duration.
func validateThrottleWait(value string) error {
	d, err := time.ParseDuration(value)
	if err != nil {
		return fmt.Errorf("%q is not a duration (such as \"30s\" or \"5m\")", value)
	}
	if d < 0 {
		return fmt.Errorf("%q is negative", value)
	}
	return nil
}

// configure builds the SDK client from the block's settings; it makes no
// request (the app is looked up or created at the first call needing it).
func configure(_ context.Context, cfg platform.Config) (platform.Platform, error) {
	if err := checkCredentials(cfg.Settings, os.Getenv, os.UserHomeDir); err != nil {
		return nil, err
	}
	c := Config{
		TokenID: cfg.Settings["token_id"], TokenSecret: cfg.Settings["token_secret"],
		Environment: cfg.Settings["environment"], App: cfg.Settings["app"],
		UserAgent: cfg.UserAgent + " (+modal)",
	}
	if c.App == "" {
		c.App = defaultApp
	}
	if v, ok := cfg.Settings["max_throttle_wait"]; ok && v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return nil, &platform.SettingError{Setting: "max_throttle_wait", Summary: "Invalid Modal max throttle wait", Detail: err.Error()}
		}
		c.MaxThrottleWait = &d
	}
	return New(c)
}
