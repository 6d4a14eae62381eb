package rest

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// A server that refuses a request by quoting it (in its message, in a
// non-JSON body, JSON-escaped, or split over retries) never gets a
// sensitive request value into the error Do returns or into a log line;
// the variable's name stays readable.
func TestDoMasksRequestSecretsEchoedInErrors(t *testing.T) {
	const secret = "hunter2-\"quoted\"-<tag>&more"
	const short = "ab" // below redact.MinLen: masked only as NAME=ab
	body := map[string]any{"templateID": "base", "envVars": map[string]string{"DB_PASSWORD": secret, "LEVEL": short}}
	cases := []struct {
		name  string
		steps []http.HandlerFunc
		want  string // must appear in the error
	}{
		{
			name:  "message quoting the value",
			steps: []http.HandlerFunc{respond(400, `{"code":400,"message":"envVars.DB_PASSWORD: value hunter2-\"quoted\"-<tag>&more is not allowed"}`)},
			want:  "envVars.DB_PASSWORD: value *** is not allowed",
		},
		{
			name:  "message quoting NAME=value pairs",
			steps: []http.HandlerFunc{respond(400, `{"code":400,"message":"bad env DB_PASSWORD=hunter2-\"quoted\"-<tag>&more LEVEL=ab"}`)},
			want:  "bad env DB_PASSWORD=*** LEVEL=***",
		},
		{
			name:  "plain-text body echoing the JSON request",
			steps: []http.HandlerFunc{respond(422, `cannot parse {"envVars":{"DB_PASSWORD":"hunter2-\"quoted\"-\u003ctag\u003e\u0026more"}}`, "Content-Type", "text/plain")},
			want:  `"DB_PASSWORD":"***"`,
		},
		{
			name:  "retried 5xx then a 4xx, both echoing",
			steps: []http.HandlerFunc{respond(503, `{"message":"busy with hunter2-\"quoted\"-<tag>&more"}`), respond(409, `{"message":"conflict: hunter2-\"quoted\"-<tag>&more"}`)},
			want:  "conflict: ***",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			ctx := tflogtest.RootLogger(context.Background(), &buf)
			c, _, _ := restTestServer(t, tc.steps, func(cfg *Config) {
				cfg.SensitiveKeys = []string{"envVars"}
			})
			_, err := c.Do(ctx, Request{Method: "PUT", Path: "/sandboxes", Body: body}, nil)
			if err == nil {
				t.Fatal("want an error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			for _, leak := range []string{"hunter2", "LEVEL=ab", testSecret} {
				if strings.Contains(err.Error(), leak) {
					t.Errorf("the error shows %q: %v", leak, err)
				}
				if strings.Contains(buf.String(), leak) {
					t.Errorf("the logs show %q:\n%s", leak, buf.String())
				}
			}
			if !strings.Contains(buf.String(), "DB_PASSWORD") {
				t.Errorf("the variable's name should stay readable in the logs:\n%s", buf.String())
			}
		})
	}
}
