package daytonafake

import (
	"net/http"
	"strings"
	"testing"
)

// Every change passes through Daytona's transitional states, each seen by
// one read (Options.Polls 1) before the object settles: the action's own
// answer already shows where the box is going (dto/sandbox.dto.ts:371-398).
func TestTransitionsSeenByReads(t *testing.T) {
	type step struct {
		method, path string
		answer       string   // state in the action's answer ("" for none)
		reads        []string // states the following reads see, in order
	}
	cases := []struct {
		name  string
		class string // the box's class, when not a container
		prep  []step // run before, unchecked but for their own reads
		steps []step
	}{
		{name: "create", steps: []step{{"POST", "/sandbox", stateCreating, []string{stateCreating, stateStarted}}}},
		{name: "stop then start", steps: []step{
			{"POST", "/sandbox", stateCreating, []string{stateCreating, stateStarted}},
			{"POST", "/sandbox/{id}/stop", stateStopping, []string{stateStopping, stateStopped}},
			{"POST", "/sandbox/{id}/start", stateStarting, []string{stateStarting, stateStarted}},
		}},
		{name: "archive then restore", steps: []step{
			{"POST", "/sandbox", stateCreating, []string{stateCreating, stateStarted}},
			{"POST", "/sandbox/{id}/stop", stateStopping, []string{stateStopping, stateStopped}},
			{"POST", "/sandbox/{id}/archive", stateArchiving, []string{stateArchiving, stateArchived}},
			{"POST", "/sandbox/{id}/start", stateArchived, []string{stateRestoring, stateStarted}},
		}},
		{name: "pause then resume", class: ClassLinuxVM, steps: []step{
			{"POST", "/sandbox", stateCreating, []string{stateCreating, stateStarted}},
			{"POST", "/sandbox/{id}/pause", statePausing, []string{statePausing, statePaused}},
			{"POST", "/sandbox/{id}/start", statePaused, []string{stateResuming, stateStarted}},
		}},
		{name: "resize", steps: []step{
			{"POST", "/sandbox", stateCreating, []string{stateCreating, stateStarted}},
			{"POST", "/sandbox/{id}/resize", stateResizing, []string{stateResizing, stateStarted}},
		}},
		{name: "snapshot", steps: []step{
			{"POST", "/sandbox", stateCreating, []string{stateCreating, stateStarted}},
			{"POST", "/sandbox/{id}/snapshot", stateSnapshotting, []string{stateSnapshotting, stateStarted}},
		}},
		{name: "delete", steps: []step{
			{"POST", "/sandbox", stateCreating, []string{stateCreating, stateStarted}},
			{"DELETE", "/sandbox/{id}", stateDestroying, []string{stateDestroying, "404"}},
		}},
		{name: "delete an archived box", steps: []step{
			{"POST", "/sandbox", stateCreating, []string{stateCreating, stateStarted}},
			{"POST", "/sandbox/{id}/stop", stateStopping, []string{stateStopping, stateStopped}},
			{"POST", "/sandbox/{id}/archive", stateArchiving, []string{stateArchiving, stateArchived}},
			{"DELETE", "/sandbox/{id}", stateArchived, []string{stateArchived, "404"}},
		}},
	}
	bodies := map[string]any{"/sandbox/{id}/resize": map[string]any{"cpu": 2}, "/sandbox/{id}/snapshot": map[string]any{"name": "snap"}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, api, _ := newTest(t, Options{})
			create := map[string]any{}
			if tc.class != "" {
				srv.SeedSnapshot(SnapshotSeed{Name: "cls", ImageName: "ubuntu:24.04", SandboxClass: tc.class})
				create["snapshot"] = "cls"
			}
			id := ""
			for _, st := range tc.steps {
				path := strings.ReplaceAll(st.path, "{id}", id)
				body := bodies[st.path]
				if st.path == "/sandbox" {
					body = create
				}
				var out sandboxOut
				api.must(http.StatusOK, st.method, path, body).decode(t, &out)
				if id == "" {
					id = out.ID
				}
				if out.State != st.answer {
					t.Fatalf("%s %s answered %s, want %s", st.method, st.path, out.State, st.answer)
				}
				for i, want := range st.reads {
					if want == "404" {
						api.must(http.StatusNotFound, "GET", "/sandbox/"+id, nil)
						continue
					}
					if got := api.sandbox(id); got.State != want {
						t.Fatalf("%s %s: read %d saw %s, want %s", st.method, st.path, i+1, got.State, want)
					}
				}
			}
			api.checkClean()
		})
	}
}

