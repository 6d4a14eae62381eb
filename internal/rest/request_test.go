package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestDoSendsHeaders(t *testing.T) {
	cases := []struct {
		name     string
		auth     Auth
		wantName string
		wantVal  string
	}{
		{"E2B API key", Auth{Header: "X-API-Key", Secret: testSecret}, "X-API-Key", testSecret},
		{"bearer token", Auth{Header: "Authorization", Scheme: "Bearer", Secret: testSecret}, "Authorization", "Bearer " + testSecret},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, srv, _ := restTestServer(t, []http.HandlerFunc{respond(503, ""), respond(200, "{}")}, func(cfg *Config) { cfg.Auth = tc.auth })
			_, err := c.Do(context.Background(), Request{
				Method: "PUT", Path: "/things/1", Body: map[string]int{"n": 1},
				Header: http.Header{"X-Trace": {"abc"}, "User-Agent": {"spoofed"}, tc.wantName: {"spoofed"}},
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			reqs := srv.seen()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want 2", len(reqs))
			}
			for i, r := range reqs { // every attempt, retries included
				checks := map[string]string{
					"User-Agent":   "terraform-provider-sbx/test (+e2b)",
					tc.wantName:    tc.wantVal,
					"Content-Type": "application/json",
					"Accept":       "application/json",
					"X-Trace":      "abc",
				}
				for h, want := range checks {
					if got := r.Header.Values(h); len(got) != 1 || got[0] != want {
						t.Errorf("attempt %d header %s = %q, want %q", i+1, h, got, want)
					}
				}
				if r.Body != `{"n":1}` {
					t.Errorf("attempt %d body %q", i+1, r.Body)
				}
			}
		})
	}
}

func TestDoWithoutBodySendsNoContentType(t *testing.T) {
	c, srv, _ := restTestServer(t, []http.HandlerFunc{respond(204, "")}, nil)
	resp, err := c.Do(context.Background(), Request{Method: "DELETE", Path: "/things/1"}, nil)
	if err != nil || resp.StatusCode != 204 {
		t.Fatalf("Do: %v %+v", err, resp)
	}
	r := srv.seen()[0]
	if r.Header.Get("Content-Type") != "" || r.Body != "" {
		t.Errorf("DELETE without a body sent Content-Type %q body %q", r.Header.Get("Content-Type"), r.Body)
	}
}

func TestDoURLs(t *testing.T) {
	cases := []struct {
		name      string
		basePath  string
		path      string
		query     url.Values
		wantPath  string
		wantQuery string
	}{
		{"plain", "", "/sandboxes", nil, "/sandboxes", ""},
		{"base with a path prefix", "/api/", "/sandbox/abc", nil, "/api/sandbox/abc", ""},
		{"path without a leading slash", "/api", "sandbox", nil, "/api/sandbox", ""},
		{"escaped ID stays escaped", "", "/templates/" + url.PathEscape("a/b c"), nil, "/templates/a%2Fb%20c", ""},
		{"query values are encoded", "", "/v2/sandboxes", url.Values{"metadata": {"user=a&b"}, "limit": {"100"}, "state": {"running", "paused"}},
			"/v2/sandboxes", "limit=100&metadata=user%3Da%26b&state=running&state=paused"},
		{"query in the path merges with Query", "", "/logs?cursor=5", url.Values{"limit": {"1"}}, "/logs", "cursor=5&limit=1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := &script{steps: []http.HandlerFunc{respond(200, "{}")}}
			srv := httptest.NewServer(s)
			defer srv.Close()
			c, err := New(Config{BaseURL: srv.URL + tc.basePath, HTTPClient: srv.Client()})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Do(context.Background(), Request{Method: "GET", Path: tc.path, Query: tc.query}, nil); err != nil {
				t.Fatal(err)
			}
			r := s.seen()[0]
			if r.Path != tc.wantPath || r.RawQuery != tc.wantQuery {
				t.Errorf("server saw %s?%s, want %s?%s", r.Path, r.RawQuery, tc.wantPath, tc.wantQuery)
			}
		})
	}
}

