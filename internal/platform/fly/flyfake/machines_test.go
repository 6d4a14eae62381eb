package flyfake

import (
	"net/http"
	"strings"
	"testing"
)

func TestAuth(t *testing.T) {
	e := newEnv(t, nil)
	cases := []struct {
		name, auth string
		want       int
	}{
		{"no header", "", http.StatusUnauthorized},
		{"basic scheme", "Basic " + testToken, http.StatusUnauthorized},
		{"wrong bearer token", "Bearer nope", http.StatusUnauthorized},
		{"bearer", "Bearer " + testToken, http.StatusOK},
		{"FlyV1 (fly-go, macaroon tokens)", "FlyV1 " + testToken, http.StatusOK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.doAuth(tc.auth, "GET", "/v1/apps/"+testApp, nil)
			if r.status != tc.want {
				t.Fatalf("status %d %s, want %d", r.status, r.raw, tc.want)
			}
			if tc.want == http.StatusUnauthorized && r.obj(t)["error"] == "" {
				t.Fatalf("401 without Fly's error body: %s", r.raw)
			}
		})
	}
}

func TestApps(t *testing.T) {
	e := newEnv(t, nil)
	e.must(http.StatusNotFound, "GET", "/v1/apps/nope", nil)
	e.must(http.StatusCreated, "POST", "/v1/apps", map[string]any{"app_name": "new-app", "org_slug": "personal"})
	e.must(http.StatusUnprocessableEntity, "POST", "/v1/apps", map[string]any{"app_name": "new-app", "org_slug": "personal"})
	e.must(http.StatusNotFound, "POST", "/v1/apps", map[string]any{"app_name": "other", "org_slug": "someone-else"})
	if got := e.must(http.StatusOK, "GET", "/v1/apps/new-app", nil).obj(t)["name"]; got != "new-app" {
		t.Fatalf("name %v", got)
	}
	if l := e.must(http.StatusOK, "GET", "/v1/apps?org_slug=personal", nil).obj(t); l["total_apps"] != float64(2) {
		t.Fatalf("list: %v", l)
	}
	e.must(http.StatusAccepted, "DELETE", "/v1/apps/new-app", nil)
	e.must(http.StatusNotFound, "GET", "/v1/apps/new-app", nil)
	e.must(http.StatusNotFound, "GET", "/v1/apps/new-app/machines", nil)
}

func TestMachineCreateRules(t *testing.T) {
	e := newEnv(t, nil)
	vol := as[string](t, e.createVolume(map[string]any{"name": "data", "region": "iad"})["id"])
	far := as[string](t, e.createVolume(map[string]any{"name": "far", "region": "ams"})["id"])
	taken := as[string](t, e.createVolume(map[string]any{"name": "taken", "region": "iad"})["id"])
	e.createMachine(map[string]any{"name": "holder", "config": testConfig(map[string]any{"mounts": []any{map[string]any{"volume": taken, "path": "/data"}}})})
	mount := func(ids ...string) map[string]any {
		var ms []any
		for _, id := range ids {
			ms = append(ms, map[string]any{"volume": id, "path": "/data"})
		}
		return testConfig(map[string]any{"mounts": ms})
	}
	cases := []struct {
		name    string
		body    map[string]any
		want    int
		mention string
	}{
		{"no image", map[string]any{"config": map[string]any{"guest": map[string]any{"cpu_kind": "shared", "cpus": 1, "memory_mb": 256}}}, 400, "image"},
		{"unknown cpu kind", map[string]any{"config": testConfig(map[string]any{"guest": map[string]any{"cpu_kind": "quantum", "cpus": 1, "memory_mb": 256}})}, 400, "cpu_kind"},
		{"3 cpus", map[string]any{"config": testConfig(map[string]any{"guest": map[string]any{"cpu_kind": "shared", "cpus": 3, "memory_mb": 768}})}, 400, "cpus"},
		{"too much memory for shared-cpu-1x", map[string]any{"config": testConfig(map[string]any{"guest": map[string]any{"cpu_kind": "shared", "cpus": 1, "memory_mb": 4096}})}, 400, "memory"},
		{"two mounts", map[string]any{"config": mount(vol, far)}, 400, "one volume"},
		{"unknown volume", map[string]any{"config": mount("vol_nope")}, 404, "vol_nope"},
		{"volume in another region", map[string]any{"config": mount(far)}, 400, "region"},
		{"volume attached to another machine", map[string]any{"config": mount(taken)}, 400, "attached"},
		{"name taken", map[string]any{"name": "holder"}, 409, "holder"},
		{"unknown region", map[string]any{"region": "mars"}, 400, "mars"},
		{"defaults", map[string]any{}, 200, ""},
		{"mount in the same region", map[string]any{"config": mount(vol)}, 200, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, has := tc.body["config"]; !has {
				tc.body["config"] = testConfig(nil)
			}
			r := e.do("POST", machines, tc.body)
			if r.status != tc.want || !strings.Contains(string(r.raw), tc.mention) {
				t.Fatalf("status %d %s, want %d mentioning %q", r.status, r.raw, tc.want, tc.mention)
			}
			if tc.want != 200 {
				return
			}
			m := r.obj(t)
			if m["region"] != "iad" || m["state"] != StateCreated {
				t.Fatalf("machine %v", m)
			}
		})
	}
	if v, _ := e.s.Volume(vol); v.AttachedMachineID == "" {
		t.Fatal("the mounted volume is not attached")
	}
	if got := e.s.MachineCreates(); got != 3 {
		t.Fatalf("MachineCreates = %d, want 3", got)
	}
}

