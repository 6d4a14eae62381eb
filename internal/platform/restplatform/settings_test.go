package restplatform

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func TestAPIURLSettingValidate(t *testing.T) {
	validate := APIURLSetting("Acme", "https://api.example.test", "ACME_API_URL").Validate
	tests := []struct {
		value   string
		wantErr string // "" when the value is accepted
	}{
		{"https://api.example.test", ""},
		{"http://localhost:8080/api", ""},
		{"https://api.example.test/", ""},
		{"api.example.test", "is not an absolute http(s) URL, such as https://api.example.test"},
		{"ftp://api.example.test", "is not an absolute http(s) URL"},
		{"https://", "is not an absolute http(s) URL"},
		{"://bad", "is not an absolute http(s) URL"},
		{"https://api.example.test?x=1", "carries a query or fragment"},
		{"https://api.example.test/#top", "carries a query or fragment"},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			err := validate(tt.value)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("validate(%q) = %v, want nil", tt.value, err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("validate(%q) = %v, want an error containing %q", tt.value, err, tt.wantErr)
			}
		})
	}
}

func TestRESTSettings(t *testing.T) {
	tests := []struct {
		got, want platform.Setting
	}{
		{
			got: APIKeySetting("Acme", "X-API-Key", "ACME_API_KEY", "Create a key."),
			want: platform.Setting{Name: "api_key", Title: "API key", Description: "Acme API key, sent as `X-API-Key`. Never logged.",
				Env: []string{"ACME_API_KEY"}, Required: true, Hint: "Create a key.", Sensitive: true},
		},
		{
			got: APIURLSetting("Acme", "https://api.example.test", "ACME_API_URL"),
			want: platform.Setting{Name: "api_url", Title: "API URL", Description: "Acme API root.",
				Fallback: "`https://api.example.test`", Env: []string{"ACME_API_URL"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.want.Name, func(t *testing.T) {
			if (tt.got.Validate != nil) != (tt.want.Name == "api_url") {
				t.Errorf("Validate set = %v", tt.got.Validate != nil)
			}
			got := tt.got
			got.Validate = nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("setting = %+v, want %+v", got, tt.want)
			}
		})
	}
}
