package daytonafake

import (
	"net/http"
	"strings"
	"testing"
)

// The fake must catch a client that breaks the spec: the violation goes to
// t.Errorf (recorded here instead of failing) and the client gets a 400.
func TestRejectsMalformedRequests(t *testing.T) {
	cases := []struct {
		name    string
		method  string
		path    string
		body    any
		status  int
		mention string
	}{
		{"cpu is a string", "POST", "/sandbox", `{"cpu":"two"}`, http.StatusBadRequest, "cpu"},
		{"labels value not a string", "POST", "/sandbox", `{"labels":{"a":1}}`, http.StatusBadRequest, "labels"},
		{"snapshot without name", "POST", "/snapshots", `{"imageName":"ubuntu:22.04"}`, http.StatusBadRequest, "name"},
		{"unknown sandbox class", "POST", "/snapshots", `{"name":"s","imageName":"ubuntu:22.04","sandboxClass":"mainframe"}`, http.StatusBadRequest, "sandboxClass"},
		{"resize below 1", "POST", "/sandbox/x/resize", `{"cpu":0}`, http.StatusBadRequest, "cpu"},
		{"limit above 200", "GET", "/sandbox?limit=500", nil, http.StatusBadRequest, "limit"},
		{"unknown state filter", "GET", "/sandbox?states=sleeping", nil, http.StatusBadRequest, "states"},
		{"snapshot sort unknown", "GET", "/snapshots?sort=size", nil, http.StatusBadRequest, "sort"},
		{"interval not a number", "POST", "/sandbox/x/autostop/soon", nil, http.StatusBadRequest, "interval"},
		{"labels body missing", "PUT", "/sandbox/x/labels", `{}`, http.StatusBadRequest, "labels"},
		{"no such route", "GET", "/sandbox/x/nothing", nil, http.StatusNotFound, "/sandbox/x/nothing"},
		{"execute without command", "POST", "/_fake/toolbox/x/process/execute", `{"cwd":"/"}`, http.StatusBadRequest, "command"},
		{"execute with a string timeout", "POST", "/_fake/toolbox/x/process/execute", `{"command":"true","timeout":"5"}`, http.StatusBadRequest, "timeout"},
		{"the deprecated execute route", "POST", "/toolbox/x/toolbox/process/execute", `{"command":"true"}`, http.StatusNotImplemented, "deprecated"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recordingTB{TB: t}
			srv := New(rec, Options{APIKey: testKey})
			api := newFakeAPI(t, srv)
			ans, err := api.send(tc.method, tc.path, tc.body)
			if err != nil {
				t.Fatal(err)
			}
			if ans.status != tc.status {
				t.Fatalf("status %d, want %d (%s)", ans.status, tc.status, ans.body)
			}
			errs := rec.recorded()
			if len(errs) != 1 || !strings.Contains(errs[0], tc.method) || !strings.Contains(errs[0], tc.mention) {
				t.Fatalf("reported %q, want one violation naming %s and %q", errs, tc.method, tc.mention)
			}
			if v := srv.SpecViolations(); len(v) != 1 {
				t.Fatalf("SpecViolations = %q, want the one reported", v)
			}
		})
	}
}

// Only "Authorization: Bearer <APIKey>" gets in; another organization in
// X-Daytona-Organization-ID is refused. Neither is a spec violation.
func TestAuth(t *testing.T) {
	cases := []struct {
		name   string
		header map[string]string
		status int
	}{
		{"no header", nil, http.StatusUnauthorized},
		{"wrong key", map[string]string{"Authorization": "Bearer nope"}, http.StatusUnauthorized},
		{"not bearer", map[string]string{"Authorization": "Basic " + testKey}, http.StatusUnauthorized},
		{"good key", map[string]string{"Authorization": "Bearer " + testKey}, http.StatusOK},
		{"own organization", map[string]string{"Authorization": "Bearer " + testKey, "X-Daytona-Organization-ID": DefaultOrganizationID}, http.StatusOK},
		{"other organization", map[string]string{"Authorization": "Bearer " + testKey, "X-Daytona-Organization-ID": "00000000-0000-4000-8000-000000000000"}, http.StatusForbidden},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, api, _ := newTest(t, Options{})
			for _, path := range []string{"/volumes", "/api/volumes"} {
				req, err := http.NewRequest("GET", srv.URL()+path, nil)
				if err != nil {
					t.Fatal(err)
				}
				for k, v := range tc.header {
					req.Header.Set(k, v)
				}
				resp, err := api.hc.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				_ = resp.Body.Close()
				if resp.StatusCode != tc.status {
					t.Fatalf("GET %s: %d, want %d", path, resp.StatusCode, tc.status)
				}
			}
			if v := srv.SpecViolations(); len(v) != 0 {
				t.Fatalf("violations: %q", v)
			}
		})
	}
}
