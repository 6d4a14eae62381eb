package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// Values under the client's sensitive JSON keys (E2B's envVars, tokens) never
// reach a trace line, in a request, a success or an error body, while the rest
// of the body (and the env var names) stays readable.
func TestDoMasksSensitiveKeysInLoggedBodies(t *testing.T) {
	const envSecret, tokenSecret = "env-value-hunter2", "vol-token-zzz"
	cases := []struct {
		name  string
		steps []http.HandlerFunc
		body  any
		want  []string // must appear in the logs
	}{
		{
			name:  "request body envVars",
			body:  map[string]any{"templateID": "base", "envVars": map[string]string{"DB_PASSWORD": envSecret}},
			steps: []http.HandlerFunc{respond(201, `{"sandboxID":"sb1"}`)},
			want:  []string{"DB_PASSWORD", "templateID"},
		},
		{
			name:  "response body token",
			steps: []http.HandlerFunc{respond(201, `{"volumeID":"v1","name":"data","token":"`+tokenSecret+`"}`)},
			want:  []string{"volumeID"},
		},
		{
			name:  "nested in a list",
			steps: []http.HandlerFunc{respond(200, `[{"sandboxID":"a","envVars":{"K":"`+envSecret+`"}}]`)},
			want:  []string{"sandboxID"},
		},
		{
			name:  "error body echoing the request",
			body:  map[string]any{"envVars": map[string]string{"K": envSecret}},
			steps: []http.HandlerFunc{respond(400, `{"code":400,"message":"bad","request":{"envVars":{"K":"`+envSecret+`"}}}`)},
			want:  []string{"request"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			ctx := tflogtest.RootLogger(context.Background(), &buf)
			c, _, _ := restTestServer(t, tc.steps, func(cfg *Config) {
				cfg.SensitiveKeys = []string{"envVars", "token"}
			})
			_, _ = c.Do(ctx, Request{Method: "POST", Path: "/sandboxes", Body: tc.body}, nil)
			logs := buf.String()
			for _, s := range []string{envSecret, tokenSecret} {
				if strings.Contains(logs, s) {
					t.Errorf("a sensitive value reached the logs:\n%s", logs)
				}
			}
			entries, err := tflogtest.MultilineJSONDecode(&buf)
			if err != nil {
				t.Fatal(err)
			}
			var bodies []string
			for _, e := range entries {
				if b, ok := e["http_body"].(string); ok {
					bodies = append(bodies, b)
				}
			}
			all := strings.Join(bodies, "\n")
			if !strings.Contains(all, `"***"`) {
				t.Errorf("no masked value in the traced bodies:\n%s", all)
			}
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("traced bodies lost %q:\n%s", w, all)
				}
			}
		})
	}
}

// Without sensitive keys a body is traced byte for byte.
func TestLogBodyUnchangedWithoutSensitiveKeys(t *testing.T) {
	c := &Client{}
	body, _ := json.Marshal(map[string]string{"token": "x"})
	if got := c.logBody(body); got != string(body) {
		t.Errorf("logBody = %s, want %s", got, body)
	}
}