func TestNewValidates(t *testing.T) {
	cases := []struct {
		name    string
		cfg     Config
		wantErr string // "" means valid
	}{
		{"valid", Config{BaseURL: "https://api.e2b.app", Auth: Auth{Header: "X-API-Key", Secret: "k"}}, ""},
		{"no auth is allowed", Config{BaseURL: "http://localhost:3000"}, ""},
		{"empty base URL", Config{}, `BaseURL "" is not an absolute http(s) URL`},
		{"relative base URL", Config{BaseURL: "api.e2b.app"}, `BaseURL "api.e2b.app" is not an absolute http(s) URL`},
		{"base URL with a query", Config{BaseURL: "https://x.io/?a=1"}, "must not carry a query"},
		{"header without secret", Config{BaseURL: "https://x.io", Auth: Auth{Header: "X-API-Key"}}, `Auth.Secret is empty (header "X-API-Key")`},
		{"secret without header", Config{BaseURL: "https://x.io", Auth: Auth{Secret: "k"}}, "no header"},
		{"negative retries", Config{BaseURL: "https://x.io", MaxRetries: -1}, "MaxRetries -1 is negative"},
		{"max below min", Config{BaseURL: "https://x.io", MinWait: 5 * time.Second, MaxWait: time.Second}, "MinWait 5s and MaxWait 1s"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(tc.cfg)
			if tc.wantErr == "" {
				if err != nil || c == nil {
					t.Fatalf("New: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("New error = %v, want %q", err, tc.wantErr)
			}
		})
	}
}

// A redirect to another host is not followed: net/http would forward the
// X-API-Key header to it.
func TestDoRefusesCrossHostRedirect(t *testing.T) {
	other := &script{steps: []http.HandlerFunc{respond(200, "{}")}}
	otherSrv := httptest.NewServer(other)
	defer otherSrv.Close()
	c, srv, _ := restTestServer(t, []http.HandlerFunc{respond(302, "", "Location", otherSrv.URL+"/steal")}, nil)
	_, err := c.Do(context.Background(), Request{Method: "GET", Path: "/things"}, nil)
	if !IsStatus(err, 302) {
		t.Fatalf("error %v, want the 302 as an APIError", err)
	}
	if other.hits() != 0 || srv.hits() != 1 {
		t.Errorf("other host saw %d requests, origin %d", other.hits(), srv.hits())
	}
}

// One Client serves many goroutines (run with -race).
func TestDoConcurrent(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.URL.Path]++
		n := seen[r.URL.Path]
		mu.Unlock()
		if n == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(429)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]string{"id": strings.TrimPrefix(r.URL.Path, "/things/")})
	}))
	defer srv.Close()
	rec := &sleeps{}
	c, err := New(Config{BaseURL: srv.URL, MaxRetries: 2, HTTPClient: srv.Client(), Sleep: rec.sleep, Auth: Auth{Header: "X-API-Key", Secret: testSecret}})
	if err != nil {
		t.Fatal(err)
	}
	const n = 24
	var wg sync.WaitGroup
	errs := make([]string, n)
	for i := range n {
		wg.Go(func() {
			var out struct{ ID string }
			id := strings.Repeat("x", i+1)
			if _, err := c.Do(context.Background(), Request{Method: "POST", Path: "/things/" + id}, &out); err != nil {
				errs[i] = err.Error()
			} else if out.ID != id {
				errs[i] = "got id " + out.ID
			}
		})
	}
	wg.Wait()
	for i, e := range errs {
		if e != "" {
			t.Errorf("goroutine %d: %s", i, e)
		}
	}
	if len(rec.got()) != n {
		t.Errorf("%d waits, want one per goroutine (%d)", len(rec.got()), n)
	}
}
