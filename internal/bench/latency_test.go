package bench

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"
)

// TestDelayedCountsAndDelays: the front forwards every request, answers no
// sooner than its latency, counts requests by route with ids folded, and
// starts counting afresh after a reset.
func TestDelayedCountsAndDelays(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusTeapot)
	}))
	defer backend.Close()
	target, err := url.Parse(backend.URL)
	if err != nil {
		t.Fatal(err)
	}
	const latency = 20 * time.Millisecond
	front := httptest.NewServer(NewDelayed(target, latency))
	defer front.Close()

	get := func(method, path string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(method, front.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := front.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	counts := func() Counts {
		t.Helper()
		resp := get(http.MethodGet, CountsPath)
		defer func() { _ = resp.Body.Close() }()
		var c Counts
		if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
			t.Fatal(err)
		}
		return c
	}

	start := time.Now()
	for _, p := range []string{"/sandboxes/a1", "/sandboxes/b2", "/v2/sandboxes"} {
		resp := get(http.MethodGet, p)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusTeapot {
			t.Fatalf("GET %s: %d, want the backend's 418", p, resp.StatusCode)
		}
	}
	if took := time.Since(start); took < 3*latency {
		t.Errorf("three requests took %s, want at least %s", took, 3*latency)
	}
	c := counts()
	if c.Requests != 3 || c.ByRoute["GET /sandboxes/{id}"] != 2 || c.ByRoute["GET /v2/sandboxes"] != 1 {
		t.Errorf("counts %+v, want 3: two GET /sandboxes/{id}, one GET /v2/sandboxes", c)
	}
	_ = get(http.MethodDelete, CountsPath).Body.Close()
	if c := counts(); c.Requests != 0 || len(c.ByRoute) != 0 {
		t.Errorf("after a reset: %+v, want nothing", c)
	}
}
