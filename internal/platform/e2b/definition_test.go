package e2b

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestDefinitionConfigure: Configure builds the client from the settings
// and the provider's hooks: its requests go through the hooks' HTTP client
// to api_url with the key, and name E2B in the user agent.
func TestDefinitionConfigure(t *testing.T) {
	var mu sync.Mutex
	var got http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = r.Header.Clone()
		mu.Unlock()
		http.Error(w, `{"code":404,"message":"no such sandbox"}`, http.StatusNotFound)
	}))
	t.Cleanup(srv.Close)
	def := Definition()
	if def.Name != "e2b" || def.Default || !def.Retries || def.TierOverrides == nil || len(def.Retention) == 0 {
		t.Errorf("definition = %+v", def)
	}
	plat, err := def.Configure(context.Background(), platform.Config{
		Settings:   map[string]string{"api_key": "k1", "api_url": srv.URL, "tier": TierPro},
		MaxRetries: 0, UserAgent: "terraform-provider-sbx/test",
		Hooks: platform.Hooks{HTTPClient: srv.Client(), PollInterval: time.Millisecond},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := plat.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	if e, ok := plat.(*Platform); !ok || e.Tier() != TierPro {
		t.Errorf("platform %#v, want E2B of tier pro", plat)
	}
	_, _ = plat.Sandboxes().Get(context.Background(), "sbx1") // the answer does not matter, the request does
	mu.Lock()
	defer mu.Unlock()
	if got.Get("X-API-Key") != "k1" || got.Get("User-Agent") != "terraform-provider-sbx/test (+e2b)" {
		t.Errorf("request headers: key %q, user agent %q", got.Get("X-API-Key"), got.Get("User-Agent"))
	}
}

// TestDefinitionAPIURL: api_url is the API root, from the block or
// E2B_API_URL (as E2B's SDKs read it), and must be an absolute http(s) URL.
func TestDefinitionAPIURL(t *testing.T) {
	def := Definition()
	s, ok := def.Setting("api_url")
	if !ok || len(s.Env) != 1 || s.Env[0] != "E2B_API_URL" {
		t.Fatalf("api_url = %+v", s)
	}
	for _, v := range []string{DefaultAPIURL, "http://127.0.0.1:8080", "https://e2b.internal/api/"} {
		if err := s.Validate(v); err != nil {
			t.Errorf("%s: %v", v, err)
		}
	}
	for _, v := range []string{"not a url", "api.e2b.app", "ftp://x", "https://x/?a=b", "https://x/#f"} {
		if err := s.Validate(v); err == nil {
			t.Errorf("%s accepted", v)
		}
	}
	cfg, err := def.Resolve(nil, func(k string) string {
		return map[string]string{"E2B_API_KEY": "k", "E2B_API_URL": "http://127.0.0.1:1"}[k]
	})
	if err != nil || cfg.Settings["api_url"] != "http://127.0.0.1:1" || cfg.From["api_key"] != "E2B_API_KEY" {
		t.Errorf("Resolve = %+v, %v", cfg, err)
	}
}