// A snapshot of a box is not there while the box is snapshotting (the
// runner's job inserts it when done, already active); reading it by its
// name moves the job on as reading the box does.
func TestSnapshotOfABoxAppearsWhenDone(t *testing.T) {
	for _, via := range []string{"box", "snapshot"} {
		t.Run("read the "+via, func(t *testing.T) {
			srv, api, _ := newTest(t, Options{})
			box := api.createSandbox(nil)
			api.must(http.StatusOK, "POST", "/sandbox/"+box.ID+"/snapshot", map[string]any{"name": "snap"})
			if via == "box" {
				if got := api.sandbox(box.ID); got.State != stateSnapshotting {
					t.Fatalf("box reads %s, want snapshotting", got.State)
				}
			} else {
				api.must(http.StatusNotFound, "GET", "/snapshots/snap", nil)
			}
			api.must(http.StatusNotFound, "GET", "/snapshots/snap", nil)
			if got := api.snapshot("snap"); got.State != snapActive || got.LastUsedAt == nil {
				t.Fatalf("snapshot %+v, want active with lastUsedAt", got)
			}
			if got := api.sandbox(box.ID); got.State != stateStarted {
				t.Fatalf("box reads %s after the snapshot, want started", got.State)
			}
			if v, ok := srv.Sandbox(box.ID); !ok || v.Pending {
				t.Fatalf("box view %+v", v)
			}
			api.checkClean()
		})
	}
}

// A name taken while the job ran fails the job's insert: the box goes back
// to its state and no second snapshot of the name is made; the request
// itself was accepted.
func TestSnapshotOfABoxNameTakenMeanwhile(t *testing.T) {
	srv, api, _ := newTest(t, Options{})
	box := api.createSandbox(nil)
	api.must(http.StatusOK, "POST", "/sandbox/"+box.ID+"/snapshot", map[string]any{"name": "snap"})
	other := srv.SeedSnapshot(SnapshotSeed{Name: "snap", ImageName: "ubuntu:24.04"})
	api.waitSandbox(box.ID, stateStarted)
	if got := api.snapshot("snap"); got.ID != other {
		t.Fatalf("snapshot snap is %s, want the other client's %s", got.ID, other)
	}
	n := 0
	for _, sn := range srv.Snapshots() {
		if sn.Name == "snap" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d snapshots named snap, want 1", n)
	}
	api.checkClean()
}

// An action on an object in a transitional state gets the server's
// answer: a state change in progress is a 409 (StateChangeInProgressError),
// a state the action does not take a 400, a snapshot or volume not yet
// ready is refused by name and state.
func TestRefusalsInTransition(t *testing.T) {
	creating := func(api *fakeAPI, _ *Server) string {
		var out sandboxOut
		api.must(http.StatusOK, "POST", "/sandbox", map[string]any{}).decode(api.t, &out)
		return out.ID
	}
	stopping := func(api *fakeAPI, _ *Server) string {
		id := api.createSandbox(nil).ID
		api.must(http.StatusOK, "POST", "/sandbox/"+id+"/stop", nil)
		if got := api.sandbox(id); got.State != stateStopping {
			api.t.Fatalf("box reads %s, want stopping", got.State)
		}
		return id
	}
	snapshotIn := func(reads int) func(*fakeAPI, *Server) string {
		return func(api *fakeAPI, _ *Server) string {
			var sn snapshotOut
			api.must(http.StatusOK, "POST", "/snapshots", map[string]any{"name": "img", "imageName": "python:3.12"}).decode(api.t, &sn)
			for i := 0; i < reads; i++ {
				api.snapshot(sn.ID)
			}
			return sn.ID
		}
	}
	volumeCreating := func(api *fakeAPI, _ *Server) string {
		var v struct{ ID, State string }
		api.must(http.StatusOK, "POST", "/volumes", map[string]any{"name": "data"}).decode(api.t, &v)
		api.must(http.StatusOK, "GET", "/volumes/"+v.ID, nil)
		api.must(http.StatusOK, "GET", "/volumes/"+v.ID, nil).decode(api.t, &v)
		if v.State != volCreating {
			api.t.Fatalf("volume reads %s, want creating", v.State)
		}
		return v.ID
	}
	cases := []struct {
		name    string
		prep    func(*fakeAPI, *Server) string
		method  string
		path    string
		body    any
		status  int
		mention string
	}{
		// sandbox.service.ts start() 2067-2076, stop() 2154-2158, archive()
		// 360-362, destroy() 2016-2018: a box whose state is not its
		// desired state, or pending, is changing.
		{"start a box being created", creating, "POST", "/sandbox/{id}/start", nil, 409, "Sandbox state change in progress"},
		{"stop a box being created", creating, "POST", "/sandbox/{id}/stop", nil, 409, "Sandbox state change in progress"},
		{"delete a box being created", creating, "DELETE", "/sandbox/{id}", nil, 409, "Sandbox state change in progress"},
		{"start a box being stopped", stopping, "POST", "/sandbox/{id}/start", nil, 409, "Sandbox state change in progress"},
		{"archive a box being stopped", stopping, "POST", "/sandbox/{id}/archive", nil, 409, "Sandbox state change in progress"},
		// createSnapshotFromSandbox 1309-1311, resize 2452-2686.
		{"snapshot a box being stopped", stopping, "POST", "/sandbox/{id}/snapshot", map[string]any{"name": "s"}, 400,
			"Sandbox must be in started or stopped state to create a snapshot"},
		{"resize a box being created", creating, "POST", "/sandbox/{id}/resize", map[string]any{"cpu": 2}, 400,
			"Sandbox must be in started or stopped state to resize"},
		// createFromSnapshot 509-511.
		{"create from a pending snapshot", snapshotIn(0), "POST", "/sandbox", map[string]any{"snapshot": "img"}, 400, "Snapshot img is pending"},
		{"create from a pulling snapshot", snapshotIn(2), "POST", "/sandbox", map[string]any{"snapshot": "img"}, 400, "Snapshot img is pulling"},
		// snapshot.service.ts activate 730-805.
		{"activate a pulling snapshot", snapshotIn(2), "POST", "/snapshots/{id}/activate", nil, 400, "cannot be activated - it is in pulling state"},
		// resolveVolumes 3334-3366, volume.service.ts delete 128-170.
		{"mount a volume being created", volumeCreating, "POST", "/sandbox",
			map[string]any{"volumes": []map[string]any{{"volumeId": "data", "mountPath": "/data"}}}, 400, "Volume 'data' is not in a ready state. Current state: creating"},
		{"delete a volume being created", volumeCreating, "DELETE", "/volumes/{id}", nil, 400, "Volume must be in 'ready' or 'error' state"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, api, _ := newTest(t, Options{})
			id := tc.prep(api, srv)
			api.refuse(tc.status, tc.mention, tc.method, strings.ReplaceAll(tc.path, "{id}", id), tc.body)
			api.checkClean()
		})
	}
}

