// Package e2b implements the sandbox platform on E2B's REST API: templates
// are E2B templates built from Dockerfile steps, sandboxes are E2B
// sandboxes, volumes are E2B volumes (a private beta), snapshots are E2B
// sandbox snapshots. It speaks HTTP only through internal/rest.
package e2b

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// DefaultAPIURL is E2B's API root.
const DefaultAPIURL = "https://api.e2b.app"

// Tiers and the longest continuous runtime each allows.
const (
	TierBase = "base"
	TierPro  = "pro"
)

// Config configures the connection to E2B.
type Config struct {
	APIKey string
	// APIURL is the API root; empty means DefaultAPIURL.
	APIURL string
	// Tier is "base" or "pro"; it sets the longest timeout a sandbox may have.
	Tier string
	// MaxRetries is how often a failed request is retried (the provider's max_retries).
	MaxRetries int
	UserAgent  string
	// Sleep waits between retries of a request. Optional: tests inject one
	// that records the waits instead of sleeping.
	Sleep func(ctx context.Context, d time.Duration) error
	// PollSleep waits between build status polls; default: Sleep, else the timer.
	PollSleep func(ctx context.Context, d time.Duration) error
	// LookupSleep waits between the lookups for an object whose create
	// answer was lost (see lostcreate.Bound); default: Sleep, else the timer.
	LookupSleep func(ctx context.Context, d time.Duration) error
	// HTTPClient is optional (tests).
	HTTPClient *http.Client
	// PollInterval is the longest wait between a build's status reads (they
	// start at firstBuildPoll and double); default 2s.
	PollInterval time.Duration
}

// Platform is the E2B implementation of platform.Platform.
type Platform struct {
	api    *rest.Client
	upload *http.Client
	// userAgent is sent on uploads too, as on every API request.
	userAgent string
	tier      string
	sleep     func(ctx context.Context, d time.Duration) error
	poll      time.Duration
	// lookupSleep waits between the lookups after a lost create answer.
	lookupSleep func(ctx context.Context, d time.Duration) error
	// boxLocks holds a *sync.Mutex per sandbox id (lockBox): an operation
	// that resumes a paused box and pauses it again runs alone on it.
	boxLocks sync.Map
}

var _ platform.Platform = (*Platform)(nil)

// New checks cfg and builds the client; it makes no request.
func New(cfg Config) (*Platform, error) {
	if cfg.APIKey == "" {
		return nil, fmt.Errorf("e2b: no API key: set e2b { api_key } or E2B_API_KEY")
	}
	if cfg.APIURL == "" {
		cfg.APIURL = DefaultAPIURL
	}
	if cfg.Tier == "" {
		cfg.Tier = TierBase
	}
	if _, ok := maxTimeoutByTier[cfg.Tier]; !ok {
		return nil, fmt.Errorf("e2b: tier %q is not one of %q, %q", cfg.Tier, TierBase, TierPro)
	}
	api, err := rest.New(rest.Config{
		BaseURL:    cfg.APIURL,
		Auth:       rest.Auth{Header: "X-API-Key", Secret: cfg.APIKey},
		MaxRetries: cfg.MaxRetries,
		UserAgent:  cfg.UserAgent,
		HTTPClient: cfg.HTTPClient,
		Sleep:      cfg.Sleep,
		// Sandbox env values are the user's secrets; the volume and envd
		// tokens grant access to a volume's files and a box's daemon.
		SensitiveKeys: []string{"envVars", "token", "envdAccessToken", "trafficAccessToken"},
	})
	if err != nil {
		return nil, fmt.Errorf("e2b: %w", err)
	}
	p := &Platform{api: api, userAgent: cfg.UserAgent, tier: cfg.Tier, poll: cfg.PollInterval,
		sleep: rest.SleepOr(cfg.PollSleep, cfg.Sleep), lookupSleep: rest.SleepOr(cfg.LookupSleep, cfg.Sleep)}
	// Uploads go to a signed URL on another host: a plain client, so the
	// API key is never sent there.
	p.upload = cfg.HTTPClient
	if p.upload == nil {
		p.upload = &http.Client{}
	}
	if p.poll <= 0 {
		p.poll = 2 * time.Second
	}
	return p, nil
}

// Name implements platform.Platform.
func (p *Platform) Name() string { return "e2b" }

// Tier is the account tier ("base" or "pro") the platform was configured
// with; the provider builds its retention policy from it (Pro: 24 h runtime).
func (p *Platform) Tier() string { return p.tier }

// Close implements platform.Platform: it closes the idle connections to
// E2B. Nothing else is held; requests still work after it.
func (p *Platform) Close() error {
	p.api.CloseIdleConnections()
	if p.upload.Transport != nil { // never the process-wide default transport
		p.upload.CloseIdleConnections()
	}
	return nil
}

// Capabilities implements platform.Platform.
func (p *Platform) Capabilities() platform.Capabilities { return capabilitiesFor(p.tier) }

// Extensions implements platform.Platform: boxes carry the provider's
// labels (Inventory), a Dockerfile is checked against E2B's build steps
// and a box's network rules against E2B's at plan time.
func (p *Platform) Extensions() platform.Extensions {
	return platform.Extensions{Inventory: p, TemplateSpecs: p, SandboxRules: sandboxRules{p: p}, VolumeRules: volumeRules{}}
}

// Templates implements platform.Platform.
func (p *Platform) Templates() platform.TemplateService { return &templates{p: p} }

// Volumes implements platform.Platform.
func (p *Platform) Volumes() platform.VolumeService { return &volumes{p: p} }

// Sandboxes implements platform.Platform.
func (p *Platform) Sandboxes() platform.SandboxService { return &sandboxes{p: p} }

// Snapshots implements platform.Platform.
func (p *Platform) Snapshots() platform.SnapshotService { return &snapshots{p: p} }
