// Package daytona implements the sandbox platform on Daytona's REST API
// (v0.190.0): templates are Daytona snapshots (image-based), sandboxes are
// Daytona sandboxes, volumes are Daytona volumes (S3-backed, a name only),
// snapshots are Daytona snapshots taken of a sandbox, which new sandboxes
// start from. It speaks HTTP only through internal/rest, and S3 only to
// push a build context where Daytona's SDKs push it.
package daytona

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// DefaultAPIURL is Daytona's API root (the SDKs' default).
const DefaultAPIURL = "https://app.daytona.io/api"

// platformName is the platform's short name.
const platformName = "daytona"

// Config configures the connection to Daytona.
type Config struct {
	APIKey string
	// APIURL is the API root; empty means DefaultAPIURL.
	APIURL string
	// Target is the region new sandboxes are made in (CreateSandbox.target);
	// empty leaves it to the organisation's default.
	Target string
	// OrganizationID is sent as X-Daytona-Organization-ID when set.
	OrganizationID string
	// MaxRetries is how often a failed request is retried (the provider's max_retries).
	MaxRetries int
	UserAgent  string
	// Sleep waits between retries of a request. Optional: tests inject one
	// that records the waits instead of sleeping.
	Sleep func(ctx context.Context, d time.Duration) error
	// PollSleep waits between the reads that follow a box, template or
	// volume to a settled state; default: Sleep, else the timer.
	PollSleep func(ctx context.Context, d time.Duration) error
	// LookupSleep waits between the lookups for an object whose create
	// answer was lost; default: Sleep, else the timer.
	LookupSleep func(ctx context.Context, d time.Duration) error
	// HTTPClient is optional (tests); it also carries the S3 upload of a
	// build context and the fetch of a build log.
	HTTPClient *http.Client
	// PollInterval is how often a transitional state is read again; default 2s.
	PollInterval time.Duration
}

// Platform is the Daytona implementation of platform.Platform.
type Platform struct {
	api *rest.Client
	// plain carries requests to other hosts (S3, a signed log URL): the
	// API key is never sent there.
	plain     *http.Client
	userAgent string
	target    string
	// apiKey is sent to the build log URL Daytona hands out, as its SDKs
	// send it (libs/sdk-typescript/src/Snapshot.ts).
	apiKey string
	// header is sent on every API request (the organisation, when set).
	header http.Header
	sleep  func(ctx context.Context, d time.Duration) error
	poll   time.Duration
	// lookupSleep waits between the lookups after a lost create answer.
	lookupSleep func(ctx context.Context, d time.Duration) error
	// toolbox configures the clients of a box's toolbox proxy (Exec).
	toolbox rest.Config
	// boxLocks holds a *sync.Mutex per sandbox id (lockBox): an operation
	// that moves a box out of its state and back runs alone on it.
	boxLocks sync.Map
}

var _ platform.Platform = (*Platform)(nil)

// New checks cfg and builds the client; it makes no request.
func New(cfg Config) (*Platform, error) {
	if cfg.APIKey == "" {
		return nil, fmt.Errorf("daytona: no API key: set daytona { api_key } or DAYTONA_API_KEY")
	}
	if cfg.APIURL == "" {
		cfg.APIURL = DefaultAPIURL
	}
	rc := rest.Config{
		BaseURL:    cfg.APIURL,
		Auth:       rest.Auth{Header: "Authorization", Scheme: "Bearer", Secret: cfg.APIKey},
		MaxRetries: cfg.MaxRetries,
		UserAgent:  cfg.UserAgent,
		HTTPClient: cfg.HTTPClient,
		Sleep:      cfg.Sleep,
		// Sandbox env values are the user's secrets; the push credentials
		// grant write access to the organisation's build storage.
		SensitiveKeys: []string{"env", "secret", "sessionToken", "accessKey"},
	}
	api, err := rest.New(rc)
	if err != nil {
		return nil, fmt.Errorf("daytona: %w", err)
	}
	p := &Platform{api: api, apiKey: cfg.APIKey, userAgent: cfg.UserAgent, target: cfg.Target, poll: cfg.PollInterval,
		sleep: rest.SleepOr(cfg.PollSleep, cfg.Sleep), lookupSleep: rest.SleepOr(cfg.LookupSleep, cfg.Sleep)}
	p.toolbox = rest.Config{Auth: rc.Auth, MaxRetries: cfg.MaxRetries, UserAgent: cfg.UserAgent,
		HTTPClient: cfg.HTTPClient, Sleep: cfg.Sleep}
	if cfg.OrganizationID != "" {
		p.header = http.Header{"X-Daytona-Organization-Id": {cfg.OrganizationID}}
	}
	p.plain = cfg.HTTPClient
	if p.plain == nil {
		p.plain = &http.Client{}
	}
	if p.poll <= 0 {
		p.poll = 2 * time.Second
	}
	return p, nil
}

// Name implements platform.Platform.
func (p *Platform) Name() string { return platformName }

// Close implements platform.Platform: it closes the idle connections to
// Daytona. Nothing else is held; requests still work after it.
func (p *Platform) Close() error {
	p.api.CloseIdleConnections()
	if p.plain.Transport != nil { // never the process-wide default transport
		p.plain.CloseIdleConnections()
	}
	return nil
}

// Capabilities implements platform.Platform.
func (p *Platform) Capabilities() platform.Capabilities { return capabilities() }

// Extensions implements platform.Platform.
func (p *Platform) Extensions() platform.Extensions {
	return platform.Extensions{
		Inventory:          p,
		TemplateSpecs:      p,
		SandboxRules:       sandboxRules{p: p},
		SnapshotRules:      snapshotRules{p: p},
		TemplateActivation: &templates{p: p},
		Exec:               p,
	}
}

// Templates implements platform.Platform.
func (p *Platform) Templates() platform.TemplateService { return &templates{p: p} }

// Volumes implements platform.Platform.
func (p *Platform) Volumes() platform.VolumeService { return &volumes{p: p} }

// Sandboxes implements platform.Platform.
func (p *Platform) Sandboxes() platform.SandboxService { return &sandboxes{p: p} }

// Snapshots implements platform.Platform.
func (p *Platform) Snapshots() platform.SnapshotService { return &snapshots{p: p} }

// lockBox takes the lock of box id and returns its release.
func (p *Platform) lockBox(id string) func() {
	v, _ := p.boxLocks.LoadOrStore(id, &sync.Mutex{})
	mu, ok := v.(*sync.Mutex)
	if !ok {
		return func() {}
	}
	mu.Lock()
	return mu.Unlock
}
