package flyfake

import (
	"net/http"
	"strings"
	"testing"
)

// The fake's default is Fly's slow, asynchronous path: each transitional
// state is seen by a read before the machine or snapshot settles, and an
// action on a machine between states gets Fly's refusal.

func (e *env) states(path string, n int) []string {
	e.t.Helper()
	var out []string
	for range n {
		out = append(out, as[string](e.t, e.must(http.StatusOK, "GET", path, nil).obj(e.t)["state"]))
	}
	return out
}

func TestTransitionalStatesAreSeenByReads(t *testing.T) {
	cases := []struct {
		name string
		// setup makes a machine and runs the action; it returns the
		// machine's path and the state the action's answer showed ("" for
		// answers without a machine).
		setup  func(e *env) (path, answered string)
		polls  int
		states []string
	}{
		{"create launches: created, starting, started", func(e *env) (string, string) {
			r := e.must(200, "POST", machines, map[string]any{"config": testConfig(nil)}).obj(e.t)
			return machines + "/" + as[string](e.t, r["id"]), as[string](e.t, r["state"])
		}, 2, []string{StateCreated, StateStarting, StateStarted}},
		{"Polls 3 shows each stage twice", func(e *env) (string, string) {
			r := e.must(200, "POST", machines, map[string]any{"config": testConfig(nil)}).obj(e.t)
			return machines + "/" + as[string](e.t, r["id"]), as[string](e.t, r["state"])
		}, 3, []string{StateCreated, StateCreated, StateStarting, StateStarting, StateStarted}},
		{"skip_launch rests created", func(e *env) (string, string) {
			id := e.createMachine(map[string]any{"skip_launch": true})
			return machines + "/" + id, StateCreated
		}, 2, []string{StateCreated, StateCreated, StateCreated}},
		{"start: starting, started", func(e *env) (string, string) {
			id := e.createMachine(map[string]any{"skip_launch": true})
			e.must(200, "POST", machines+"/"+id+"/start", nil)
			return machines + "/" + id, ""
		}, 2, []string{StateStarting, StateStarted}},
		{"stop: stopping, stopped", func(e *env) (string, string) {
			id := e.started(map[string]any{})
			e.must(200, "POST", machines+"/"+id+"/stop", nil)
			return machines + "/" + id, ""
		}, 2, []string{StateStopping, StateStopped}},
		{"suspend: suspending, suspended", func(e *env) (string, string) {
			id := e.started(map[string]any{})
			e.must(200, "POST", machines+"/"+id+"/suspend", nil)
			return machines + "/" + id, ""
		}, 2, []string{StateSuspending, StateSuspended}},
		{"update of a started machine: updating, starting, started", func(e *env) (string, string) {
			id := e.started(map[string]any{})
			r := e.must(200, "POST", machines+"/"+id, map[string]any{"config": testConfig(nil)}).obj(e.t)
			return machines + "/" + id, as[string](e.t, r["state"])
		}, 2, []string{"updating", StateStarting, StateStarted}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, func(o *Options) { o.Polls = tc.polls })
			path, answered := tc.setup(e)
			if answered != "" && answered != tc.states[0] {
				t.Fatalf("the answer shows %s, want %s", answered, tc.states[0])
			}
			if got := e.states(path, len(tc.states)); strings.Join(got, ",") != strings.Join(tc.states, ",") {
				t.Fatalf("reads show %v, want %v", got, tc.states)
			}
		})
	}
}

func TestActionsOnMachinesBetweenStates(t *testing.T) {
	const stillActive = "failed_precondition: machine still active, refusing to start"
	cases := []struct {
		name    string
		setup   func(e *env) string // the machine's id
		method  string
		tail    string
		want    int
		mention string
	}{
		{"start of a launching machine", func(e *env) string { return e.createMachine(map[string]any{}) },
			"POST", "/start", 412, stillActive},
		{"start of a launching machine seen created", func(e *env) string {
			id := e.createMachine(map[string]any{})
			e.states(machines+"/"+id, 1) // reads "created": still launching
			return id
		}, "POST", "/start", 412, stillActive},
		{"start of a starting machine", func(e *env) string {
			id := e.createMachine(map[string]any{})
			e.states(machines+"/"+id, 2)
			return id
		}, "POST", "/start", 412, stillActive},
		{"start of a started machine", func(e *env) string { return e.started(map[string]any{}) },
			"POST", "/start", 412, stillActive},
		{"start of a stopping machine", func(e *env) string {
			id := e.started(map[string]any{})
			e.must(200, "POST", machines+"/"+id+"/stop", nil)
			return id
		}, "POST", "/start", 412, "unable to start machine from current state: 'stopping'"},
		{"start of a machine at rest in created (skip_launch)", func(e *env) string {
			return e.createMachine(map[string]any{"skip_launch": true})
		}, "POST", "/start", 200, "previous_state"},
		{"stop of a launching machine", func(e *env) string { return e.createMachine(map[string]any{}) },
			"POST", "/stop", 412, "current state is 'created'"},
		{"suspend of a starting machine", func(e *env) string {
			id := e.createMachine(map[string]any{})
			e.states(machines+"/"+id, 2)
			return id
		}, "POST", "/suspend", 412, "current state is 'starting'"},
		{"update of a launching machine", func(e *env) string { return e.createMachine(map[string]any{}) },
			"POST", "", 412, "unable to update machine from current state: 'created'"},
		{"delete of a launching machine without force", func(e *env) string { return e.createMachine(map[string]any{}) },
			"DELETE", "", 412, "use force=true"},
		{"delete of a launching machine with kill", func(e *env) string { return e.createMachine(map[string]any{}) },
			"DELETE", "?kill=true", 200, "ok"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, nil)
			id := tc.setup(e)
			var body any
			if tc.method == "POST" && tc.tail == "" {
				body = map[string]any{"config": testConfig(nil)}
			}
			r := e.do(tc.method, machines+"/"+id+tc.tail, body)
			if r.status != tc.want || !strings.Contains(string(r.raw), tc.mention) {
				t.Fatalf("%s %s: %d %s, want %d mentioning %q", tc.method, tc.tail, r.status, r.raw, tc.want, tc.mention)
			}
		})
	}
}

