package bench

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

// delayedTestFront is a Delayed front of a backend that answers 418 and
// counts what reaches it.
type delayedTestFront struct {
	url     string
	client  *http.Client
	reached atomic.Int32
}

func newDelayedTestFront(t *testing.T, latency time.Duration) *delayedTestFront {
	t.Helper()
	f := &delayedTestFront{}
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		f.reached.Add(1)
		w.WriteHeader(http.StatusTeapot)
	}))
	t.Cleanup(backend.Close)
	target, err := url.Parse(backend.URL)
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(NewDelayed(target, latency))
	t.Cleanup(front.Close)
	f.url, f.client = front.URL, front.Client()
	return f
}

func (f *delayedTestFront) do(ctx context.Context, method, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, f.url+path, nil)
	if err != nil {
		return nil, err
	}
	return f.client.Do(req)
}

func (f *delayedTestFront) counts(t *testing.T) Counts {
	t.Helper()
	resp, err := f.do(context.Background(), http.MethodGet, CountsPath)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var c Counts
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestDelayedHoldsForItsLatency: the front holds a request for its
// latency before forwarding it. With an hour of it, a request it has
// counted has not reached the backend, nor does it once its client gives
// up; the counts answer at once meanwhile. (How much the latency adds to
// an apply is make bench-scale's figure, not a test's.)
func TestDelayedHoldsForItsLatency(t *testing.T) {
	f := newDelayedTestFront(t, time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	held := make(chan error, 1)
	go func() {
		resp, err := f.do(ctx, http.MethodGet, "/sandboxes/a1")
		if err == nil {
			_ = resp.Body.Close()
		}
		held <- err
	}()
	if !clock.Eventually(func() bool { return f.counts(t).Requests == 1 }) {
		t.Fatal("the front never counted the request")
	}
	if n := f.reached.Load(); n != 0 {
		t.Fatalf("the backend saw %d requests while the front held the one", n)
	}
	cancel()
	if err := <-held; err == nil {
		t.Fatal("the held request got an answer")
	}
	if n := f.reached.Load(); n != 0 {
		t.Errorf("the backend saw %d requests after the client gave up", n)
	}
}

// TestDelayedCountsAndDelays: the front forwards every request after its
// latency, counts requests by route with ids folded, and starts counting
// afresh after a reset.
func TestDelayedCountsAndDelays(t *testing.T) {
	f := newDelayedTestFront(t, 20*time.Millisecond)
	for _, p := range []string{"/sandboxes/a1", "/sandboxes/b2", "/v2/sandboxes"} {
		resp, err := f.do(context.Background(), http.MethodGet, p)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusTeapot {
			t.Fatalf("GET %s: %d, want the backend's 418", p, resp.StatusCode)
		}
	}
	if n := f.reached.Load(); n != 3 {
		t.Errorf("the backend saw %d requests, want 3", n)
	}
	c := f.counts(t)
	if c.Requests != 3 || c.ByRoute["GET /sandboxes/{id}"] != 2 || c.ByRoute["GET /v2/sandboxes"] != 1 {
		t.Errorf("counts %+v, want 3: two GET /sandboxes/{id}, one GET /v2/sandboxes", c)
	}
	resp, err := f.do(context.Background(), http.MethodDelete, CountsPath)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if c := f.counts(t); c.Requests != 0 || len(c.ByRoute) != 0 {
		t.Errorf("after a reset: %+v, want nothing", c)
	}
}
