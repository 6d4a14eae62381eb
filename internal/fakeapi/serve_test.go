package fakeapi

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// Every request goes through the same steps: route, validate (key and
// shape, in the platform's order), admit, faults, throttle, handle, and the
// answer is validated too. Each case shows one step deciding.
func TestServeHTTP(t *testing.T) {
	refuseAll := func(c *Config) {
		c.Admit = func(*http.Request) (Reply, bool) { return miniError(http.StatusForbidden, "not yours"), false }
	}
	throttleCreates := func(c *Config) {
		c.Throttle = func(route string, _ time.Time) (Reply, bool) {
			return miniError(http.StatusTooManyRequests, "slow down"), route == "POST /items"
		}
	}
	cases := []struct {
		name         string
		change       func(*Config)
		method, path string
		body, key    string
		status       int
		mention      string // in the answer's body
		violation    string // "" for none
		handled      bool
		validated    int
	}{
		{"valid create", nil, "POST", "/items", `{"name":"a"}`, testKey, http.StatusCreated, `"id":"i1"`, "", true, 1},
		{"path parameters unescaped, time from the clock", nil, "GET", "/items/a%20b", "", testKey, http.StatusOK, `"id":"a b","name":"2026-06-01T12:00:00Z"`, "", true, 1},
		{"body breaks the spec", nil, "POST", "/items", `{"name":"a","size":0}`, testKey, http.StatusBadRequest, "request does not match the API spec", "size", false, 1},
		{"no such route", nil, "GET", "/nothing", "", testKey, http.StatusNotFound, "no route GET /nothing", "no such operation in the Mini spec", false, 0},
		{"bad key", nil, "POST", "/items", `{"name":"a"}`, "nope", http.StatusUnauthorized, "who are you", "", false, 1},
		{"bad key and bad body: shape first", nil, "POST", "/items", `{"size":0}`, "nope", http.StatusBadRequest, "does not match", "size", false, 1},
		{"bad key and bad body: key first", func(c *Config) { c.AuthFirst = true }, "POST", "/items", `{"size":0}`, "nope", http.StatusUnauthorized, "who are you", "", false, 1},
		{"operation not served", nil, "GET", "/unserved", "", testKey, http.StatusNotImplemented, "the Mini fake does not serve GET /unserved", "does not serve", false, 1},
		{"admit refuses", refuseAll, "GET", "/items/x", "", testKey, http.StatusForbidden, "not yours", "", false, 1},
		{"throttle answers", throttleCreates, "POST", "/items", `{"name":"a"}`, testKey, http.StatusTooManyRequests, "slow down", "", false, 1},
		{"throttle lets other routes through", throttleCreates, "GET", "/items/x", "", testKey, http.StatusOK, `"id":"x"`, "", true, 1},
		{"served under a base path", func(c *Config) { c.StripPrefix = "/api" }, "GET", "/api/items/x", "", testKey, http.StatusOK, `"id":"x"`, "", true, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recordingTB{TB: t}
			f := newMini(t, rec, tc.change)
			ans, err := f.do(t, tc.method, tc.path, tc.body, tc.key)
			if err != nil {
				t.Fatal(err)
			}
			if ans.status != tc.status || !strings.Contains(ans.body, tc.mention) {
				t.Fatalf("answer %d %s, want %d mentioning %q", ans.status, ans.body, tc.status, tc.mention)
			}
			errs := rec.recorded()
			switch {
			case tc.violation == "" && len(errs) != 0:
				t.Fatalf("reported %q, want nothing", errs)
			case tc.violation != "" && (len(errs) != 1 || !strings.Contains(errs[0], tc.violation) || !strings.HasPrefix(errs[0], "minifake: spec violation: ")):
				t.Fatalf("reported %q, want one violation naming %q", errs, tc.violation)
			}
			if got := len(f.api.SpecViolations()); got != len(errs) {
				t.Fatalf("SpecViolations has %d, reported %d", got, len(errs))
			}
			if handled := len(f.handledRoutes()) > 0; handled != tc.handled {
				t.Fatalf("handled = %v, want %v", handled, tc.handled)
			}
			if got := f.api.ValidatedResponses(); got != tc.validated {
				t.Fatalf("ValidatedResponses = %d, want %d", got, tc.validated)
			}
		})
	}
}

// A reply that breaks the spec still reaches the client, but is reported and
// not counted as validated: this is what keeps a fake honest.
func TestServeHTTPReportsBadResponses(t *testing.T) {
	cases := []struct {
		name    string
		reply   Reply
		mention string
	}{
		{"missing required field", Reply{Status: http.StatusOK, Body: map[string]string{"id": "x"}}, "name"},
		{"error without message", Reply{Status: http.StatusNotFound, Body: map[string]int{"code": 404}}, "message"},
		{"text where JSON is specified", Reply{Status: http.StatusOK, Text: "hello"}, "text/plain"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recordingTB{TB: t}
			f := newMini(t, rec, nil)
			f.answer = &tc.reply
			ans, err := f.do(t, "GET", "/items/x", "")
			if err != nil {
				t.Fatal(err)
			}
			if ans.status != tc.reply.Status {
				t.Fatalf("status %d, want %d", ans.status, tc.reply.Status)
			}
			errs := rec.recorded()
			if len(errs) != 1 || !strings.Contains(errs[0], "response") || !strings.Contains(errs[0], tc.mention) {
				t.Fatalf("reported %q, want one response violation naming %q", errs, tc.mention)
			}
			if f.api.ValidatedResponses() != 0 {
				t.Fatal("a bad response counted as validated")
			}
		})
	}
}
