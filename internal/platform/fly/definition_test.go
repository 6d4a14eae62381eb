package fly

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// TestCapabilities: every row exists, every refused row says why, every
// Doc follows Attribute.Doc's rules, and the rows the issue names are as
// built.
func TestCapabilities(t *testing.T) {
	caps := capabilities()
	for _, k := range platform.AllAttributes() {
		row, ok := caps.Attributes[k]
		if !ok {
			t.Errorf("%s has no row", k)
			continue
		}
		if row.Support == platform.Refused && row.Why == "" {
			t.Errorf("%s is refused without a Why", k)
		}
		if d := row.Doc; d != "" && (strings.HasSuffix(d, ".") || strings.ToLower(d[:1]) != d[:1]) {
			t.Errorf("%s: Doc %q is not lower-case without a final period", k, d)
		}
	}
	cases := []struct {
		key  string
		want platform.Support
	}{
		{platform.AttrTemplateImage, platform.Replace},
		{platform.AttrTemplateDockerfile, platform.Refused},
		{platform.AttrSandboxState, platform.InPlace},
		{platform.AttrSandboxRegion, platform.Replace},
		{platform.AttrSandboxCPUCount, platform.InPlace},
		{platform.AttrSandboxMemoryMB, platform.InPlace},
		{platform.AttrSandboxEnv, platform.InPlace},
		{platform.AttrSandboxLabels, platform.InPlace},
		{platform.AttrSandboxVolumeMount, platform.Replace},
		{platform.AttrSandboxTimeout, platform.Refused},
		{platform.AttrSandboxFromSnapshotID, platform.Refused},
		{platform.AttrVolumeSizeGB, platform.InPlace},
		{platform.AttrVolumeSnapshotRetention, platform.InPlace},
		{platform.AttrVolumeFromSnapshotID, platform.Replace},
		{platform.AttrVolumeLabels, platform.Refused},
		{platform.AttrSnapshotVolumeID, platform.Replace},
		{platform.AttrSnapshotSandboxID, platform.Refused},
		{platform.AttrSnapshotTTL, platform.Refused},
	}
	for _, c := range cases {
		if got := caps.Attribute(c.key).Support; got != c.want {
			t.Errorf("%s: %s, want %s", c.key, got, c.want)
		}
	}
	if !strings.Contains(caps.Attribute(platform.AttrTemplateDockerfile).Why, "image") ||
		!strings.Contains(caps.Attribute(platform.AttrSnapshotSandboxID).Why, "volume_id") {
		t.Error("dockerfile's Why must name image, sandbox_id's volume_id")
	}
	if r := caps.Attribute(platform.AttrVolumeSizeGB); !r.GrowOnly {
		t.Error("size_gb is not GrowOnly")
	}
	if r := caps.Attribute(platform.AttrSandboxVolumeMount); r.Max != 1 {
		t.Error("volume_mount Max is not 1")
	}
	if caps.SnapshotDelete || !caps.SnapshotCreatedAt || !caps.SnapshotSize || !caps.SnapshotSourceReported || !caps.SnapshotListsBySource || !caps.EnforcesDeadlines {
		t.Errorf("flags %+v", caps)
	}
}

