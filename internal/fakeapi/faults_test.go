package fakeapi

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestNormalizeRoute(t *testing.T) {
	cases := []struct{ in, want string }{
		{"POST /items", "POST /items"},
		{"post /items", "POST /items"},
		{"  get   /items/{id} ", "GET /items/{id}"},
		{"/items", "/items"},
	}
	for _, tc := range cases {
		if got := NormalizeRoute(tc.in); got != tc.want {
			t.Errorf("NormalizeRoute(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Faults on a route are used in the order injected, each Times times (once
// by default); other routes are untouched. Latency tags the faults here.
func TestFaultQueue(t *testing.T) {
	cases := []struct {
		name   string
		inject map[string][]Fault
		take   string
		want   []time.Duration // -1: no fault
	}{
		{"once by default", map[string][]Fault{"POST /items": {{Latency: 1}}}, "POST /items", []time.Duration{1, -1}},
		{"times, then the next", map[string][]Fault{"post /items": {{Latency: 1, Times: 2}, {Latency: 2}}}, "POST /items", []time.Duration{1, 1, 2, -1}},
		{"another route's faults stay", map[string][]Fault{"GET /items/{id}": {{Latency: 1}}}, "POST /items", []time.Duration{-1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			api := newMini(t, t, nil).api
			for route, faults := range tc.inject {
				for _, f := range faults {
					api.Inject(route, f)
				}
			}
			for i, want := range tc.want {
				f, ok := api.TakeFault(tc.take, "")
				if got := map[bool]time.Duration{true: f.Latency, false: -1}[ok]; got != want {
					t.Fatalf("take %d: %v, want %v", i, got, want)
				}
			}
		})
	}
}

// A fault that spares retries skips a request whose last try drew a
// fault, and waits for the next request: however requests interleave, a
// retry never meets two faults in a row. Zero faults (places in a sequence)
// are taken by anyone; without SparesRetry a retry takes the next fault.
func TestFaultSparesRetry(t *testing.T) {
	drop := Fault{DropBeforeHandling: true, SparesRetry: true}
	cases := []struct {
		name   string
		inject []Fault
		takes  []string // request keys, in order
		want   []bool   // whether each take drew a fault that acts
	}{
		{"a retry is spared, the next request takes the fault", []Fault{drop, drop}, []string{"a", "a", "b"}, []bool{true, false, true}},
		{"spared once: the try after draws again", []Fault{drop, drop}, []string{"a", "a", "a"}, []bool{true, false, true}},
		{"a zero fault is taken by a retry", []Fault{drop, {SparesRetry: true}, drop}, []string{"a", "a", "b"}, []bool{true, false, true}},
		{"without SparesRetry a retry takes it", []Fault{{DropBeforeHandling: true}, {DropBeforeHandling: true}}, []string{"a", "a"}, []bool{true, true}},
		{"a request with no key is never spared", []Fault{drop, drop}, []string{"", ""}, []bool{true, true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			api := newMini(t, t, nil).api
			for _, f := range tc.inject {
				api.Inject("GET /items/{id}", f)
			}
			for i, key := range tc.takes {
				f, ok := api.TakeFault("GET /items/{id}", key)
				if got := ok && f.acts(); got != tc.want[i] {
					t.Fatalf("take %d (request %q): drew a fault %v, want %v", i, key, got, tc.want[i])
				}
			}
		})
	}
}

// Each kind of fault through a real connection: an answer instead of the
// handler, a connection dropped before or after handling, latency. The
// latencies are waited through Config.Wait, which records each wait and
// what the handler had done by then: Latency before handling, AnswerLatency
// after it.
func TestFaultsServed(t *testing.T) {
	cases := []struct {
		name    string
		fault   Fault
		status  int // 0: the connection drops
		handled bool
	}{
		{"answer", Fault{Answer: func(route string) Reply {
			rep := miniError(http.StatusServiceUnavailable, "down: %s", route)
			rep.Header = http.Header{"Retry-After": {"2"}}
			return rep
		}}, http.StatusServiceUnavailable, false},
		{"drop before handling", Fault{DropBeforeHandling: true}, 0, false},
		{"drop after handling", Fault{DropAfterHandling: true}, 0, true},
		{"latency", Fault{Latency: 20 * time.Millisecond}, http.StatusCreated, true},
		{"answer latency", Fault{AnswerLatency: 20 * time.Millisecond}, http.StatusCreated, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			type wait struct {
				d       time.Duration
				handled int // requests handled when the wait began
			}
			var mu sync.Mutex
			var waits []wait
			var f *miniFake
			f = newMini(t, t, func(cfg *Config) {
				cfg.Wait = func(_ context.Context, d time.Duration) error {
					mu.Lock()
					defer mu.Unlock()
					waits = append(waits, wait{d, len(f.handledRoutes())})
					return nil
				}
			})
			f.api.Inject("post /items", tc.fault)
			ans, err := f.do(t, "POST", "/items", `{"name":"a"}`)
			if (err != nil) != (tc.status == 0) || ans.status != tc.status {
				t.Fatalf("answer %d, err %v; want status %d", ans.status, err, tc.status)
			}
			var want []wait
			switch {
			case tc.fault.Latency > 0:
				want = []wait{{tc.fault.Latency, 0}}
			case tc.fault.AnswerLatency > 0:
				want = []wait{{tc.fault.AnswerLatency, 1}}
			}
			mu.Lock()
			got := slices.Clone(waits)
			mu.Unlock()
			if !slices.Equal(got, want) {
				t.Fatalf("waits (length, requests handled by then) %v, want %v", got, want)
			}
			if tc.fault.Answer != nil && (ans.header.Get("Retry-After") != "2" || ans.body != `{"message":"down: POST /items"}`) {
				t.Fatalf("answer %v %s", ans.header, ans.body)
			}
			if handled := len(f.handledRoutes()) > 0; handled != tc.handled {
				t.Fatalf("handled = %v, want %v", handled, tc.handled)
			}
			if n := f.api.Requests("POST /items"); n != 1 {
				t.Fatalf("Requests = %d", n)
			}
			if ans, err := f.do(t, "POST", "/items", `{"name":"a"}`); err != nil || ans.status != http.StatusCreated {
				t.Fatalf("the fault was not used up: %d %v", ans.status, err)
			}
		})
	}
}

// A client that gives up while its answer is held has lost the answer, and
// the request was handled: the change is made.
func TestAnswerLatencyOutlivesTheClient(t *testing.T) {
	f := newMini(t, t, nil)
	f.api.Inject("POST /items", Fault{AnswerLatency: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "POST", f.url+"/items", strings.NewReader(`{"name":"a"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Key", testKey)
	done := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			_ = resp.Body.Close()
		}
		done <- err
	}()
	for len(f.handledRoutes()) == 0 {
		select {
		case err := <-done:
			t.Fatalf("answered before the request was handled: %v", err)
		default:
			runtime.Gosched()
		}
	}
	cancel()
	if err := <-done; err == nil {
		t.Fatal("the client that gave up got an answer")
	}
	if got := f.handledRoutes(); len(got) != 1 || got[0] != "POST /items" {
		t.Fatalf("handled %v, want the create", got)
	}
}

// A route outside the spec (a fake's storage URL) plays its faults too; its
// answer is written without validation.
func TestBeforeHandlingOutsideTheSpec(t *testing.T) {
	api := newMini(t, t, nil).api
	w := httptest.NewRecorder()
	f := Fault{Answer: func(string) Reply { return miniError(http.StatusBadGateway, "storage down") }}
	if api.BeforeHandling(w, httptest.NewRequest("PUT", "/_fake/x", nil), nil, "PUT /_fake/x", f) {
		t.Fatal("a fault with an answer let the request through")
	}
	if w.Code != http.StatusBadGateway || api.ValidatedResponses() != 0 {
		t.Fatalf("wrote %d, validated %d", w.Code, api.ValidatedResponses())
	}
	if !api.BeforeHandling(w, httptest.NewRequest("PUT", "/_fake/x", nil), nil, "PUT /_fake/x", Fault{}) {
		t.Fatal("an empty fault stopped the request")
	}
}