func TestMachineStates(t *testing.T) {
	e := newEnv(t, nil)
	id := e.createMachine(map[string]any{})
	path := machines + "/" + id
	for i, want := range []string{StateCreated, StateStarting, StateStarted, StateStarted} {
		if got := e.must(200, "GET", path, nil).obj(t)["state"]; got != want {
			t.Fatalf("GET %d: state %v, want %s", i+1, got, want)
		}
	}
	e.must(http.StatusPreconditionFailed, "POST", path+"/start", nil)

	e.must(200, "POST", path+"/stop", nil)
	if got := e.must(200, "GET", path, nil).obj(t)["state"]; got != StateStopping {
		t.Fatalf("after stop: %v", got)
	}
	if got := e.must(200, "GET", path, nil).obj(t)["state"]; got != StateStopped {
		t.Fatalf("after stop: %v", got)
	}
	e.must(http.StatusPreconditionFailed, "POST", path+"/suspend", nil)
	if got := e.must(200, "POST", path+"/start", nil).obj(t)["previous_state"]; got != StateStopped {
		t.Fatalf("previous_state %v", got)
	}
	e.must(200, "GET", path+"/wait?state=started", nil)

	e.must(200, "POST", path+"/suspend", nil)
	e.must(200, "GET", path+"/wait?state=suspended", nil)
	if m, _ := e.s.Machine(id); m.State != StateSuspended || !m.SuspendSnapshot {
		t.Fatalf("after suspend: %+v", m)
	}
	e.must(200, "POST", path+"/start", nil)
	e.must(200, "GET", path+"/wait?state=started", nil)
	if m, _ := e.s.Machine(id); m.Resumes != 1 || m.ColdBoots != 0 {
		t.Fatalf("resume from the snapshot: %+v", m)
	}
	if e.s.Requests(RouteSuspend) != 2 || e.s.Requests(RouteWaitSuspended) != 1 {
		t.Fatal("off-spec routes are not counted")
	}
}

func TestLostSuspendSnapshotColdBoots(t *testing.T) {
	cases := []struct {
		name string
		opts func(*Options)
		lose bool
	}{
		{"out of band", nil, true},
		{"Options.LoseSuspendSnapshots", func(o *Options) { o.LoseSuspendSnapshots = true }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.opts)
			id := e.started(map[string]any{})
			e.s.SuspendOutOfBand(id)
			if tc.lose {
				e.s.LoseSuspendSnapshot(id)
			}
			e.must(200, "POST", machines+"/"+id+"/start", nil)
			e.must(200, "GET", machines+"/"+id+"/wait?state=started", nil)
			events := as[[]any](t, e.must(200, "GET", machines+"/"+id, nil).obj(t)["events"])
			newest := as[map[string]any](t, events[0])
			if newest["type"] != "start" || newest["status"] != "started" {
				t.Fatalf("newest event %v, want a cold start", newest)
			}
			if m, _ := e.s.Machine(id); m.ColdBoots != 1 || m.Resumes != 0 {
				t.Fatalf("%+v", m)
			}
		})
	}
}

func TestMachineUpdate(t *testing.T) {
	e := newEnv(t, nil)
	v1 := as[string](t, e.createVolume(map[string]any{"name": "one"})["id"])
	v2 := as[string](t, e.createVolume(map[string]any{"name": "two"})["id"])
	mount := func(id string) []any { return []any{map[string]any{"volume": id, "path": "/data"}} }
	id := e.started(map[string]any{"config": testConfig(map[string]any{"mounts": mount(v1)})})
	before, _ := e.s.Machine(id)
	r := e.must(200, "POST", machines+"/"+id, map[string]any{"config": testConfig(map[string]any{
		"mounts": mount(v1), "env": map[string]any{"A": "1"}, "metadata": map[string]any{"k": "v"},
	})}).obj(t)
	if r["id"] != id || r["instance_id"] == before.InstanceID {
		t.Fatalf("update: %v", r)
	}
	after, _ := e.s.Machine(id)
	if after.Env["A"] != "1" || len(after.Versions) != 2 {
		t.Fatalf("after: %+v", after)
	}
	e.must(200, "GET", machines+"/"+id+"/wait?state=started", nil)
	bad := e.do("POST", machines+"/"+id, map[string]any{"config": testConfig(map[string]any{"mounts": mount(v2)})})
	if bad.status != 400 || !strings.Contains(string(bad.raw), "cannot change the volume") {
		t.Fatalf("mount change: %d %s", bad.status, bad.raw)
	}
}

