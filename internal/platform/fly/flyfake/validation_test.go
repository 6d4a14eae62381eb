package flyfake

import (
	"strings"
	"testing"
)

// A client that breaks the spec (or fly-go's shape, for routes the spec
// lacks) gets a 400 and the fake records a violation.
func TestRejectsMalformedRequests(t *testing.T) {
	cases := []struct {
		name, method, path string
		body               any
		mention            string
	}{
		{"size_gb is a string", "POST", volumes, []byte(`{"name":"d","size_gb":"3"}`), "size_gb"},
		{"env value is a number", "POST", machines, []byte(`{"config":{"image":"a","env":{"A":1}}}`), "/config"},
		{"apps list without org_slug", "GET", "/v1/apps", nil, "org_slug"},
		{"wait for an unknown state", "GET", machines + "/m1/wait?state=sleeping", nil, "state"},
		{"exec with a string timeout", "POST", machines + "/m1/exec", []byte(`{"command":["true"],"timeout":"5"}`), "timeout"},
		{"exec with a command that is not argv", "POST", machines + "/m1/exec", []byte(`{"command":"true"}`), "command"},
		{"PUT update with a string retention (fly-go shape)", "PUT", volumes + "/vol_x", []byte(`{"snapshot_retention":"5"}`), "snapshot_retention"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e, rec := newRecordingEnv(t)
			if r := e.do(tc.method, tc.path, tc.body); r.status != 400 {
				t.Fatalf("status %d %s, want 400", r.status, r.raw)
			}
			errs := rec.recorded()
			if len(errs) != 1 || !strings.Contains(errs[0], tc.mention) {
				t.Fatalf("reported %q, want one violation naming %q", errs, tc.mention)
			}
			if len(e.s.SpecViolations()) != 1 || len(e.s.Volumes())+len(e.s.Machines()) != 0 {
				t.Fatal("violation not recorded, or state changed")
			}
		})
	}
}

// The fake's answers match the spec: every test above would have reported a
// response violation through t.Errorf; this one checks they were validated.
func TestResponsesAreValidated(t *testing.T) {
	e := newEnv(t, nil)
	e.started(map[string]any{})
	e.createVolume(map[string]any{"name": "data"})
	if e.s.ValidatedResponses() < 3 || len(e.s.SpecViolations()) != 0 {
		t.Fatalf("validated %d, violations %q", e.s.ValidatedResponses(), e.s.SpecViolations())
	}
}
