package platform

import (
	"context"
	"net/http"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// Definition is everything the provider knows about a platform before it is
// configured: its provider block, how its credentials are found, how it is
// built, and the rules it applies by itself. Each platform package exports
// one; the provider keeps one list of them (its registration file), builds a
// provider block per entry, and never names a platform anywhere else.
type Definition struct {
	// Name is the platform's short name: the provider block's name and the
	// value of every object's `platform` attribute ("docker", "e2b", ...).
	Name string
	// Title is the name written in prose ("Docker", "E2B").
	Title string
	// Description is the Markdown of the provider block.
	Description string
	// Settings are the block's attributes, all strings.
	Settings []Setting
	// Default: the platform used when the provider block names none. Exactly
	// one registered platform is the default.
	Default bool
	// Retries: the platform speaks a REST API through internal/rest, so the
	// provider's max_retries applies. Setting max_retries with a platform
	// that has no retries is an error rather than an ignored setting.
	Retries bool
	// Retention are the platform's rows of the retention policy table: what
	// it does by itself to boxes and snapshots, and when.
	Retention []retention.Rule
	// TierOverrides returns the retention overrides an account tier implies
	// (E2B Pro runs boxes 24 h instead of 1 h); nil when tiers change nothing.
	TierOverrides func(tier string) map[string]time.Duration
	// Configure builds the platform from the block's settings (environment
	// fallbacks already applied); it must make no request that changes
	// anything. A SettingError names the setting at fault.
	Configure func(ctx context.Context, cfg Config) (Platform, error)
}

// Setting is one string attribute of a platform's provider block.
type Setting struct {
	Name        string
	Description string // Markdown; the environment fallback is appended by the provider
	// Env are environment variables read, in order, when the block leaves
	// the setting out (the names the platform's own SDKs and CLI read).
	Env []string
	// Required: the platform cannot be configured without a value (from
	// the block or Env). Missing, it is an error naming the setting and Env.
	Required bool
	// Sensitive: a credential; never shown in plans, logs or errors.
	Sensitive bool
	// OneOf lists the accepted values; empty means any.
	OneOf []string
	// Validate checks a value at validate time; nil accepts any. Its error
	// completes the sentence "<block>.<name> = <value> ...".
	Validate func(value string) error
}

// Config is what Configure receives.
type Config struct {
	// Settings holds every setting of the block that has a value (from the
	// block or from its environment variables); absent ones are missing.
	Settings map[string]string
	// From says where each value came from: "<block>.<name>" or the
	// environment variable's name, for error messages.
	From map[string]string
	// MaxRetries is the provider's max_retries (its default when unset);
	// only meaningful for platforms with Retries.
	MaxRetries int
	// UserAgent identifies the provider and its version to the platform.
	UserAgent string
	// Hooks are the test hooks the provider was constructed with.
	Hooks Hooks
}

// Hooks let tests reach into a platform's client: record the waits
// between retries instead of sleeping, poll without waiting, or route
// requests through their own HTTP client. They are handed to the provider's
// constructor and passed down to Configure, never kept in package globals,
// so tests run in parallel. Zero fields mean the real behaviour.
type Hooks struct {
	HTTPClient   *http.Client
	Sleep        func(ctx context.Context, d time.Duration) error
	PollSleep    func(ctx context.Context, d time.Duration) error
	PollInterval time.Duration
}

// SettingError is a Configure failure caused by one setting: the provider
// reports it on that attribute of the block.
type SettingError struct {
	Setting string // the setting's name in the block
	Summary string
	Detail  string
}

func (e *SettingError) Error() string { return e.Summary + ": " + e.Detail }
