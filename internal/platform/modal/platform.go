package modal

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	modal "github.com/modal-labs/modal-client/go"
	"google.golang.org/grpc"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Config configures the connection to Modal. Empty fields leave the SDK's
// own precedence in place: the MODAL_* environment variables, then the
// active (or MODAL_PROFILE's) profile of ~/.modal.toml (MODAL_CONFIG_PATH).
type Config struct {
	TokenID, TokenSecret string
	// Environment is the Modal environment apps, images and volumes live in.
	Environment string
	// App is the Modal app every sandbox belongs to; it is looked up, or
	// created, at the first call that needs it, never by New.
	App string
	// MaxThrottleWait caps how long the SDK waits out Modal's throttling of
	// one call; nil leaves the SDK's default (no cap, or MODAL_MAX_THROTTLE_WAIT).
	MaxThrottleWait *time.Duration
	// UserAgent is the provider's user agent. The SDK offers no way to send
	// one (it names itself in its own headers, and gRPC drops a user-agent
	// given as metadata), so it is kept for the day the SDK takes it.
	UserAgent string
}

// Platform is Modal as a platform.Platform, through the official Go SDK.
type Platform struct {
	client  *modal.Client
	appName string
	// lookupSleep waits between the lookups for the sandbox of a create
	// whose answer was lost (tests make it instant).
	lookupSleep func(context.Context, time.Duration) error
	// now is the clock of snapshot records (tests may set it).
	now func() time.Time
	// throttleSleep waits out Modal's throttling of a call the SDK does not
	// retry, at most maxThrottleWait in all (nil: no cap).
	throttleSleep   func(context.Context, time.Duration) error
	maxThrottleWait *time.Duration

	appMu sync.Mutex
	app   *modal.App

	tagLocks tagLocks
	// recent are the boxes this process made, which a list may not show
	// yet (recent.go).
	recent recentBoxes
}

var _ platform.Platform = (*Platform)(nil)

// New builds the SDK client; it makes no request. Missing credentials are
// not an error here: the SDK reports them at the first call, where
// translate turns them into what to set.
func New(cfg Config) (*Platform, error) {
	if cfg.App == "" {
		return nil, fmt.Errorf("modal: no app")
	}
	client, err := modal.NewClientWithOptions(&modal.ClientParams{
		TokenID:         cfg.TokenID,
		TokenSecret:     cfg.TokenSecret,
		Environment:     cfg.Environment,
		MaxThrottleWait: cfg.MaxThrottleWait,
		// The SDK logs requests and errors that may carry a sandbox's
		// environment; nothing of it reaches the provider's logs.
		Logger:                slog.New(slog.NewTextHandler(io.Discard, nil)),
		GRPCUnaryInterceptors: []grpc.UnaryClientInterceptor{recordImageIDs, recordListed},
	})
	if err != nil {
		return nil, fmt.Errorf("modal: %w", translate(err))
	}
	return &Platform{client: client, appName: cfg.App, lookupSleep: sleepCtx, now: time.Now,
		throttleSleep: sleepCtx, maxThrottleWait: cfg.MaxThrottleWait}, nil
}

// sleepCtx waits d, or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// appFor returns the Modal app of every sandbox. With create it is made
// when missing (a create needs it); without, a missing app is nil, nil: a
// read of an app never made finds nothing, and makes nothing. Only a found
// app is kept, so a later create still makes a missing one.
func (p *Platform) appFor(ctx context.Context, create bool) (*modal.App, error) {
	p.appMu.Lock()
	defer p.appMu.Unlock()
	if p.app != nil {
		return p.app, nil
	}
	app, err := p.client.Apps.FromName(ctx, p.appName, &modal.AppFromNameParams{CreateIfMissing: create})
	if err != nil {
		if !create && isNotFound(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("modal app %q: %w", p.appName, translate(err))
	}
	p.app = app
	return app, nil
}

// Name implements platform.Platform.
func (p *Platform) Name() string { return platformName }

// Close implements platform.Platform: it closes the SDK's connections.
func (p *Platform) Close() error {
	p.client.Close()
	return nil
}

// Capabilities implements platform.Platform.
func (p *Platform) Capabilities() platform.Capabilities { return capabilities() }

// Extensions implements platform.Platform.
func (p *Platform) Extensions() platform.Extensions {
	return platform.Extensions{
		IDs:           idPlanner{},
		Inventory:     p.inventory(),
		TemplateSpecs: templateSpecs{},
		SandboxRules:  sandboxRules{p: p},
		SnapshotRules: snapshotRules{p: p},
		Exec:          p,
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
