// Package fly implements the sandbox platform on Fly.io's Machines API
// (https://api.machines.dev/v1): templates are image references recorded in
// state (Fly has no template or build API), sandboxes are Fly Machines in
// one app, volumes are Fly volumes, snapshots are Fly volume snapshots. It
// speaks HTTP only through internal/rest, paced to Fly's rate limits.
//
// Shapes: the endpoints of shared/specs/fly-openapi.yaml (Dec 2023) where it
// has them; newer ones from superfly/fly-go, read, not copied:
// flaps/flaps_machines.go (Suspend, DELETE ?kill=true, wait's query with
// state=suspended), flaps/flaps_volumes.go (UpdateVolume is a PUT),
// volume_types.go (UpdateVolumeRequest{snapshot_retention},
// VolumeSnapshot.volume_size and retention_days), machine_types.go
// (MachineConfig.metadata, guest), auth.go (FlyV1 for macaroon tokens).
package fly

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/sandboxinventory"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// DefaultAPIURL is the Machines API's host; paths are under /v1.
const DefaultAPIURL = "https://api.machines.dev"

// platformName is the platform's short name.
const platformName = "fly"

// Config configures the connection to Fly.
type Config struct {
	APIToken string
	// App is the Fly app machines and volumes live in.
	App string
	// Org, when set, is where a missing App is created.
	Org string
	// Region is the default region of machines and volumes ("": Fly's choice).
	Region string
	// APIURL is the API host; empty means DefaultAPIURL. "/v1" is appended.
	APIURL     string
	MaxRetries int
	UserAgent  string
	// Sleep waits between retries; PollSleep between reads of a settling
	// object; LookupSleep between lookups of a lost create.
	Sleep       func(ctx context.Context, d time.Duration) error
	PollSleep   func(ctx context.Context, d time.Duration) error
	LookupSleep func(ctx context.Context, d time.Duration) error
	HTTPClient  *http.Client
	// PollInterval is how often a settling object is read again; default 2s.
	PollInterval time.Duration
	// Now is the clock (tests); default time.Now.
	Now func() time.Time
	// PaceNow is the clock the client's pacing to Fly's rate limits (and
	// an HTTP-date Retry-After) is read on, with Sleep the wait (tests
	// that pace on a clock of their own); default time.Now.
	PaceNow func() time.Time
}

// Platform is the Fly implementation of platform.Platform.
type Platform struct {
	api         *rest.Client
	app         string
	org         string
	region      string
	poll        time.Duration
	sleep       func(context.Context, time.Duration) error
	lookupSleep func(context.Context, time.Duration) error
	now         func() time.Time

	appMu    sync.Mutex
	appReady bool

	// madeMu guards made: the machines this provider instance created (one
	// plan or apply), by id, with the sandbox name they were made for, so
	// that a volume already mounted by one of them is reported as two
	// sandboxes of this apply mounting one volume.
	madeMu sync.Mutex
	made   map[string]string
}

// remember records a machine this apply created for the sandbox name.
func (p *Platform) remember(id, name string) {
	p.madeMu.Lock()
	defer p.madeMu.Unlock()
	if p.made == nil {
		p.made = map[string]string{}
	}
	p.made[id] = name
}

// madeHere reports whether this apply created machine id, and for which
// sandbox name.
func (p *Platform) madeHere(id string) (string, bool) {
	p.madeMu.Lock()
	defer p.madeMu.Unlock()
	name, found := p.made[id]
	return name, found
}

