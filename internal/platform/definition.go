package platform

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
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
	// Default: the platform used when the provider block names none, as
	// if its block were given empty; it must work without an account or a
	// credential. Exactly one registered platform is the default.
	Default bool
	// Retries: the platform speaks a REST API through internal/rest, so the
	// provider's max_retries applies. Setting max_retries with a platform
	// that has no retries is an error rather than an ignored setting.
	Retries bool
	// RetriesWhy says, where Retries is false, how the platform's calls are
	// retried instead ("Modal's SDK retries …"), for the error of a
	// max_retries that cannot apply; empty means they are not retried.
	RetriesWhy string
	// Retention are the platform's rows of the retention policy table: what
	// it does by itself to boxes and snapshots, and when.
	Retention []retention.Rule
	// Capabilities is what the platform can do with its default settings,
	// read without configuring it: the provider documents every attribute
	// of its resources from these tables, so the docs cannot disagree with
	// them. A configured platform may narrow limits (e.g. by account tier);
	// its Platform.Capabilities is what plans are judged by. Nil: the
	// platform is left out of the documentation.
	Capabilities func() Capabilities
	// TierOverrides returns the retention overrides an account tier implies
	// (E2B Pro runs boxes 24 h instead of 1 h); nil when tiers change nothing.
	TierOverrides func(tier string) map[string]time.Duration
	// Configure builds the platform from the block's settings (environment
	// fallbacks already applied, values checked: see Resolve); it must make
	// no request that changes anything. A SettingError names the setting at
	// fault, a ConfigureError gives the summary of any other failure; other
	// errors are reported as "Invalid <Title> configuration".
	Configure func(ctx context.Context, cfg Config) (Platform, error)
}

// Setting is one string attribute of a platform's provider block.
type Setting struct {
	Name string
	// Title is the setting in prose, in error summaries ("No E2B API key",
	// "Unsupported Docker host"); empty means Name.
	Title string
	// Description is the attribute's Markdown. The provider appends where a
	// value comes from when the block leaves it out: "Defaults to the `X`
	// environment variable[, else <Fallback>]." (see DefaultsSentence).
	Description string
	// Fallback is Markdown naming what applies when neither the block nor
	// Env gives a value ("the local socket"), for the description only:
	// Configure applies it.
	Fallback string
	// Env are environment variables read, in order, when the block leaves
	// the setting out (the names the platform's own SDKs and CLI read).
	Env []string
	// Required: the platform cannot be configured without a value (from
	// the block or Env). Missing, it is an error naming the setting and Env.
	Required bool
	// Hint ends the error of a missing Required setting: where to get a
	// value ("Create a key in the E2B dashboard.").
	Hint string
	// Sensitive: a credential; never shown in plans, logs or errors.
	Sensitive bool
	// OneOf lists the accepted values; empty means any.
	OneOf []string
	// Validate checks a value at validate time (the provider) and when it
	// comes from Env (Resolve); nil accepts any. Its error completes the
	// sentence "<block>.<name> = ..." or "<ENV_VAR> = ...": it starts with
	// the value, quoted and shown only as far as it is fit to show (a
	// Sensitive setting's never), then says what is wrong, e.g.
	// `"tcp://x" needs a port`.
	Validate func(value string) error
}

// Prose is the setting's name in prose: Title, else Name.
func (s Setting) Prose() string {
	if s.Title != "" {
		return s.Title
	}
	return s.Name
}

// DefaultsSentence is what the provider appends to the setting's
// description: where its value comes from when the block leaves it out
// ("" when nothing does).
func (s Setting) DefaultsSentence() string {
	var from string
	switch len(s.Env) {
	case 0:
	case 1:
		from = "the `" + s.Env[0] + "` environment variable"
	default:
		from = "the first set of the `" + strings.Join(s.Env, "`, `") + "` environment variables"
	}
	switch {
	case from != "" && s.Fallback != "":
		return "Defaults to " + from + ", else " + s.Fallback + "."
	case from != "":
		return "Defaults to " + from + "."
	case s.Fallback != "":
		return "Defaults to " + s.Fallback + "."
	}
	return ""
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
	// UserAgent identifies the provider and its version to the platform
	// ("terraform-provider-sbx/<version>", "... (orphans)" from the orphans
	// command); a platform may append its own token.
	UserAgent string
	// Hooks are the test hooks the provider was constructed with.
	Hooks Hooks
}

