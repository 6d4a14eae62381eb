package rest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func TestAPIErrorBodies(t *testing.T) {
	html := "<html>\n<body>\n<h1>502 Bad Gateway</h1>\n</body>\n</html>"
	huge := strings.Repeat("x", 10<<10)
	cases := []struct {
		name                      string
		status                    int
		body                      string
		wantCode, wantMsg         string
		wantBody                  string // exact; "" means empty
		wantErr                   string
		wantNotFound, wantConflct bool
	}{
		{
			name: "E2B code and message", status: 400, body: `{"code":400,"message":"template not found"}`,
			wantMsg: "template not found", wantErr: "POST /things: 400 Bad Request: template not found",
		},
		{
			name: "E2B error_code", status: 500, body: `{"code":500,"message":"no capacity","error_code":"sandbox_capacity_unavailable"}`,
			wantCode: "sandbox_capacity_unavailable", wantMsg: "no capacity",
			wantErr: "POST /things: 500 Internal Server Error: sandbox_capacity_unavailable: no capacity",
		},
		{
			name: "E2B numeric code that differs from the status", status: 400, body: `{"code":4001,"message":"bad"}`,
			wantCode: "4001", wantMsg: "bad", wantErr: "POST /things: 400 Bad Request: 4001: bad",
		},
		{
			name: "E2B 404", status: 404, body: `{"code":404,"message":"sandbox \"x\" not found"}`,
			wantMsg: `sandbox "x" not found`, wantErr: `POST /things: 404 Not Found: sandbox "x" not found`, wantNotFound: true,
		},
		{
			name: "Daytona NestJS with a string message", status: 409, body: `{"statusCode":409,"message":"Sandbox with name x already exists","error":"Conflict"}`,
			wantMsg: "Sandbox with name x already exists", wantErr: "POST /things: 409 Conflict: Sandbox with name x already exists", wantConflct: true,
		},
		{
			name: "Daytona NestJS validation messages as an array", status: 400, body: `{"statusCode":400,"message":["cpu must be positive","name is required"],"error":"Bad Request"}`,
			wantMsg: "cpu must be positive; name is required", wantErr: "POST /things: 400 Bad Request: cpu must be positive; name is required",
		},
		{
			name: "NestJS error name that is not the status text", status: 403, body: `{"statusCode":403,"message":"Organization is suspended","error":"OrganizationSuspended"}`,
			wantCode: "OrganizationSuspended", wantMsg: "Organization is suspended",
			wantErr: "POST /things: 403 Forbidden: OrganizationSuspended: Organization is suspended",
		},
		{
			name: "Fly error", status: 404, body: `{"error":"machine not found"}`,
			wantMsg: "machine not found", wantErr: "POST /things: 404 Not Found: machine not found", wantNotFound: true,
		},
		{
			name: "non-JSON body is kept and collapsed to one line in the message", status: 502, body: html,
			wantBody: html, wantErr: "POST /things: 502 Bad Gateway: <html> <body> <h1>502 Bad Gateway</h1> </body> </html>",
		},
		{
			name: "huge non-JSON body is truncated", status: 500, body: huge,
			wantBody: strings.Repeat("x", maxErrorBody) + "…(truncated)",
			wantErr:  "POST /things: 500 Internal Server Error: " + strings.Repeat("x", 512) + "…(truncated)",
		},
		{
			name: "JSON without known fields keeps the body", status: 418, body: `{"detail":"teapot"}`,
			wantBody: `{"detail":"teapot"}`, wantErr: `POST /things: 418 I'm a teapot: {"detail":"teapot"}`,
		},
		{
			name: "empty body", status: 403,
			wantErr: "POST /things: 403 Forbidden",
		},
		{
			name: "an echoed credential is redacted", status: 401, body: `{"code":401,"message":"invalid API key ` + testSecret + `"}`,
			wantMsg: "invalid API key ***", wantErr: "POST /things: 401 Unauthorized: invalid API key ***",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, _, _ := restTestServer(t, []http.HandlerFunc{respond(tc.status, tc.body)}, nil)
			resp, err := c.Do(context.Background(), Request{Method: "POST", Path: "/things"}, nil)
			var ae *APIError
			if !errors.As(err, &ae) {
				t.Fatalf("error %v is not an APIError", err)
			}
			if ae.StatusCode != tc.status || ae.Method != "POST" || ae.Path != "/things" {
				t.Errorf("APIError %+v: wrong method, path or status", ae)
			}
			if ae.Code != tc.wantCode || ae.Message != tc.wantMsg || ae.Body != tc.wantBody {
				t.Errorf("APIError code %q message %q body %q; want %q %q %q", ae.Code, ae.Message, ae.Body, tc.wantCode, tc.wantMsg, tc.wantBody)
			}
			if ae.Error() != tc.wantErr {
				t.Errorf("Error() = %q\n want %q", ae.Error(), tc.wantErr)
			}
			if resp == nil || resp.StatusCode != tc.status {
				t.Errorf("response %+v, want status %d", resp, tc.status)
			}
			if IsNotFound(err) != tc.wantNotFound || IsConflict(err) != tc.wantConflct {
				t.Errorf("IsNotFound %v IsConflict %v", IsNotFound(err), IsConflict(err))
			}
			if strings.Contains(err.Error(), testSecret) {
				t.Errorf("error carries the secret: %v", err)
			}
		})
	}
}

func TestIsStatusThroughWrapping(t *testing.T) {
	base := &APIError{Method: "GET", Path: "/x", StatusCode: 404}
	cases := []struct {
		name string
		err  error
		want bool
	}{
		{"bare", base, true},
		{"wrapped", fmt.Errorf("reading sandbox: %w", base), true},
		{"joined with ErrMaybeApplied", fmt.Errorf("%w: %w", base, ErrMaybeApplied), true},
		{"other status", &APIError{StatusCode: 409}, false},
		{"not an API error", errors.New("404"), false},
		{"nil", nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := IsNotFound(tc.err); got != tc.want {
				t.Errorf("IsNotFound = %v, want %v", got, tc.want)
			}
		})
	}
}

// A 2xx body that is not the JSON the caller expects is an error naming the
// request, not a silently empty result.
func TestDoDecodeFailure(t *testing.T) {
	c, _, _ := restTestServer(t, []http.HandlerFunc{respond(200, `{"id":`)}, nil)
	var out struct{ ID string }
	_, err := c.Do(context.Background(), Request{Method: "GET", Path: "/things/1"}, &out)
	if err == nil || !strings.Contains(err.Error(), "GET /things/1: 200: decoding the response body") {
		t.Fatalf("error = %v", err)
	}
}