// New returns a Fly platform; it makes no request.
func New(cfg Config) (*Platform, error) {
	if cfg.APIToken == "" {
		return nil, fmt.Errorf("fly: no API token")
	}
	if cfg.App == "" {
		return nil, fmt.Errorf("fly: no app")
	}
	if cfg.APIURL == "" {
		cfg.APIURL = DefaultAPIURL
	}
	rc := rest.Config{
		BaseURL: strings.TrimSuffix(cfg.APIURL, "/") + "/v1",
		// fly-go auth.go: macaroon tokens go as FlyV1, others as Bearer.
		Auth: rest.AuthByTokenPrefix(cfg.APIToken,
			rest.TokenScheme{Prefix: "fm1r_", Scheme: "FlyV1"}, rest.TokenScheme{Prefix: "fm2_", Scheme: "FlyV1"}),
		MaxRetries:    cfg.MaxRetries,
		UserAgent:     cfg.UserAgent,
		HTTPClient:    cfg.HTTPClient,
		Sleep:         cfg.Sleep,
		Now:           cfg.PaceNow,
		SensitiveKeys: []string{"env"},
		Pacing:        pacing,
	}
	api, err := rest.New(rc)
	if err != nil {
		return nil, fmt.Errorf("fly: %w", err)
	}
	p := &Platform{api: api, app: cfg.App, org: cfg.Org, region: cfg.Region, poll: cfg.PollInterval,
		sleep: rest.SleepOr(cfg.PollSleep, cfg.Sleep), lookupSleep: rest.SleepOr(cfg.LookupSleep, cfg.Sleep), now: cfg.Now}
	if p.poll <= 0 {
		p.poll = 2 * time.Second
	}
	if p.now == nil {
		p.now = time.Now
	}
	return p, nil
}

// pacing is Fly's documented rate limits (platform-apis.md §3; Fly docs
// machines/api/working-with-machines-api "Rate limits"): about 1 request per
// second per action per machine or app, bursts of 3; Get Machine 5/s, bursts
// of 10. The key is the action (method and path with the ids replaced) and
// the target (the machine, else the app).
func pacing(method, path string) rest.Pace {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	target := ""
	if len(parts) > 1 && parts[0] == "apps" {
		target, parts[1] = parts[1], "{app}"
	}
	if len(parts) > 3 && (parts[2] == "machines" || parts[2] == "volumes") {
		target, parts[3] = parts[3], "{id}"
	}
	key := method + " " + strings.Join(parts, "/") + " " + target
	if method == http.MethodGet && len(parts) == 4 && parts[2] == "machines" {
		return rest.Pace{Key: key, Rate: 5 * paceMargin, Burst: 10}
	}
	return rest.Pace{Key: key, Rate: 1 * paceMargin, Burst: 3}
}

// paceMargin keeps the client a little under Fly's rates: requests paced
// exactly at the limit reach Fly with the network's jitter, and one that
// arrives a few milliseconds early would be a 429.
const paceMargin = 0.9

// Name implements platform.Platform.
func (p *Platform) Name() string { return platformName }

// Close implements platform.Platform: it closes idle connections.
func (p *Platform) Close() error {
	p.api.CloseIdleConnections()
	return nil
}

// Capabilities implements platform.Platform.
func (p *Platform) Capabilities() platform.Capabilities { return capabilities() }

// Extensions implements platform.Platform.
func (p *Platform) Extensions() platform.Extensions {
	return platform.Extensions{
		Inventory: sandboxinventory.Inventory{Platform: platformName, Sandboxes: &sandboxes{p: p}, Unchecked: []platform.UncheckedKind{
			{Kind: platform.KindTemplate, Reason: "a Fly template is a record in state only (an image reference); nothing exists on Fly"},
			{Kind: platform.KindVolume, Reason: "Fly volumes carry no labels"},
			{Kind: platform.KindSnapshot, Reason: "Fly volume snapshots carry no labels and cannot be deleted"},
		}},
		SandboxRules: sandboxRules{p: p},
		VolumeRules:  volumeRules{p: p},
		Exec:         p,
	}
}

// Templates implements platform.Platform.
func (p *Platform) Templates() platform.TemplateService { return templates{} }

// Volumes implements platform.Platform.
func (p *Platform) Volumes() platform.VolumeService { return &volumes{p: p} }

// Sandboxes implements platform.Platform.
func (p *Platform) Sandboxes() platform.SandboxService { return &sandboxes{p: p} }

// Snapshots implements platform.Platform.
func (p *Platform) Snapshots() platform.SnapshotService { return &snapshots{p: p} }
