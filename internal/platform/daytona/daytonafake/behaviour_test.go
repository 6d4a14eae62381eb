package daytonafake

import (
	"net/http"
	"net/url"
	"testing"
	"time"
)

// VM classes pause and resume; the pause answer already says "pausing".
func TestPauseAndResume(t *testing.T) {
	for _, class := range []string{ClassLinuxVM, ClassWindows} {
		t.Run(class, func(t *testing.T) {
			srv, api, _ := newTest(t, Options{})
			srv.SeedSnapshot(SnapshotSeed{Name: "vm", SandboxClass: class})
			id := api.createSandbox(map[string]any{"snapshot": "vm"}).ID
			var out sandboxOut
			api.must(http.StatusOK, "POST", "/sandbox/"+id+"/pause", nil).decode(t, &out)
			if out.State != statePausing || out.DesiredState != statePaused {
				t.Fatalf("pause answered %s/%s", out.State, out.DesiredState)
			}
			api.waitSandbox(id, statePaused)
			api.must(http.StatusOK, "POST", "/sandbox/"+id+"/start", nil)
			if got := api.sandbox(id); got.State != stateResuming {
				t.Fatalf("resuming box shows %s", got.State)
			}
			api.waitSandbox(id, stateStarted)
			api.checkClean()
		})
	}
}

// Resizes that the server allows take effect when the box settles.
func TestResize(t *testing.T) {
	cases := []struct {
		name    string
		stopped bool
		body    map[string]any
		cpu     int
		mem     int
		disk    int
	}{
		{"hot cpu and memory increase", false, map[string]any{"cpu": 2, "memory": 2}, 2, 2, 3},
		{"cold decrease and disk increase", true, map[string]any{"cpu": 1, "memory": 1, "disk": 10}, 1, 1, 10},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, api, _ := newTest(t, Options{})
			srv.SeedSnapshot(SnapshotSeed{Name: "s", CPU: 1, MemoryGB: 1, DiskGB: 3})
			id := api.createSandbox(map[string]any{"snapshot": "s"}).ID
			want := stateStarted
			if tc.stopped {
				api.must(http.StatusOK, "POST", "/sandbox/"+id+"/stop", nil)
				api.waitSandbox(id, stateStopped)
				want = stateStopped
			}
			var out sandboxOut
			api.must(http.StatusOK, "POST", "/sandbox/"+id+"/resize", tc.body).decode(t, &out)
			if out.State != stateResizing {
				t.Fatalf("resize answered %s", out.State)
			}
			got := api.waitSandbox(id, want)
			if got.CPU != tc.cpu || got.Memory != tc.mem || got.Disk != tc.disk {
				t.Fatalf("after resize %+v", got)
			}
			api.checkClean()
		})
	}
}

// Labels are replaced whole; stopping an ephemeral box deletes it; recover
// brings a recoverable box back.
func TestLabelsEphemeralRecover(t *testing.T) {
	srv, api, _ := newTest(t, Options{})
	id := api.createSandbox(map[string]any{"labels": map[string]string{"a": "1", "b": "2"}}).ID
	var labels struct{ Labels map[string]string }
	api.must(http.StatusOK, "PUT", "/sandbox/"+id+"/labels", map[string]any{"labels": map[string]string{"c": "3"}}).decode(t, &labels)
	if len(labels.Labels) != 1 || labels.Labels["c"] != "3" {
		t.Fatalf("labels %v", labels.Labels)
	}

	srv.FailSandbox(id, "disk full", true)
	var out sandboxOut
	api.must(http.StatusOK, "POST", "/sandbox/"+id+"/recover", nil).decode(t, &out)
	if out.State != stateStarting || out.DesiredState != stateStarted {
		t.Fatalf("recover answered %s/%s, want starting/started", out.State, out.DesiredState)
	}
	api.waitSandbox(id, stateStarted)

	eph := api.createSandbox(map[string]any{"name": "eph", "autoDeleteInterval": 0}).ID
	api.must(http.StatusOK, "POST", "/sandbox/eph/stop", nil).decode(t, &out)
	if out.DesiredState != stateDestroyed {
		t.Fatalf("ephemeral stop answered desired %s", out.DesiredState)
	}
	api.sandbox(eph)
	api.must(http.StatusNotFound, "GET", "/sandbox/"+eph, nil)
	api.checkClean()
}

