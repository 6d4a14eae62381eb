package modal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Credentials are looked for where the SDK looks; none at all is a
// configure error (so a plan fails) naming where they can go, and never
// showing what a config file holds.
func TestCheckCredentials(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	active := write("active.toml", "[work]\ntoken_id = \"ak-1\"\ntoken_secret = \"as-1\"\nactive = true\n")
	inactive := write("inactive.toml", "[work]\ntoken_id = \"ak-1\"\ntoken_secret = \"as-1\"\n")
	empty := write("empty.toml", "[work]\nactive = true\nenvironment = \"main\"\n")
	broken := write("broken.toml", "[work\ntoken_secret = \"as-secret-value\"\n")
	home := func() (string, error) { return dir, nil } //nolint:unparam // os.UserHomeDir's signature; no .modal.toml there
	for _, tc := range []struct {
		name     string
		settings map[string]string
		env      map[string]string
		want     string // "" for no error, else the error's summary
		detail   string
	}{
		{name: "block tokens", settings: map[string]string{"token_id": "ak-1", "token_secret": "as-1"}},
		{name: "half a pair is the SDK's to refuse", settings: map[string]string{"token_id": "ak-1"}},
		{name: "oauth in env", env: map[string]string{"MODAL_OAUTH_REFRESH_TOKEN": "r"}},
		{name: "active profile", env: map[string]string{"MODAL_CONFIG_PATH": active}},
		{name: "named profile", env: map[string]string{"MODAL_CONFIG_PATH": inactive, "MODAL_PROFILE": "work"}},
		{name: "nothing at all", want: "No Modal credentials", detail: ".modal.toml does not exist"},
		{name: "no active profile", env: map[string]string{"MODAL_CONFIG_PATH": inactive}, want: "No Modal credentials", detail: "has no active profile"},
		{name: "no such profile", env: map[string]string{"MODAL_CONFIG_PATH": active, "MODAL_PROFILE": "other"}, want: "No Modal credentials", detail: `has no profile "other"`},
		{name: "profile without a token", env: map[string]string{"MODAL_CONFIG_PATH": empty}, want: "No Modal credentials", detail: "holds no token"},
		{name: "broken file", env: map[string]string{"MODAL_CONFIG_PATH": broken}, want: "Unreadable Modal config file", detail: "line 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkCredentials(tc.settings, func(k string) string { return tc.env[k] }, home)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("checkCredentials: %v, want none", err)
				}
				return
			}
			var se *platform.SettingError
			if !errors.As(err, &se) || se.Summary != tc.want || se.Setting != "token_id" || !strings.Contains(se.Detail, tc.detail) {
				t.Fatalf("checkCredentials: %#v, want %q mentioning %q", err, tc.want, tc.detail)
			}
			if strings.Contains(se.Detail, "as-secret-value") {
				t.Errorf("the error shows the config file's content: %s", se.Detail)
			}
		})
	}
}
