package e2bfake

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

// buildStatus reads a build's status once (each read advances a started
// build by one poll).
func (a *fakeAPI) buildStatus(templateID, buildID string) string {
	a.t.Helper()
	var info templateBuildInfo
	a.must(http.StatusOK, "GET", "/templates/"+templateID+"/builds/"+buildID+"/status", nil).decode(a.t, &info)
	return info.Status
}

// TestE2BFakeBuildPassesThroughItsStates: by default a build answers
// "waiting" until it is started and "building" to at least one status read
// after, before it is "ready" (or "error"); a box cannot start from the
// template until then. Instant builds answer "ready" at the first poll.
func TestE2BFakeBuildPassesThroughItsStates(t *testing.T) {
	cases := []struct {
		name string
		opts Options
		fail bool
		want []string // the status reads after the start
	}{
		{"slow default", Options{}, false, []string{buildBuilding, buildReady, buildReady}},
		{"slow default, failing", Options{}, true, []string{buildBuilding, buildError}},
		{"three polls", Options{BuildPolls: 3}, false, []string{buildBuilding, buildBuilding, buildReady}},
		{"instant", Options{Instant: true}, false, []string{buildReady}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.APIKey = testKey
			srv := New(t, tc.opts)
			api := newFakeAPI(t, srv)
			var created templateRequestResponseV3
			api.must(http.StatusAccepted, "POST", "/v3/templates", map[string]any{"name": "base"}).decode(t, &created)
			if tc.fail {
				srv.FailNextBuild("base", "the step failed")
			}
			if got := api.buildStatus(created.TemplateID, created.BuildID); got != buildWaiting {
				t.Errorf("before its start the build is %q, want %q", got, buildWaiting)
			}
			refuseBox := func(when string) {
				t.Helper()
				ans := api.must(http.StatusNotFound, "POST", "/sandboxes", map[string]any{"templateID": "base", "timeout": 60})
				if want := `tag 'default' does not exist for template 'base'`; !strings.Contains(string(ans.body), want) {
					t.Errorf("%s: a box from the template is answered %s, want E2B's %q", when, ans.body, want)
				}
			}
			refuseBox("while the build waits")
			api.must(http.StatusAccepted, "POST", "/v2/templates/"+created.TemplateID+"/builds/"+created.BuildID, map[string]any{"fromImage": "ubuntu:24.04"})
			for i, want := range tc.want {
				if want != buildReady {
					refuseBox("while the build is " + want)
				}
				if got := api.buildStatus(created.TemplateID, created.BuildID); got != want {
					t.Fatalf("status read %d after the start: %q, want %q", i+1, got, want)
				}
			}
			if !tc.fail {
				api.must(http.StatusCreated, "POST", "/sandboxes", map[string]any{"templateID": "base", "timeout": 60})
			}
			api.checkClean()
		})
	}
}

