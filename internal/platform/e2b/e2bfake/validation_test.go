package e2bfake

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"
)

// The fake must catch a client that breaks the spec: the violation goes to
// t.Errorf (recorded here instead of failing) and the client gets a 400.
func TestE2BFakeRejectsMalformedRequests(t *testing.T) {
	cases := []struct {
		name    string
		method  string
		path    string
		body    any
		status  int
		mention string
	}{
		{"timeout is not an integer", "POST", "/sandboxes", `{"templateID":"base","timeout":"abc"}`, http.StatusBadRequest, "timeout"},
		{"templateID missing", "POST", "/sandboxes", `{"timeout":60}`, http.StatusBadRequest, "templateID"},
		{"negative timeout", "POST", "/sandboxes", `{"templateID":"base","timeout":-1}`, http.StatusBadRequest, "timeout"},
		{"metadata value not a string", "POST", "/sandboxes", `{"templateID":"base","timeout":60,"metadata":{"a":1}}`, http.StatusBadRequest, "metadata"},
		{"connect without timeout", "POST", "/sandboxes/i123/connect", `{}`, http.StatusBadRequest, "timeout"},
		{"volume name with spaces", "POST", "/volumes", `{"name":"my volume"}`, http.StatusBadRequest, "name"},
		{"limit above 100", "GET", "/snapshots?limit=500", nil, http.StatusBadRequest, "limit"},
		{"unknown sandbox state", "GET", "/v2/sandboxes?state=sleeping", nil, http.StatusBadRequest, "state"},
		{"memoryMB below 128", "POST", "/v3/templates", `{"name":"x","memoryMB":64}`, http.StatusBadRequest, "memoryMB"},
		{"no such route", "GET", "/sandboxes/i1/nothing", nil, http.StatusNotFound, "/sandboxes/i1/nothing"},
		{"create template without body", "POST", "/v3/templates", nil, http.StatusBadRequest, "body"},
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
			t.Logf("reported: %s", errs[0])
			if v := srv.SpecViolations(); len(v) != 1 {
				t.Fatalf("SpecViolations = %q", v)
			}
			if len(srv.Sandboxes())+len(srv.Volumes())+len(srv.Templates()) != 0 {
				t.Fatal("a rejected request changed state")
			}
		})
	}
}

// A response the fake writes that breaks the spec is reported too: this is
// what keeps the fake honest about E2B's shapes.
func TestE2BFakeReportsBadResponses(t *testing.T) {
	cases := []struct {
		name    string
		method  string
		path    string
		rep     reply
		mention string
	}{
		{"detail without required fields", "GET", "/sandboxes/i1", reply{status: 200, body: map[string]any{"sandboxID": "i1"}}, "templateID"},
		{"state outside the enum", "GET", "/sandboxes/i1", reply{status: 200, body: func() sandboxDetailJSON {
			d := detail(&sandbox{id: "i1", templateID: "t", state: "sleeping", cpu: 1, memMB: 128})
			return d
		}()}, "state"},
		{"error body without message", "DELETE", "/sandboxes/i1", reply{status: 404, body: map[string]any{"code": 404}}, "message"},
		{"snapshot list item without names", "GET", "/snapshots", reply{status: 200, body: []map[string]any{{"snapshotID": "a:default"}}}, "names"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recordingTB{TB: t}
			srv := New(rec, Options{APIKey: testKey})
			req := httptest.NewRequest(tc.method, tc.path, nil)
			route, params, err := srv.router.FindRoute(req)
			if err != nil {
				t.Fatal(err)
			}
			input := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route}
			w := httptest.NewRecorder()
			srv.send(w, req, input, tc.rep)
			errs := rec.recorded()
			if len(errs) != 1 || !strings.Contains(errs[0], "response") || !strings.Contains(errs[0], tc.mention) {
				t.Fatalf("reported %q, want one response violation naming %q", errs, tc.mention)
			}
			if srv.ValidatedResponses() != 0 {
				t.Fatal("a bad response counted as validated")
			}
		})
	}
}

func TestE2BFakeAuth(t *testing.T) {
	srv := New(t, Options{APIKey: testKey})
	cases := []struct {
		name string
		key  string
		want int
	}{
		{"missing key", "", http.StatusUnauthorized},
		{"wrong key", "e2b_other", http.StatusUnauthorized},
		{"right key", testKey, http.StatusOK},
	}
	api := newFakeAPI(t, srv)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			api.key = tc.key
			ans := api.must(tc.want, "GET", "/volumes", nil)
			if tc.want == http.StatusUnauthorized {
				var e apiError
				ans.decode(t, &e)
				if e.Code != http.StatusUnauthorized || e.Message == "" {
					t.Fatalf("error body = %s", ans.body)
				}
			}
		})
	}
	api.checkClean()
}

func TestE2BFakeVolumes(t *testing.T) {
	srv := New(t, Options{APIKey: testKey})
	api := newFakeAPI(t, srv)
	var v volumeAndTokenJSON
	api.must(http.StatusCreated, "POST", "/volumes", map[string]any{"name": "cache"}).decode(t, &v)
	api.must(http.StatusBadRequest, "POST", "/volumes", map[string]any{"name": "cache"})
	var got volumeAndTokenJSON
	api.must(http.StatusOK, "GET", "/volumes/"+v.VolumeID, nil).decode(t, &got)
	if got != v || got.Token == "" {
		t.Fatalf("get = %+v, created %+v", got, v)
	}
	var list []volumeJSON
	api.must(http.StatusOK, "GET", "/volumes", nil).decode(t, &list)
	if len(list) != 1 || list[0].Name != "cache" {
		t.Fatalf("list = %+v", list)
	}
	api.readyTemplate("with-volumes")
	api.must(http.StatusBadRequest, "POST", "/sandboxes", map[string]any{"templateID": "with-volumes", "timeout": 5, "volumeMounts": []map[string]string{{"name": "nope", "path": "/d"}}})
	srv.DeleteVolumeOutOfBand(v.VolumeID)
	api.must(http.StatusNotFound, "DELETE", "/volumes/"+v.VolumeID, nil)

	srv.SetVolumesEnabled(false)
	var e apiError
	api.must(http.StatusForbidden, "POST", "/volumes", map[string]any{"name": "later"}).decode(t, &e)
	if !strings.Contains(e.Message, "not enabled") {
		t.Fatalf("403 message = %q", e.Message)
	}
	api.checkClean()
}
