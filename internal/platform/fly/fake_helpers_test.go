package fly

import (
	"context"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
)

const (
	testToken = "fly_unit_test_token"
	testApp   = "sbx-test"
)

var t0 = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

type fixture struct {
	srv   *flyfake.Server
	p     *Platform
	clock *clock.Fake
}

// newFixture starts a fake on a fake clock and a platform on it that never
// sleeps; cfg fills the platform's settings the fixture leaves open.
func newFixture(t *testing.T, opts flyfake.Options, cfg Config) *fixture {
	t.Helper()
	clock := clock.NewFake(t0)
	if opts.Clock == nil {
		opts.Clock = clock
	}
	opts.APIToken = testToken
	if opts.Apps == nil {
		opts.Apps = []string{testApp}
	}
	srv := flyfake.New(t, opts)
	noWait := func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	cfg.APIToken, cfg.APIURL = testToken, srv.URL()
	if cfg.App == "" {
		cfg.App = testApp
	}
	if cfg.Sleep == nil {
		cfg.Sleep = noWait
	}
	cfg.PollSleep, cfg.LookupSleep = noWait, noWait
	cfg.PollInterval, cfg.MaxRetries, cfg.UserAgent, cfg.Now = time.Second, 3, "sbx-test", clock.Now
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return &fixture{srv: srv, p: p, clock: clock}
}

func (f *fixture) template(t *testing.T) string {
	t.Helper()
	tpl, err := f.p.Templates().Create(context.Background(), platform.TemplateSpec{Name: "base", Image: "alpine:3.20"})
	if err != nil {
		t.Fatal(err)
	}
	return tpl.ID
}

func (f *fixture) volume(t *testing.T, spec platform.VolumeSpec) *platform.Volume {
	t.Helper()
	if spec.Name == "" {
		spec.Name = "data"
	}
	v, err := f.p.Volumes().Create(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func (f *fixture) box(t *testing.T, spec platform.SandboxSpec) *platform.Sandbox {
	t.Helper()
	if spec.TemplateID == "" {
		spec.TemplateID = f.template(t)
	}
	spec.Marks = platform.NewMarks("tester")
	sb, err := f.p.Sandboxes().Create(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	return sb
}
