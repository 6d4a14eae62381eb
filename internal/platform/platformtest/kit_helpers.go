package platformtest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Configure configures def with settings (as the provider block would give
// them), its waits ending at once, for a kit's out-of-band client; the
// platform is closed when t ends.
func Configure(t *testing.T, def platform.Definition, settings map[string]string) platform.Platform {
	t.Helper()
	plat, err := def.Configure(context.Background(), platform.Config{
		Settings: settings, MaxRetries: 3, UserAgent: "sbx-platformtest", Hooks: acctest.NoWaitHooks(),
	})
	if err != nil {
		t.Fatalf("%s: configuring the kit's client: %v", def.Name, err)
	}
	t.Cleanup(func() { _ = plat.Close() })
	return plat
}

// ReadingEnv is def with the named settings read from the given
// environment variables when the block leaves them out: for a setting the
// production definition reads from no variable (Fly's api_url), so that a
// command configured from Env alone reaches the kit's instance.
func ReadingEnv(def platform.Definition, envOf map[string]string) platform.Definition {
	settings := slices.Clone(def.Settings)
	for i := range settings {
		if env, ok := envOf[settings[i].Name]; ok && !slices.Contains(settings[i].Env, env) {
			settings[i].Env = append(slices.Clone(settings[i].Env), env)
		}
	}
	def.Settings = settings
	return def
}

// AgentFiles are the files the quickstart agent writes at start, from its
// AGENT_FILES variable: see fakeapi.AgentFiles.
func AgentFiles(env map[string]string) map[string]string { return fakeapi.AgentFiles(env) }

// PostJSON sends body as JSON to url with header, as a client of the
// platform's API other than the provider would, and decodes the answer
// into out (nil: the answer has no body); an answer other than 2xx fails t.
func PostJSON(t *testing.T, url string, header http.Header, body, out any) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header.Clone()
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("POST %s: reading the answer: %v", url, err)
	}
	if resp.StatusCode/100 != 2 {
		t.Fatalf("POST %s: %s: %s", url, resp.Status, raw)
	}
	if out == nil {
		return // an answer with no body (Fly's snapshot create)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("POST %s: decoding %s: %v", url, raw, err)
	}
}