func TestWait(t *testing.T) {
	e := newEnv(t, nil)
	id := e.createMachine(map[string]any{})
	path := machines + "/" + id + "/wait"
	e.must(200, "GET", path+"?state=started&timeout=30", nil)
	if e.state(id) != StateStarted {
		t.Fatal("wait did not settle the start")
	}
	cases := []struct {
		name  string
		query string
		want  int
	}{
		{"already started", "?state=started", 200},
		{"stopped needs instance_id", "?state=stopped", 400},
		{"unknown instance", "?state=stopped&instance_id=01NOPE", 404},
		{"no stop under way", "?state=stopped&timeout=1&instance_id=" + mustMachine(t, e, id).InstanceID, 408},
		{"no suspend under way", "?state=suspended&timeout=1", 408},
		{"fly-go: several states and version", "?state=stopped&state=started&timeout=60&version=" + mustMachine(t, e, id).InstanceID, 200},
		{"fly-go: suspended among several states", "?state=suspended&state=started", 200},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if r := e.do("GET", path+tc.query, nil); r.status != tc.want {
				t.Fatalf("status %d %s, want %d", r.status, r.raw, tc.want)
			}
		})
	}
	e.must(200, "POST", machines+"/"+id+"/stop", nil)
	e.must(200, "GET", path+"?state=stopped&instance_id="+mustMachine(t, e, id).InstanceID, nil)
	if e.state(id) != StateStopped {
		t.Fatal("wait did not settle the stop")
	}
}

func mustMachine(t *testing.T, e *env, id string) MachineView {
	t.Helper()
	m, found := e.s.Machine(id)
	if !found {
		t.Fatalf("no machine %s", id)
	}
	return m
}

func TestMachineDelete(t *testing.T) {
	e := newEnv(t, nil)
	vol := as[string](t, e.createVolume(map[string]any{"name": "data"})["id"])
	id := e.started(map[string]any{"config": testConfig(map[string]any{"mounts": []any{map[string]any{"volume": vol, "path": "/d"}}})})
	path := machines + "/" + id
	e.must(http.StatusPreconditionFailed, "DELETE", path, nil)
	e.must(http.StatusPreconditionFailed, "DELETE", volumes+"/"+vol, nil)
	e.must(200, "DELETE", path+"?kill=true", nil)
	for i, want := range []string{StateDestroying, StateDestroyed} {
		if got := e.must(200, "GET", path, nil).obj(t)["state"]; got != want {
			t.Fatalf("GET %d: %v, want %s", i+1, got, want)
		}
	}
	e.must(404, "GET", path, nil)
	if v, _ := e.s.Volume(vol); v.AttachedMachineID != "" {
		t.Fatal("the destroyed machine's volume is still attached")
	}
	e.must(200, "DELETE", volumes+"/"+vol, nil)

	stopped := e.createMachine(map[string]any{"skip_launch": true})
	e.must(200, "GET", machines, nil) // the one list that lags the create
	e.must(200, "DELETE", machines+"/"+stopped, nil)
	e.must(200, "GET", machines+"/"+stopped+"/wait?state=destroyed", nil)
	if len(e.must(200, "GET", machines, nil).list(t)) != 0 {
		t.Fatal("destroyed machines are listed")
	}
	if len(e.must(200, "GET", machines+"?include_deleted=true", nil).list(t)) != 2 {
		t.Fatal("include_deleted does not list destroyed machines")
	}
}

func TestListMetadataFilterAndMetadataEndpoints(t *testing.T) {
	e := newEnv(t, nil)
	a := e.createMachine(map[string]any{"config": testConfig(map[string]any{"metadata": map[string]any{"sbx_create_token": "t1"}})})
	e.createMachine(map[string]any{"config": testConfig(map[string]any{"metadata": map[string]any{"sbx_create_token": "t2"}})})
	e.must(200, "GET", machines, nil) // the one list that lags the creates
	got := e.must(200, "GET", machines+"?metadata.sbx_create_token=t1", nil).list(t)
	if len(got) != 1 || got[0]["id"] != a {
		t.Fatalf("filter: %v", got)
	}
	e.must(204, "POST", machines+"/"+a+"/metadata/role", map[string]any{"value": "db"})
	if md := e.must(200, "GET", machines+"/"+a+"/metadata", nil).obj(t); md["role"] != "db" {
		t.Fatalf("metadata %v", md)
	}
	e.must(204, "DELETE", machines+"/"+a+"/metadata/role", nil)
	if md := e.must(200, "GET", machines+"/"+a+"/metadata", nil).obj(t); md["role"] != nil {
		t.Fatalf("metadata %v", md)
	}
}
