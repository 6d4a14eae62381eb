package rest

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// The credential must not reach a log line even where the server echoes it or
// the request carries it, and must not reach the returned error.
func TestDoNeverLogsTheSecret(t *testing.T) {
	echo := `{"code":401,"message":"key ` + testSecret + ` is not valid"}`
	cases := []struct {
		name   string
		auth   Auth
		method string
		steps  []http.HandlerFunc
		hits   int
	}{
		{
			name: "X-API-Key, echoed in a retried 429 and in the final 401", auth: Auth{Header: "X-API-Key", Secret: testSecret}, method: "POST",
			steps: []http.HandlerFunc{respond(429, echo, "Retry-After", "1"), respond(401, echo)}, hits: 2,
		},
		{
			name: "Bearer token, echoed in a success body", auth: Auth{Header: "Authorization", Scheme: "Bearer", Secret: testSecret}, method: "GET",
			steps: []http.HandlerFunc{respond(503, echo), respond(200, `{"token":"`+testSecret+`"}`)}, hits: 2,
		},
		{
			name: "dropped connection", auth: Auth{Header: "X-API-Key", Secret: testSecret}, method: "POST",
			steps: []http.HandlerFunc{drop}, hits: 1,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			ctx := tflogtest.RootLogger(context.Background(), &buf)
			c, srv, _ := restTestServer(t, tc.steps, func(cfg *Config) { cfg.Auth = tc.auth })
			_, err := c.Do(ctx, Request{Method: tc.method, Path: "/sandboxes", Body: map[string]string{"note": "uses " + testSecret}}, nil)
			if srv.hits() != tc.hits {
				t.Fatalf("hits %d, want %d", srv.hits(), tc.hits)
			}
			if err != nil && strings.Contains(err.Error(), testSecret) {
				t.Errorf("error carries the secret: %v", err)
			}
			logs := buf.String()
			if strings.Contains(logs, testSecret) {
				t.Errorf("log output carries the secret:\n%s", logs)
			}
			entries, derr := tflogtest.MultilineJSONDecode(&buf)
			if derr != nil {
				t.Fatal(derr)
			}
			var attempts, masked int
			for _, e := range entries {
				if e["@message"] == "REST attempt" {
					attempts++
					if e["@level"] != "debug" || e["http_method"] != tc.method || e["http_path"] != "/sandboxes" || e["attempt"] != float64(attempts) || e["wait"] == nil {
						t.Errorf("attempt line %v lacks method, path, attempt or wait", e)
					}
				}
				for _, v := range e {
					if s, ok := v.(string); ok && strings.Contains(s, "***") {
						masked++
					}
				}
			}
			if attempts != tc.hits {
				t.Errorf("%d attempt lines for %d attempts:\n%s", attempts, tc.hits, logs)
			}
			if masked == 0 {
				t.Errorf("no masked value in the logs; the bodies should have been traced with the secret masked:\n%s", logs)
			}
		})
	}
}

// Each attempt's debug line carries its status and the wait that follows it.
func TestDoAttemptLogLines(t *testing.T) {
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	c, _, _ := restTestServer(t, []http.HandlerFunc{respond(429, "", "Retry-After", "3"), respond(201, `{}`)}, nil)
	if _, err := c.Do(ctx, Request{Method: "POST", Path: "/sandboxes"}, nil); err != nil {
		t.Fatal(err)
	}
	entries, err := tflogtest.MultilineJSONDecode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	type line struct {
		status, attempt float64
		wait            string
	}
	var got []line
	for _, e := range entries {
		if e["@message"] == "REST attempt" {
			s, _ := e["http_status"].(float64)
			a, _ := e["attempt"].(float64)
			w, _ := e["wait"].(string)
			got = append(got, line{s, a, w})
		}
	}
	want := []line{{429, 1, "3s"}, {201, 2, "0s"}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("attempt lines %+v, want %+v", got, want)
	}
}
