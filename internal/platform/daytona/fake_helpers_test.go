package daytona

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
)

const testKey = "dtn_unit_test_key"

var t0 = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// waits records the waits a platform asked for instead of sleeping.
type waits struct {
	mu   sync.Mutex
	list []time.Duration
}

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.list = append(w.list, d)
	return ctx.Err()
}

func (w *waits) all() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]time.Duration(nil), w.list...)
}

type fixture struct {
	srv   *daytonafake.Server
	p     *Platform
	clock *clock.Fake
	retry *waits // rest's waits between retries
}

// newFixture starts a fake on a fake clock and a platform on it that never
// sleeps.
func newFixture(t *testing.T, opts daytonafake.Options) *fixture {
	t.Helper()
	clock := clock.NewFake(t0)
	if opts.Clock == nil {
		opts.Clock = clock
	}
	opts.APIKey = testKey
	srv := daytonafake.New(t, opts)
	f := &fixture{srv: srv, clock: clock, retry: &waits{}}
	noWait := func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	p, err := New(Config{APIKey: testKey, APIURL: srv.URL(), Sleep: f.retry.sleep, PollSleep: noWait, LookupSleep: noWait,
		PollInterval: time.Second, MaxRetries: 3, UserAgent: "sbx-test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = p.Close()
		if v := srv.SpecViolations(); len(v) > 0 {
			t.Errorf("spec violations: %v", v)
		}
	})
	f.p = p
	return f
}

// seedClass seeds an active snapshot whose boxes are of class.
func (f *fixture) seedClass(name, class string) string {
	return f.srv.SeedSnapshot(daytonafake.SnapshotSeed{Name: name, ImageName: "ubuntu:24.04", SandboxClass: class})
}

// box makes a running box from template (the fake's default when "").
func (f *fixture) box(t *testing.T, template string, spec platform.SandboxSpec) *platform.Sandbox {
	t.Helper()
	if template == "" {
		template = daytonafake.DefaultSnapshotName
	}
	spec.TemplateID = template
	sb, err := f.p.Sandboxes().Create(context.Background(), spec)
	if err != nil {
		t.Fatalf("create sandbox: %v", err)
	}
	return sb
}

// post sends a raw request to the fake (for setting up many objects).
func (f *fixture) post(t *testing.T, path string, body any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, f.srv.URL()+path, bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+testKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		t.Fatalf("POST %s: %s", path, resp.Status)
	}
}