// TestE2BFakeSelfPauseIsObservedByReads: a box that pauses on its own (its
// timeout with autoPause, or a dashboard user) is "pausing" inside E2B. GET
// and the list show it "paused" at once; until PauseReads reads have seen
// it, the actions E2B refuses on a pausing box are refused as E2B does, and
// a pause is joined (204) where a paused box gets 409.
func TestE2BFakeSelfPauseIsObservedByReads(t *testing.T) {
	starts := []struct {
		name  string
		pause func(srv *Server, clock *clock.Fake, id string)
	}{
		{"out of band", func(srv *Server, _ *clock.Fake, id string) { srv.PauseOutOfBand(id) }},
		{"at its timeout", func(_ *Server, clock *clock.Fake, _ string) { clock.Advance(2 * time.Minute) }},
	}
	reads := []struct {
		name string
		read func(api *fakeAPI, id string) string
	}{
		{"GET", func(api *fakeAPI, id string) string {
			var d sandboxDetailJSON
			api.must(http.StatusOK, "GET", "/sandboxes/"+id, nil).decode(api.t, &d)
			return d.State
		}},
		{"list", func(api *fakeAPI, id string) string {
			var all []listedSandboxJSON
			api.must(http.StatusOK, "GET", "/v2/sandboxes?state=paused", nil).decode(api.t, &all)
			for _, sb := range all {
				if sb.SandboxID == id {
					return sb.State
				}
			}
			return "not listed"
		}},
	}
	for _, start := range starts {
		for _, read := range reads {
			t.Run(start.name+", read by "+read.name, func(t *testing.T) {
				clock := clock.NewFake(epoch)
				srv := New(t, Options{APIKey: testKey, Clock: clock, PauseReads: 2})
				api := newFakeAPI(t, srv)
				api.readyTemplate("base")
				var box sandboxJSON
				api.must(http.StatusCreated, "POST", "/sandboxes", map[string]any{"templateID": "base", "timeout": 60, "autoPause": true}).decode(t, &box)
				start.pause(srv, clock, box.SandboxID)
				id := box.SandboxID

				view, _ := srv.Sandbox(id)
				if !view.Pausing || view.State != statePaused {
					t.Fatalf("after the pause began the box is %q (pausing %v), want paused and pausing", view.State, view.Pausing)
				}
				// Refusals of a pausing box, none of which is a read.
				refusals := []struct {
					method, path string
					body         any
					status       int
					text         string
				}{
					{"POST", "/sandboxes/" + id + "/snapshots", map[string]any{}, http.StatusConflict, "cannot be snapshotted while in 'pausing' state"},
					{"POST", "/sandboxes/" + id + "/timeout", map[string]any{"timeout": 60}, http.StatusConflict, "is being paused"},
					{"PUT", "/sandboxes/" + id + "/network", map[string]any{"allowOut": []string{"10.0.0.1"}}, http.StatusConflict, "is being paused"},
					{"POST", "/sandboxes/" + id + "/pause", map[string]any{}, http.StatusNoContent, ""},
				}
				for _, r := range refusals {
					ans := api.must(r.status, r.method, r.path, r.body)
					if !strings.Contains(string(ans.body), r.text) {
						t.Errorf("%s %s on a pausing box: %s, want it to say %q", r.method, r.path, ans.body, r.text)
					}
				}
				for i := range 2 {
					if got := read.read(api, id); got != statePaused {
						t.Fatalf("read %d shows the pausing box %q, want %q", i+1, got, statePaused)
					}
				}
				if view, _ := srv.Sandbox(id); view.Pausing || view.State != statePaused {
					t.Fatalf("after two reads the box is %q (pausing %v), want settled as paused", view.State, view.Pausing)
				}
				// Settled: E2B answers a paused box differently.
				api.must(http.StatusConflict, "POST", "/sandboxes/"+id+"/pause", map[string]any{})
				api.must(http.StatusNotFound, "POST", "/sandboxes/"+id+"/snapshots", map[string]any{})
				api.must(http.StatusNotFound, "POST", "/sandboxes/"+id+"/timeout", map[string]any{"timeout": 60})
				api.checkClean()
			})
		}
	}
}

// TestE2BFakeActionsOnAPausingBox: connect waits out the pause and resumes
// the box (201), and a kill removes it, both at once, as E2B does.
func TestE2BFakeActionsOnAPausingBox(t *testing.T) {
	cases := []struct {
		name   string
		method string
		path   string
		body   any
		status int
		gone   bool
	}{
		{"connect resumes", "POST", "/connect", map[string]any{"timeout": 60}, http.StatusCreated, false},
		{"kill removes", "DELETE", "", nil, http.StatusNoContent, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := New(t, Options{APIKey: testKey})
			api := newFakeAPI(t, srv)
			api.readyTemplate("base")
			var box sandboxJSON
			api.must(http.StatusCreated, "POST", "/sandboxes", map[string]any{"templateID": "base", "timeout": 60}).decode(t, &box)
			srv.PauseOutOfBand(box.SandboxID)
			api.must(tc.status, tc.method, "/sandboxes/"+box.SandboxID+tc.path, tc.body)
			view, found := srv.Sandbox(box.SandboxID)
			switch {
			case tc.gone && found:
				t.Errorf("the box is still there: %+v", view)
			case !tc.gone && (view.State != stateRunning || view.Pausing):
				t.Errorf("after the connect the box is %q (pausing %v), want running", view.State, view.Pausing)
			}
			api.checkClean()
		})
	}
}

// TestE2BFakePauseByRequestIsOverWhenAnswered: POST /pause answers once the
// box is paused, as E2B's does; with Instant a pause out of band is too.
func TestE2BFakePauseByRequestIsOverWhenAnswered(t *testing.T) {
	for _, instant := range []bool{false, true} {
		srv := New(t, Options{APIKey: testKey, Instant: instant})
		api := newFakeAPI(t, srv)
		api.readyTemplate("base")
		var a, b sandboxJSON
		api.must(http.StatusCreated, "POST", "/sandboxes", map[string]any{"templateID": "base", "timeout": 60}).decode(t, &a)
		api.must(http.StatusCreated, "POST", "/sandboxes", map[string]any{"templateID": "base", "timeout": 60}).decode(t, &b)
		api.must(http.StatusNoContent, "POST", "/sandboxes/"+a.SandboxID+"/pause", map[string]any{})
		if view, _ := srv.Sandbox(a.SandboxID); view.Pausing || view.State != statePaused {
			t.Errorf("instant=%v: after POST /pause the box is %q (pausing %v), want paused", instant, view.State, view.Pausing)
		}
		srv.PauseOutOfBand(b.SandboxID)
		if view, _ := srv.Sandbox(b.SandboxID); view.Pausing != !instant {
			t.Errorf("instant=%v: after a pause out of band the box is pausing=%v", instant, view.Pausing)
		}
		api.checkClean()
	}
}