func TestDefinition(t *testing.T) {
	def := Definition()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	// configure falls back on flyctl's config file: keep the real one out.
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("FLY_CONFIG_DIR", "")
	cases := []struct {
		name    string
		block   map[string]string
		env     map[string]string
		file    string // ~/.fly/config.yml; "" for none
		want    map[string]string
		wantErr string
	}{
		{name: "from env, access token", env: map[string]string{"FLY_ACCESS_TOKEN": "t", "FLY_APP": "a", "FLY_REGION": "ams"},
			want: map[string]string{"api_token": "t", "app": "a", "region": "ams"}},
		{name: "from env, api token", env: map[string]string{"FLY_API_TOKEN": "t1", "FLY_APP": "a"},
			want: map[string]string{"api_token": "t1"}},
		// flyctl: env.First(FLY_ACCESS_TOKEN, FLY_API_TOKEN).
		{name: "access token first", env: map[string]string{"FLY_API_TOKEN": "t1", "FLY_ACCESS_TOKEN": "t2", "FLY_APP": "a"},
			want: map[string]string{"api_token": "t2"}},
		{name: "block before env", block: map[string]string{"api_token": "b"}, env: map[string]string{"FLY_ACCESS_TOKEN": "t2", "FLY_APP": "a"},
			want: map[string]string{"api_token": "b"}},
		{name: "env before the config file", env: map[string]string{"FLY_API_TOKEN": "t1", "FLY_APP": "a"},
			file: "access_token: from-file\n", want: map[string]string{"api_token": "t1"}},
		{name: "config file is the last fallback", block: map[string]string{"app": "a"}, file: "access_token: from-file\n"},
		{name: "no app", block: map[string]string{"api_token": "t"}, wantErr: "FLY_APP"},
		{name: "no token", block: map[string]string{"app": "a"},
			wantErr: "No Fly.io API token: Set fly { api_token = ... } or the FLY_ACCESS_TOKEN or FLY_API_TOKEN environment variable, " +
				"or log in with `fly auth login`, which saves a token in " + filepath.Join(home, ".fly", "config.yml") + " (there is no such file)"},
		{name: "no token in the config file", block: map[string]string{"app": "a"}, file: "auto_update: true\n",
			wantErr: "(it holds no access_token)"},
		{name: "garbled config file", block: map[string]string{"app": "a"}, file: "access_token: \"secret-x\n",
			wantErr: "Unreadable Fly.io config file: cannot read the access_token of " + filepath.Join(home, ".fly", "config.yml") + ": line 1"},
		{name: "bad url", block: map[string]string{"api_token": "t", "app": "a", "api_url": "ftp://x"}, wantErr: "absolute http"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(home, ".fly")
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			if c.file != "" {
				if err := os.MkdirAll(dir, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "config.yml"), []byte(c.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			cfg, err := def.Resolve(c.block, env(c.env))
			if err == nil {
				for k, v := range c.want {
					if cfg.Settings[k] != v {
						t.Errorf("%s = %q, want %q", k, cfg.Settings[k], v)
					}
				}
				var p platform.Platform
				if p, err = def.Configure(context.Background(), cfg); err == nil {
					if p.Name() != "fly" {
						t.Errorf("name %q", p.Name())
					}
					_ = p.Close()
				}
			}
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want %q", err, c.wantErr)
				}
				if strings.Contains(err.Error(), "secret-x") {
					t.Errorf("err shows the token: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
		})
	}
	if s, _ := def.Setting("api_token"); !s.Sensitive || s.Required ||
		s.DefaultsSentence() != "Defaults to the first set of the `FLY_ACCESS_TOKEN`, `FLY_API_TOKEN` environment variables, "+
			"else the `access_token` of `~/.fly/config.yml` (`$FLY_CONFIG_DIR/config.yml` when set) that `fly auth login` writes." {
		t.Errorf("api_token = %+v, %q", s, s.DefaultsSentence())
	}
	if !def.Retries || !strings.Contains(def.Description, "never deletes an app") {
		t.Error("definition: Retries and the app note")
	}
}

// TestAuthScheme: macaroon tokens go as FlyV1, others as Bearer (fly-go
// auth.go).
func TestAuthScheme(t *testing.T) {
	for token, scheme := range map[string]string{"fm2_abc": "FlyV1", "fm1r_x,fm2_y": "FlyV1", "plain": "Bearer"} {
		got := rest.AuthByTokenPrefix(token, rest.TokenScheme{Prefix: "fm1r_", Scheme: "FlyV1"}, rest.TokenScheme{Prefix: "fm2_", Scheme: "FlyV1"})
		if got.Scheme != scheme {
			t.Errorf("%s: %s, want %s", token, got.Scheme, scheme)
		}
	}
	if _, err := New(Config{App: "a"}); err == nil {
		t.Error("no token accepted")
	}
	var unsup *platform.UnsupportedError
	if _, err := (templates{}).Create(context.Background(), platform.TemplateSpec{Dockerfile: "FROM x"}); !errors.As(err, &unsup) {
		t.Errorf("dockerfile template: %v", err)
	}
}
