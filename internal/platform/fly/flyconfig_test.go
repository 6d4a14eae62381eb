package fly

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestParseAccessToken: the access_token of config.yml as flyctl (through
// yaml.v3) writes it, and a clear error, without the file's text, for
// anything this reader does not take.
func TestParseAccessToken(t *testing.T) {
	cases := []struct {
		name, file, want, wantErr string
	}{
		{name: "plain", file: "access_token: fm2_abc\nauto_update: true\n", want: "fm2_abc"},
		{name: "macaroon with space and commas", file: "access_token: FlyV1 fm2_a+b/c=,fm2_d==\n", want: "FlyV1 fm2_a+b/c=,fm2_d=="},
		{name: "among flyctl's keys", file: "---\n# written by flyctl\nauto_update: true\nlast_update_check: 2026-01-02T03:04:05Z\n" +
			"wire_guard_state:\n    personal:\n        access_token: nested-not-this\n" +
			"access_token: top\nmetrics_token: m\nsend_metrics: true\n", want: "top"},
		{name: "sequence at the key's indentation", file: "orgs:\n- a\n- b: c\naccess_token: tok\n", want: "tok"},
		{name: "double quoted", file: "access_token: \"a: b #c\\\"d\"\n", want: "a: b #c\"d"},
		{name: "single quoted", file: "access_token: 'it''s # x' # comment\n", want: "it's # x"},
		{name: "trailing comment", file: "access_token: tok # saved by fly auth login\n", want: "tok"},
		{name: "CRLF and BOM", file: "\ufeffaccess_token: tok\r\nsend_metrics: true\r\n", want: "tok"},
		{name: "logged out", file: "access_token: \"\"\nauto_update: true\n", want: ""},
		{name: "null", file: "access_token: null\n", want: ""},
		{name: "empty", file: "access_token:\n", want: ""},
		{name: "no key", file: "auto_update: true\n", want: ""},
		{name: "empty file", file: "", want: ""},
		{name: "unterminated double quote", file: "access_token: \"secret-x\n", wantErr: "line 1: the double-quoted value does not end on its line"},
		{name: "unterminated single quote", file: "auto_update: true\naccess_token: 'secret-x\n", wantErr: "line 2: the single-quoted value does not end"},
		{name: "continued on the next line", file: "access_token: secret-x\n  secret-y\n", wantErr: "line 2 continues the value over several lines"},
		{name: "a sequence", file: "access_token:\n- secret-x\n", wantErr: "line 2 continues the value over several lines"},
		{name: "block scalar", file: "access_token: |\n  secret-x\n", wantErr: "line 1: the value is not a plain or quoted string"},
		{name: "flow mapping", file: "access_token: {a: secret-x}\n", wantErr: "line 1: the value is not a plain or quoted string"},
		{name: "twice", file: "access_token: a\naccess_token: secret-x\n", wantErr: "line 2 sets access_token a second time"},
		{name: "not a mapping", file: "secret-x\n", wantErr: "line 1 is not a `key: value` line"},
		{name: "no space after colon", file: "access_token:secret-x\n", wantErr: "line 1 is not a `key: value` line"},
		{name: "binary", file: "access_token: \xff\xfe\n", wantErr: "not UTF-8 text"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseAccessToken([]byte(c.file))
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want %q", err, c.wantErr)
				}
				if strings.Contains(err.Error(), "secret-") {
					t.Errorf("err shows the file's text: %v", err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("= %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

// TestAPIToken: the configured token (block or environment, as Resolve
// found it) wins, else the access_token of $FLY_CONFIG_DIR/config.yml or
// ~/.fly/config.yml; a missing file is no token, an unreadable one an
// error naming it; errors are SettingErrors on api_token without a token.
func TestAPIToken(t *testing.T) {
	home := t.TempDir()
	custom := t.TempDir()
	write := func(t *testing.T, dir, text string) {
		t.Helper()
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "config.yml"), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	homeFile := filepath.Join(home, ".fly", "config.yml")
	cases := []struct {
		name       string
		configured string
		configDir  string            // FLY_CONFIG_DIR
		files      map[string]string // dir -> config.yml
		dirAtFile  bool              // ~/.fly/config.yml is a directory
		homeErr    error
		want       string
		wantErr    []string
	}{
		{name: "configured wins", configured: "from-block", files: map[string]string{filepath.Join(home, ".fly"): "access_token: f\n"}, want: "from-block"},
		{name: "configured ignores a garbled file", configured: "from-env", files: map[string]string{filepath.Join(home, ".fly"): "garbled\n"}, want: "from-env"},
		{name: "home file", files: map[string]string{filepath.Join(home, ".fly"): "access_token: from-home\n"}, want: "from-home"},
		{name: "FLY_CONFIG_DIR", configDir: custom,
			files: map[string]string{custom: "access_token: from-custom\n", filepath.Join(home, ".fly"): "access_token: from-home\n"}, want: "from-custom"},
		{name: "FLY_CONFIG_DIR without a file", configDir: filepath.Join(custom, "none"),
			files:   map[string]string{filepath.Join(home, ".fly"): "access_token: from-home\n"},
			wantErr: []string{"No Fly.io API token", filepath.Join(custom, "none", "config.yml") + " (there is no such file)"}},
		{name: "no file", wantErr: []string{"No Fly.io API token", "FLY_ACCESS_TOKEN or FLY_API_TOKEN", "fly { api_token = ... }",
			"`fly auth login`", homeFile + " (there is no such file)", "fly tokens create"}},
		{name: "logged out", files: map[string]string{filepath.Join(home, ".fly"): "access_token: \"\"\n"},
			wantErr: []string{"No Fly.io API token", homeFile + " (it holds no access_token)"}},
		{name: "unreadable", dirAtFile: true, wantErr: []string{"Unreadable Fly.io config file", "cannot read " + homeFile + ": is a directory"}},
		{name: "garbled", files: map[string]string{filepath.Join(home, ".fly"): "access_token: 'secret-x\n"},
			wantErr: []string{"Unreadable Fly.io config file", "cannot read the access_token of " + homeFile + ": line 1", "FLY_ACCESS_TOKEN"}},
		{name: "no home", homeErr: errors.New("$HOME is not defined"), wantErr: []string{"No Fly.io API token", "cannot find the home directory"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, dir := range []string{filepath.Join(home, ".fly"), custom} {
				if err := os.RemoveAll(dir); err != nil {
					t.Fatal(err)
				}
			}
			for dir, text := range c.files {
				write(t, dir, text)
			}
			if c.dirAtFile {
				if err := os.MkdirAll(homeFile, 0o700); err != nil {
					t.Fatal(err)
				}
			}
			getenv := func(k string) string {
				if k == "FLY_CONFIG_DIR" {
					return c.configDir
				}
				return ""
			}
			homeDir := func() (string, error) { return home, c.homeErr }
			got, err := apiToken(c.configured, getenv, homeDir)
			if len(c.wantErr) > 0 {
				var se *platform.SettingError
				if !errors.As(err, &se) || se.Setting != "api_token" {
					t.Fatalf("err %v, want a SettingError on api_token", err)
				}
				for _, w := range c.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("err %v, want %q", err, w)
					}
				}
				if strings.Contains(err.Error(), "secret-") || strings.Contains(err.Error(), "from-") {
					t.Errorf("err shows a token: %v", err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("= %q, %v; want %q", got, err, c.want)
			}
		})
	}
}
