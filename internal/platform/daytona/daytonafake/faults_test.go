package daytonafake

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"
)

// An injected 429 carries the throttler's headers and NestJS's body; the
// throttler defaults to the one guarding the route.
func TestThrottledAnswers(t *testing.T) {
	cases := []struct {
		route, method, path string
		fault               Fault
		throttler           string
		retry               string
	}{
		{"POST /sandbox", "POST", "/sandbox", Fault{Status: 429, RetryAfter: 7}, ThrottlerSandboxCreate, "7"},
		{"POST /sandbox/{sandboxIdOrName}/stop", "POST", "/sandbox/x/stop", Fault{Status: 429}, ThrottlerSandboxLifecycle, "60"},
		{"GET /volumes", "GET", "/volumes", Fault{Status: 429, RetryAfter: 2}, ThrottlerAuthenticated, "2"},
		{"GET /volumes", "GET", "/volumes", Fault{Status: 429, RetryAfter: 3, Throttler: "anonymous"}, "anonymous", "3"},
	}
	for _, tc := range cases {
		t.Run(tc.route+" "+tc.throttler, func(t *testing.T) {
			srv, api, _ := newTest(t, Options{})
			srv.Inject(tc.route, tc.fault)
			ans := api.must(http.StatusTooManyRequests, tc.method, tc.path, map[string]any{})
			for name, want := range map[string]string{
				"Retry-After-" + tc.throttler:           tc.retry,
				"X-RateLimit-Remaining-" + tc.throttler: "0",
				"X-RateLimit-Reset-" + tc.throttler:     tc.retry,
			} {
				if got := ans.header.Get(name); got != want {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
			if ans.header.Get("X-RateLimit-Limit-"+tc.throttler) == "" || ans.header.Get("Retry-After") != "" {
				t.Errorf("headers %v", ans.header)
			}
			var body map[string]any
			if err := json.Unmarshal(ans.body, &body); err != nil {
				t.Fatal(err)
			}
			if body["statusCode"] != float64(429) || body["message"] != "Rate limit exceeded" || body["error"] != "Too Many Requests" {
				t.Errorf("body %s", ans.body)
			}
			if srv.Requests(tc.route) != 1 {
				t.Errorf("Requests = %d", srv.Requests(tc.route))
			}
			api.must(http.StatusOK, "GET", "/volumes", nil) // the fault was used up
			api.checkClean()
		})
	}
}

// Options.CreateRateLimit throttles creates per minute of the clock.
func TestCreateRateLimit(t *testing.T) {
	srv, api, clock := newTest(t, Options{CreateRateLimit: 2})
	api.must(http.StatusOK, "POST", "/sandbox", map[string]any{})
	clock.Advance(20 * time.Second)
	api.must(http.StatusOK, "POST", "/sandbox", map[string]any{})
	ans := api.must(http.StatusTooManyRequests, "POST", "/sandbox", map[string]any{})
	if got := ans.header.Get("Retry-After-sandbox-create"); got != "40" {
		t.Fatalf("Retry-After-sandbox-create = %q, want 40", got)
	}
	clock.Advance(41 * time.Second)
	api.must(http.StatusOK, "POST", "/sandbox", map[string]any{})
	if n := len(srv.Sandboxes()); n != 3 {
		t.Fatalf("%d sandboxes, want 3", n)
	}
	api.checkClean()
}

// A connection dropped before handling changes nothing; one dropped after
// handling leaves the created box behind.
func TestDroppedAnswers(t *testing.T) {
	cases := []struct {
		name  string
		fault Fault
		boxes int
	}{
		{"before handling", Fault{DropBeforeHandling: true}, 0},
		{"after handling", Fault{DropAfterHandling: true}, 1},
		{"latency only", Fault{Latency: 20 * time.Millisecond}, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, api, _ := newTest(t, Options{})
			srv.Inject("POST /sandbox", tc.fault)
			_, err := api.send("POST", "/sandbox", map[string]any{"name": "lost"})
			if dropped := err != nil; dropped != (tc.fault.DropBeforeHandling || tc.fault.DropAfterHandling) {
				t.Fatalf("err = %v", err)
			}
			if n := len(srv.Sandboxes()); n != tc.boxes {
				t.Fatalf("%d boxes, want %d", n, tc.boxes)
			}
			if tc.boxes == 1 {
				api.sandbox("lost")
			}
			if v := srv.SpecViolations(); len(v) != 0 {
				t.Fatalf("violations %q", v)
			}
		})
	}
}
