package e2b

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestDefinitionConfigure: Configure builds the client from the settings
// and the provider's hooks: its requests go to api_url with the key, and
// name E2B in the user agent.
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
		Hooks: platform.Hooks{PollInterval: time.Millisecond},
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

// TestDefinitionResolve: the e2b block's settings as Resolve reads them for
// the provider and the orphans command: the key from the block or
// E2B_API_KEY, the tier (base when none is given, as the platform built from
// it says), and each refusal as a SettingError on the setting at fault,
// worded for the user and never holding the key.
func TestDefinitionResolve(t *testing.T) {
	const key = "k3y-in-env"
	def := Definition()
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	tests := []struct {
		name        string
		block       map[string]string // nil: no e2b block
		env         map[string]string
		wantTier    string
		wantSetting string // the setting an error is on; "" = no error
		wantSummary string
		wantDetail  string
	}{
		{name: "key from env, base tier by default", block: map[string]string{}, env: map[string]string{"E2B_API_KEY": key}, wantTier: TierBase},
		{name: "key in block, pro", block: map[string]string{"api_key": "k", "tier": TierPro}, wantTier: TierPro},
		{name: "the block's key wins", block: map[string]string{"api_key": "k"}, env: map[string]string{"E2B_API_KEY": key}, wantTier: TierBase},
		{name: "no key", block: map[string]string{}, wantSetting: "api_key", wantSummary: "No E2B API key",
			wantDetail: "Set e2b { api_key = ... } or the E2B_API_KEY environment variable. Create a key in the E2B dashboard."},
		{name: "no key, no block", wantSetting: "api_key", wantSummary: "No E2B API key",
			wantDetail: "Set the E2B_API_KEY environment variable. Create a key in the E2B dashboard."},
		{name: "bad url", block: map[string]string{"api_url": "not a url"}, env: map[string]string{"E2B_API_KEY": key},
			wantSetting: "api_url", wantSummary: "Unsupported E2B API URL",
			wantDetail: `e2b.api_url = "not a url" is not an absolute http(s) URL, such as https://api.e2b.app.`},
		{name: "bad url from env", block: map[string]string{}, env: map[string]string{"E2B_API_KEY": key, "E2B_API_URL": "ftp://x"},
			wantSetting: "api_url", wantSummary: "Unsupported E2B API URL", wantDetail: `E2B_API_URL = "ftp://x" is not an absolute http(s) URL`},
		{name: "bad tier", block: map[string]string{"tier": "gold"}, env: map[string]string{"E2B_API_KEY": key},
			wantSetting: "tier", wantSummary: "Unsupported E2B tier", wantDetail: `e2b.tier = "gold" is not one of ["base" "pro"].`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := def.Resolve(tt.block, env(tt.env))
			if tt.wantSetting != "" {
				var se *platform.SettingError
				if !errors.As(err, &se) {
					t.Fatalf("Resolve = %v, want a SettingError on %s", err, tt.wantSetting)
				}
				if se.Setting != tt.wantSetting || se.Summary != tt.wantSummary || !strings.Contains(se.Detail, tt.wantDetail) {
					t.Errorf("error on %s: %q: %q; want on %s: %q holding %q", se.Setting, se.Summary, se.Detail,
						tt.wantSetting, tt.wantSummary, tt.wantDetail)
				}
				if strings.Contains(se.Error(), key) {
					t.Errorf("the error holds the key: %v", se)
				}
				return
			}
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			plat, err := def.Configure(context.Background(), cfg)
			if err != nil {
				t.Fatalf("Configure: %v", err)
			}
			t.Cleanup(func() { _ = plat.Close() })
			if e, ok := plat.(*Platform); !ok || plat.Name() != "e2b" || e.Tier() != tt.wantTier {
				t.Errorf("platform %s (%T), want e2b of tier %s", plat.Name(), plat, tt.wantTier)
			}
		})
	}
}
