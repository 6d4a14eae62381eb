package provider

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestNewE2BPlatform(t *testing.T) {
	tests := []struct {
		name    string
		env     string
		block   e2bBlockModel
		wantErr string
		maxTO   time.Duration
	}{
		{name: "key from env, base tier by default", env: "envkey", block: e2bBlockModel{}, maxTO: time.Hour},
		{name: "key in block, pro", block: e2bBlockModel{APIKey: types.StringValue("k"), Tier: types.StringValue("pro")}, maxTO: 24 * time.Hour},
		{name: "no key", block: e2bBlockModel{}, wantErr: "No E2B API key"},
		{name: "unknown url", env: "k", block: e2bBlockModel{APIURL: types.StringUnknown()}, wantErr: "Unknown E2B setting"},
		{name: "bad url", env: "k", block: e2bBlockModel{APIURL: types.StringValue("not a url")}, wantErr: "Invalid E2B configuration"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("E2B_API_KEY", tt.env)
			var diags diag.Diagnostics
			plat := newE2BPlatform(&tt.block, 4, "test", &diags)
			if tt.wantErr != "" {
				if !diags.HasError() || !strings.Contains(diags.Errors()[0].Summary(), tt.wantErr) {
					t.Fatalf("diags = %v, want %q", diags, tt.wantErr)
				}
				for _, d := range diags {
					if strings.Contains(d.Detail(), "envkey") {
						t.Errorf("a diagnostic holds the key: %s", d.Detail())
					}
				}
				return
			}
			if diags.HasError() || plat == nil {
				t.Fatalf("diags = %v", diags)
			}
			if plat.Name() != "e2b" || plat.Capabilities().MaxTimeout != tt.maxTO {
				t.Errorf("platform %s, max timeout %s; want e2b, %s", plat.Name(), plat.Capabilities().MaxTimeout, tt.maxTO)
			}
		})
	}
}
