package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestProviderConfigureE2B configures the provider with e2b blocks (no
// request is made): the key from the block or E2B_API_KEY, the tier, and
// the errors, each on the attribute at fault, none holding the key.
func TestProviderConfigureE2B(t *testing.T) {
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	unknown := tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	tests := []struct {
		name     string
		env      map[string]string
		block    map[string]tftypes.Value
		wantTier string
		wantErr  string
		wantPath string // "" : a general error
		wantIn   string // in the error's detail
	}{
		{name: "key from env, base tier by default", env: map[string]string{"E2B_API_KEY": "envkey"},
			block: map[string]tftypes.Value{}, wantTier: "base"},
		{name: "key in block, pro", block: map[string]tftypes.Value{"api_key": str("k"), "tier": str("pro")}, wantTier: "pro"},
		{name: "url from env", env: map[string]string{"E2B_API_KEY": "envkey", "E2B_API_URL": "http://127.0.0.1:1"},
			block: map[string]tftypes.Value{}, wantTier: "base"},
		{name: "no key", block: map[string]tftypes.Value{}, wantErr: "No E2B API key", wantPath: "e2b.api_key",
			wantIn: "Set e2b { api_key = ... } or the E2B_API_KEY environment variable. Create a key in the E2B dashboard."},
		{name: "empty key, none in env", block: map[string]tftypes.Value{"api_key": str("")}, wantErr: "No E2B API key", wantPath: "e2b.api_key"},
		{name: "unknown key", block: map[string]tftypes.Value{"api_key": unknown}, wantErr: "Unknown E2B API key", wantPath: "e2b.api_key",
			wantIn: "e2b.api_key depends on a value known only after apply; the provider needs it to plan. Set it to a known value or use E2B_API_KEY."},
		{name: "unknown url", env: map[string]string{"E2B_API_KEY": "envkey"}, block: map[string]tftypes.Value{"api_url": unknown},
			wantErr: "Unknown E2B API URL", wantPath: "e2b.api_url"},
		{name: "bad url", env: map[string]string{"E2B_API_KEY": "envkey"}, block: map[string]tftypes.Value{"api_url": str("not a url")},
			wantErr: "Unsupported E2B API URL", wantPath: "e2b.api_url", wantIn: `e2b.api_url = "not a url" is not an absolute http(s) URL`},
		{name: "bad url from env", env: map[string]string{"E2B_API_KEY": "envkey", "E2B_API_URL": "ftp://x"}, block: map[string]tftypes.Value{},
			wantErr: "Unsupported E2B API URL", wantIn: `E2B_API_URL = "ftp://x" is not an absolute http(s) URL`},
		{name: "url with a query", env: map[string]string{"E2B_API_KEY": "envkey"}, block: map[string]tftypes.Value{"api_url": str("https://x/?a=1")},
			wantErr: "Unsupported E2B API URL", wantPath: "e2b.api_url", wantIn: "carries a query or fragment"},
		{name: "bad tier", env: map[string]string{"E2B_API_KEY": "envkey"}, block: map[string]tftypes.Value{"tier": str("gold")},
			wantErr: "Unsupported E2B tier", wantPath: "e2b.tier", wantIn: `e2b.tier = "gold" is not one of ["base" "pro"].`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, k := range []string{"E2B_API_KEY", "E2B_API_URL"} {
				t.Setenv(k, tt.env[k])
			}
			p := providerTestNew(t, "test", Options{Hooks: testAccHooks})
			resp := providerTestConfigure(t, p, map[string]map[string]tftypes.Value{"e2b": tt.block}, nil)
			for _, d := range resp.Diagnostics {
				if strings.Contains(d.Detail(), "envkey") || strings.Contains(d.Summary(), "envkey") {
					t.Errorf("a diagnostic holds the key: %s: %s", d.Summary(), d.Detail())
				}
			}
			if tt.wantErr != "" {
				providerTestWantError(t, resp.Diagnostics, tt.wantErr, tt.wantPath, tt.wantIn)
				return
			}
			plat := providerTestPlatform(t, resp)
			tiered, ok := plat.(interface{ Tier() string })
			if plat.Name() != "e2b" || !ok || tiered.Tier() != tt.wantTier {
				t.Errorf("platform %s (%T), want e2b of tier %s", plat.Name(), plat, tt.wantTier)
			}
		})
	}
}

// TestProviderE2BBlockSchema: the e2b block's attributes, as the docs show
// them: the key sensitive, and each default named.
func TestProviderE2BBlockSchema(t *testing.T) {
	block := providerTestBlockAttrs(t, "e2b")
	if !block["api_key"].IsSensitive() || block["api_url"].IsSensitive() || block["tier"].IsSensitive() {
		t.Errorf("only api_key must be sensitive")
	}
	for name, want := range map[string]string{
		"api_key": "E2B API key, sent as `X-API-Key`. Never logged. Defaults to the `E2B_API_KEY` environment variable.",
		"api_url": "E2B API root. Defaults to the `E2B_API_URL` environment variable, else `https://api.e2b.app`.",
		"tier":    "Your E2B plan, `base` (default) or `pro`.",
	} {
		if got := block[name].GetMarkdownDescription(); !strings.HasPrefix(got, want) {
			t.Errorf("e2b.%s description = %q, want %q", name, got, want)
		}
	}
}
