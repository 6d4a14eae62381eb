package platform

import (
	"errors"
	"strings"
	"testing"
)

// definitionTest is a platform with a required credential read from two
// variables, a setting with a fixed set of values, and one its Validate checks.
func definitionTest() Definition {
	return Definition{
		Name: "demo", Title: "Demo",
		Settings: []Setting{
			{Name: "api_key", Title: "API key", Env: []string{"DEMO_KEY", "DEMO_TOKEN"}, Required: true, Sensitive: true,
				Hint: "Make one in the dashboard."},
			{Name: "tier", OneOf: []string{"base", "pro"}, Env: []string{"DEMO_TIER"}},
			{Name: "url", Title: "URL", Env: []string{"DEMO_URL"}, Validate: func(v string) error {
				if !strings.HasPrefix(v, "https://") {
					return errors.New(`"` + v + `" is not https`)
				}
				return nil
			}},
		},
	}
}

func TestDefinitionResolve(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	d := definitionTest()

	cfg, err := d.Resolve(map[string]string{"api_key": "k", "tier": ""}, env("DEMO_KEY", "envkey", "DEMO_TIER", "pro", "DEMO_URL", "https://x"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{"api_key": {"k", "demo.api_key"}, "tier": {"pro", "DEMO_TIER"}, "url": {"https://x", "DEMO_URL"}}
	for name, w := range want {
		if cfg.Settings[name] != w[0] || cfg.From[name] != w[1] {
			t.Errorf("%s = %q from %q, want %q from %q", name, cfg.Settings[name], cfg.From[name], w[0], w[1])
		}
	}

	cfg, err = d.Resolve(nil, env("DEMO_TOKEN", "second"))
	if err != nil || cfg.Settings["api_key"] != "second" || cfg.From["api_key"] != "DEMO_TOKEN" || len(cfg.Settings) != 1 {
		t.Errorf("the second variable: %+v, %v", cfg, err)
	}

	cases := []struct {
		name                     string
		block                    map[string]string
		getenv                   func(string) string
		setting, summary, detail string
	}{
		{"missing, with a block", map[string]string{}, env(), "api_key", "No Demo API key",
			"Set demo { api_key = ... } or the DEMO_KEY or DEMO_TOKEN environment variable. Make one in the dashboard."},
		{"missing, no block", nil, nil, "api_key", "No Demo API key",
			"Set the DEMO_KEY or DEMO_TOKEN environment variable. Make one in the dashboard."},
		{"not one of", map[string]string{"api_key": "k"}, env("DEMO_TIER", "gold"), "tier", "Unsupported Demo tier",
			`DEMO_TIER = "gold" is not one of ["base" "pro"].`},
		{"invalid in the block", map[string]string{"api_key": "k", "url": "http://x"}, env(), "url", "Unsupported Demo URL",
			`demo.url = "http://x" is not https.`},
		{"invalid in the environment", map[string]string{"api_key": "k"}, env("DEMO_URL", "ftp://x"), "url", "Unsupported Demo URL",
			`DEMO_URL = "ftp://x" is not https.`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := d.Resolve(c.block, c.getenv)
			var se *SettingError
			if !errors.As(err, &se) || se.Setting != c.setting || se.Summary != c.summary || se.Detail != c.detail {
				t.Errorf("err = %#v\nwant setting %s, %q, %q", err, c.setting, c.summary, c.detail)
			}
		})
	}

	// A sensitive value outside OneOf is never shown.
	d.Settings[0].OneOf = []string{"a"}
	_, err = d.Resolve(map[string]string{"api_key": "secret-value"}, nil)
	if err == nil || strings.Contains(err.Error(), "secret-value") || !strings.Contains(err.Error(), "(sensitive value)") {
		t.Errorf("err = %v", err)
	}
}

func TestSettingDefaultsSentence(t *testing.T) {
	for _, c := range []struct {
		s    Setting
		want string
	}{
		{Setting{}, ""},
		{Setting{Env: []string{"A"}}, "Defaults to the `A` environment variable."},
		{Setting{Env: []string{"A", "B"}}, "Defaults to the first set of the `A`, `B` environment variables."},
		{Setting{Env: []string{"A"}, Fallback: "the local socket"}, "Defaults to the `A` environment variable, else the local socket."},
		{Setting{Fallback: "`x`"}, "Defaults to `x`."},
	} {
		if got := c.s.DefaultsSentence(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
}

func TestConfigureError(t *testing.T) {
	inner := errors.New("no answer")
	err := error(&ConfigureError{Summary: "Cannot connect to Demo", Err: inner})
	if err.Error() != "Cannot connect to Demo: no answer" || !errors.Is(err, inner) {
		t.Errorf("err = %v", err)
	}
}