// Hooks let tests reach into a platform's client: record the waits
// between retries instead of sleeping, or poll without waiting. They are
// handed to the provider's constructor and passed down to Configure, never
// kept in package globals, so tests run in parallel. Zero fields mean the
// real behaviour. They name no HTTP client: the contract is the same for
// platforms that speak HTTP, gRPC or a socket, and a test that needs its
// own client gives it to a REST platform's own Config.
type Hooks struct {
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

// ConfigureError is a Configure failure that no one setting causes (the
// platform does not answer), with the summary to report it under.
type ConfigureError struct {
	Summary string // e.g. "Cannot connect to Docker"
	Err     error  // the detail: what failed, and what to do about it
}

func (e *ConfigureError) Error() string { return e.Summary + ": " + e.Err.Error() }

func (e *ConfigureError) Unwrap() error { return e.Err }

// Setting returns the setting called name, and whether there is one.
func (d Definition) Setting(name string) (Setting, bool) {
	for _, s := range d.Settings {
		if s.Name == name {
			return s, true
		}
	}
	return Setting{}, false
}

// Resolve is the part of configuring a platform that owes nothing to
// Terraform, shared by the provider and the orphans command: it builds the
// Config of a block from the values the block gives (block; nil when there
// is no block at all, as for the orphans command) and, for every setting
// left out or empty, the first of its Env that getenv finds set. It checks
// every value against OneOf and Validate, and that each Required setting
// has one. Its errors are *SettingError; Config (Settings and From as far
// as they were read) comes back with them, so the caller can tell whether
// the value at fault came from the block or from the environment.
// MaxRetries, UserAgent and Hooks are left for the caller to fill.
func (d Definition) Resolve(block map[string]string, getenv func(string) string) (Config, error) {
	cfg := Config{Settings: map[string]string{}, From: map[string]string{}}
	for _, s := range d.Settings {
		if v := block[s.Name]; v != "" {
			cfg.Settings[s.Name], cfg.From[s.Name] = v, d.Name+"."+s.Name
		} else if getenv != nil {
			for _, env := range s.Env {
				if v := getenv(env); v != "" {
					cfg.Settings[s.Name], cfg.From[s.Name] = v, env
					break
				}
			}
		}
		v, ok := cfg.Settings[s.Name]
		if !ok {
			if s.Required {
				return cfg, d.missing(s, block != nil)
			}
			continue
		}
		if err := d.Check(s, cfg.From[s.Name], v); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// Check checks value, which came from where from says ("<block>.<name>"
// or an environment variable), against the setting's OneOf and Validate.
func (d Definition) Check(s Setting, from, value string) *SettingError {
	if len(s.OneOf) > 0 && !slices.Contains(s.OneOf, value) {
		shown := strconv.Quote(value)
		if s.Sensitive {
			shown = "(sensitive value)"
		}
		return d.Invalid(s, from, fmt.Errorf("%s is not one of %q", shown, s.OneOf))
	}
	if s.Validate != nil {
		if err := s.Validate(value); err != nil {
			return d.Invalid(s, from, err)
		}
	}
	return nil
}

// Invalid is the error of a value the setting's Validate refused with err:
// "Unsupported <Title> <setting>", "<from> = <err>.".
func (d Definition) Invalid(s Setting, from string, err error) *SettingError {
	return &SettingError{Setting: s.Name, Summary: "Unsupported " + d.Title + " " + s.Prose(),
		Detail: from + " = " + strings.TrimSuffix(err.Error(), ".") + "."}
}

// missing is the error of a Required setting with no value; inBlock says
// the platform's block exists, so the block can give the value too.
func (d Definition) missing(s Setting, inBlock bool) *SettingError {
	var ways []string
	if inBlock {
		ways = append(ways, d.Name+" { "+s.Name+" = ... }")
	}
	if len(s.Env) > 0 {
		ways = append(ways, "the "+strings.Join(s.Env, " or ")+" environment variable")
	}
	detail := "Set " + strings.Join(ways, " or ") + "."
	if len(ways) == 0 {
		detail = "Set " + d.Name + " { " + s.Name + " = ... }."
	}
	if s.Hint != "" {
		detail += " " + s.Hint
	}
	return &SettingError{Setting: s.Name, Summary: "No " + d.Title + " " + s.Prose(), Detail: detail}
}