// The list filters by labels (containment), states and name prefix, and
// pages with cursors that survive deletions between pages.
func TestSandboxList(t *testing.T) {
	// The filters are the subject here; the list's lag has its own test.
	srv, api, clock := newTest(t, Options{ListLagLists: -1})
	var ids []string
	for i, name := range []string{"web-1", "web-2", "web-3", "db-1"} {
		clock.Advance(time.Minute)
		env := "prod"
		if i == 1 {
			env = "dev"
		}
		ids = append(ids, api.createSandbox(map[string]any{"name": name, "labels": map[string]string{"env": env, "team": "x"}}).ID)
	}
	api.must(http.StatusOK, "POST", "/sandbox/db-1/stop", nil)
	api.waitSandbox(ids[3], stateStopped)

	type page struct {
		Items []struct {
			Name  string
			State string
		}
		NextCursor *string
	}
	list := func(q url.Values) page {
		var p page
		api.must(http.StatusOK, "GET", "/sandbox?"+q.Encode(), nil).decode(t, &p)
		return p
	}
	if p := list(url.Values{"labels": {`{"env":"prod"}`}}); len(p.Items) != 3 || p.NextCursor != nil {
		t.Fatalf("labels filter: %+v", p)
	}
	if p := list(url.Values{"states": {"stopped"}}); len(p.Items) != 1 || p.Items[0].Name != "db-1" {
		t.Fatalf("states filter: %+v", p)
	}
	if p := list(url.Values{"name": {"web"}, "sort": {"name"}, "order": {"asc"}}); len(p.Items) != 3 || p.Items[0].Name != "web-1" {
		t.Fatalf("name filter: %+v", p)
	}
	p1 := list(url.Values{"limit": {"2"}, "sort": {"name"}, "order": {"asc"}})
	if len(p1.Items) != 2 || p1.NextCursor == nil || p1.Items[0].Name != "db-1" {
		t.Fatalf("page 1: %+v", p1)
	}
	srv.DeleteSandboxOutOfBand(ids[0]) // web-1, on page 1
	p2 := list(url.Values{"limit": {"2"}, "sort": {"name"}, "order": {"asc"}, "cursor": {*p1.NextCursor}})
	if len(p2.Items) != 2 || p2.Items[0].Name != "web-2" || p2.Items[1].Name != "web-3" || p2.NextCursor != nil {
		t.Fatalf("page 2: %+v", p2)
	}
	api.checkClean()
}

// Out-of-band changes show on the next read.
func TestOutOfBand(t *testing.T) {
	srv, api, _ := newTest(t, Options{})
	id := api.createSandbox(nil).ID
	srv.StopOutOfBand(id)
	if got := api.sandbox(id); got.State != stateStopped {
		t.Fatalf("stopped out of band: %s", got.State)
	}
	srv.ArchiveOutOfBand(id)
	if got := api.sandbox(id); got.State != stateArchived {
		t.Fatalf("archived out of band: %s", got.State)
	}
	srv.DeleteSandboxOutOfBand(id)
	api.must(http.StatusNotFound, "GET", "/sandbox/"+id, nil)

	sid := srv.SeedSnapshot(SnapshotSeed{Name: "s"})
	srv.DeleteSnapshotOutOfBand("s")
	api.must(http.StatusNotFound, "GET", "/snapshots/"+sid, nil)

	vid := api.readyVolume("v")
	srv.DeleteVolumeOutOfBand(vid)
	api.must(http.StatusNotFound, "GET", "/volumes/by-name/v", nil)
	api.checkClean()
}

// Network settings and the public flag update in place, by the server's
// rules for combining the network fields.
func TestNetworkAndPublic(t *testing.T) {
	_, api, _ := newTest(t, Options{})
	id := api.createSandbox(map[string]any{"networkAllowList": "10.0.0.0/8"}).ID
	type net struct {
		NetworkBlockAll  bool
		NetworkAllowList *string
		Public           bool
	}
	var out net
	api.must(http.StatusOK, "POST", "/sandbox/"+id+"/network-settings", map[string]any{"networkBlockAll": true}).decode(t, &out)
	if !out.NetworkBlockAll || out.NetworkAllowList != nil {
		t.Fatalf("block all: %+v", out)
	}
	api.must(http.StatusOK, "POST", "/sandbox/"+id+"/network-settings", map[string]any{"networkAllowList": "192.168.0.0/16"}).decode(t, &out)
	if out.NetworkBlockAll || out.NetworkAllowList == nil || *out.NetworkAllowList != "192.168.0.0/16" {
		t.Fatalf("allow list: %+v", out)
	}
	api.refuse(http.StatusBadRequest, "Missing CIDR prefix length", "POST", "/sandbox/"+id+"/network-settings", map[string]any{"networkAllowList": "1.2.3.4"})
	api.must(http.StatusOK, "POST", "/sandbox/"+id+"/public/true", nil).decode(t, &out)
	if !out.Public {
		t.Fatalf("public: %+v", out)
	}
	api.checkClean()
}

// With ListLag, a new box is missing from the list (not from reads by id)
// until the lag has passed on the clock.
func TestListLag(t *testing.T) {
	_, api, clock := newTest(t, Options{ListLag: 5 * time.Second})
	id := api.createSandbox(map[string]any{"name": "new"}).ID
	var p struct{ Items []struct{ ID string } }
	api.must(http.StatusOK, "GET", "/sandbox", nil).decode(t, &p)
	if len(p.Items) != 0 {
		t.Fatalf("listed at once: %+v", p)
	}
	clock.Advance(5 * time.Second)
	api.must(http.StatusOK, "GET", "/sandbox", nil).decode(t, &p)
	if len(p.Items) != 1 || p.Items[0].ID != id {
		t.Fatalf("after the lag: %+v", p)
	}
	api.checkClean()
}