func TestWaitEndsALaunch(t *testing.T) {
	e := newEnv(t, nil)
	id := e.createMachine(map[string]any{})
	e.must(200, "GET", machines+"/"+id+"/wait?state=started&timeout=60", nil)
	if got := e.states(machines+"/"+id, 1); got[0] != StateStarted {
		t.Fatalf("after the wait: %v", got)
	}
	// A started machine's events: the launch, then flyd's start.
	m := mustMachine(t, e, id)
	if len(m.Events) != 2 || m.Events[0].Type != "launch" || m.Events[1].Type != "start" {
		t.Fatalf("events %+v", m.Events)
	}
}

func TestListLagsACreateOnce(t *testing.T) {
	e := newEnv(t, nil)
	id := e.createMachine(map[string]any{})
	if got := e.must(200, "GET", machines, nil).list(t); len(got) != 0 {
		t.Fatalf("first list: %v, want the new machine missing", got)
	}
	if got := e.must(200, "GET", machines, nil).list(t); len(got) != 1 || got[0]["id"] != id {
		t.Fatalf("second list: %v", got)
	}
}

func TestSnapshotStatesAreSeenByLists(t *testing.T) {
	e := newEnv(t, nil)
	vol := as[string](t, e.createVolume(map[string]any{"name": "data"})["id"])
	e.must(200, "POST", volumes+"/"+vol+"/snapshots", nil)
	var seen []string
	var snapID string
	for range 3 {
		list := e.must(200, "GET", volumes+"/"+vol+"/snapshots", nil).list(t)
		if len(list) != 1 {
			t.Fatalf("snapshots %v", list)
		}
		seen = append(seen, as[string](t, list[0]["status"]))
		snapID = as[string](t, list[0]["id"])
		if seen[len(seen)-1] != SnapshotCreated {
			// A restore from a snapshot not yet created is refused.
			r := e.do("POST", volumes, map[string]any{"name": "restored", "snapshot_id": snapID})
			if r.status != 400 || !strings.Contains(string(r.raw), "not ready") {
				t.Fatalf("restore from a %s snapshot: %d %s", seen[len(seen)-1], r.status, r.raw)
			}
		}
	}
	if strings.Join(seen, ",") != "waiting,running,created" {
		t.Fatalf("lists show %v, want waiting, running, created", seen)
	}
	e.must(200, "POST", volumes, map[string]any{"name": "restored", "snapshot_id": snapID, "size_gb": 3})
}

func TestInstantSettlesBeforeAnswering(t *testing.T) {
	// Instant is the mode tests about something else use; this test shows
	// what it changes.
	e := newEnv(t, func(o *Options) { o.Instant = true })
	r := e.must(200, "POST", machines, map[string]any{"config": testConfig(nil)}).obj(t)
	if r["state"] != StateStarted {
		t.Fatalf("create answers %v, want started", r["state"])
	}
	if got := e.must(200, "GET", machines, nil).list(t); len(got) != 1 {
		t.Fatalf("list %v", got)
	}
	path := machines + "/" + as[string](t, r["id"])
	e.must(200, "POST", path+"/stop", nil)
	if got := e.states(path, 1); got[0] != StateStopped {
		t.Fatalf("after stop: %v", got)
	}
	vol := as[string](t, e.createVolume(map[string]any{"name": "data"})["id"])
	e.must(200, "POST", volumes+"/"+vol+"/snapshots", nil)
	if list := e.must(200, "GET", volumes+"/"+vol+"/snapshots", nil).list(t); len(list) != 1 || list[0]["status"] != SnapshotCreated {
		t.Fatalf("snapshots %v", list)
	}
}