// A new box is missing from the first list after its create (Daytona's
// list reads a search index the API publishes to afterwards), while reads
// by id or name find it; the next list has it. A walk's later pages are
// part of its list.
func TestListLagsOneList(t *testing.T) {
	_, api, _ := newTest(t, Options{})
	type page struct {
		Items      []struct{ ID string }
		NextCursor *string
	}
	list := func(q string) page {
		var p page
		api.must(http.StatusOK, "GET", "/sandbox"+q, nil).decode(t, &p)
		return p
	}
	var out sandboxOut
	api.must(http.StatusOK, "POST", "/sandbox", map[string]any{"name": "new"}).decode(t, &out)
	api.sandbox("new")
	if p := list(""); len(p.Items) != 0 {
		t.Fatalf("first list %+v, want the new box missing", p)
	}
	if p := list(""); len(p.Items) != 1 || p.Items[0].ID != out.ID {
		t.Fatalf("second list %+v, want the box", p)
	}
	api.must(http.StatusOK, "POST", "/sandbox", map[string]any{"name": "b"})
	api.must(http.StatusOK, "POST", "/sandbox", map[string]any{"name": "c"})
	if p := list(""); len(p.Items) != 1 {
		t.Fatalf("list %+v, want b and c missing", p)
	}
	api.must(http.StatusOK, "POST", "/sandbox", map[string]any{"name": "d"})
	// A walk of one-box pages sees b, c and new, not d: its later pages
	// belong to its first list.
	var walked int
	q := "?limit=1&sort=name&order=asc"
	for pages := 0; pages < 10; pages++ {
		p := list(q)
		walked += len(p.Items)
		if p.NextCursor == nil {
			break
		}
		q = "?limit=1&sort=name&order=asc&cursor=" + *p.NextCursor
	}
	if walked != 3 {
		t.Fatalf("the walk saw %d boxes, want 3 (d missing)", walked)
	}
	if p := list(""); len(p.Items) != 4 {
		t.Fatalf("next list %+v, want 4 boxes", p)
	}
	api.checkClean()
}

// Instant settles each change inside its request and lists at once.
func TestInstant(t *testing.T) {
	_, api, _ := newTest(t, Options{Instant: true})
	var out sandboxOut
	api.must(http.StatusOK, "POST", "/sandbox", map[string]any{"name": "i"}).decode(t, &out)
	if out.State != stateStarted {
		t.Fatalf("create answered %s, want started", out.State)
	}
	api.must(http.StatusOK, "POST", "/sandbox/i/stop", nil).decode(t, &out)
	if out.State != stateStopped {
		t.Fatalf("stop answered %s, want stopped", out.State)
	}
	var p struct{ Items []struct{ ID string } }
	api.must(http.StatusOK, "GET", "/sandbox", nil).decode(t, &p)
	if len(p.Items) != 1 {
		t.Fatalf("list %+v, want the box", p)
	}
	var sn snapshotOut
	api.must(http.StatusOK, "POST", "/snapshots", map[string]any{"name": "img", "imageName": "python:3.12"}).decode(t, &sn)
	if sn.State != snapActive {
		t.Fatalf("snapshot create answered %s, want active", sn.State)
	}
	var v struct{ State string }
	api.must(http.StatusOK, "POST", "/volumes", map[string]any{"name": "data"}).decode(t, &v)
	if v.State != volReady {
		t.Fatalf("volume create answered %s, want ready", v.State)
	}
	api.checkClean()
}
