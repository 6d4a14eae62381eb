package flyfake

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestVolumeCreateRules(t *testing.T) {
	e := newEnv(t, nil)
	cases := []struct {
		name    string
		body    map[string]any
		want    int
		mention string
	}{
		{"defaults", map[string]any{"name": "data"}, 200, ""},
		{"name with a dash", map[string]any{"name": "my-data"}, 400, "name"},
		{"retention 0", map[string]any{"name": "d", "snapshot_retention": 0}, 400, "snapshot_retention"},
		{"retention 61", map[string]any{"name": "d", "snapshot_retention": 61}, 400, "snapshot_retention"},
		{"retention 60", map[string]any{"name": "d", "snapshot_retention": 60}, 200, ""},
		{"size 0", map[string]any{"name": "d", "size_gb": 0}, 400, "size_gb"},
		{"unknown snapshot", map[string]any{"name": "d", "snapshot_id": "vs_nope"}, 404, "vs_nope"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("POST", volumes, tc.body)
			if r.status != tc.want || !strings.Contains(string(r.raw), tc.mention) {
				t.Fatalf("status %d %s, want %d mentioning %q", r.status, r.raw, tc.want, tc.mention)
			}
		})
	}
	v := e.s.Volumes()[0]
	if v.SizeGB != 3 || v.SnapshotRetention != 5 || !v.AutoBackupEnabled || !v.Encrypted || v.Region != "iad" {
		t.Fatalf("defaults: %+v", v)
	}
}

// fly-go's CreateVolumeRequest sends null for every unset pointer.
func TestVolumeCreateAcceptsFlyGoNulls(t *testing.T) {
	e := newEnv(t, nil)
	e.must(200, "POST", volumes, []byte(`{"name":"data","region":"iad","size_gb":null,"encrypted":null,"snapshot_retention":null,"snapshot_id":null,"compute":null}`))
}

func TestVolumeUpdateExtendDelete(t *testing.T) {
	e := newEnv(t, nil)
	vol := as[string](t, e.createVolume(map[string]any{"name": "data", "size_gb": 2})["id"])
	path := volumes + "/" + vol

	if got := e.must(200, "PUT", path, map[string]any{"snapshot_retention": 10, "auto_backup_enabled": false}).obj(t); got["snapshot_retention"] != float64(10) || got["auto_backup_enabled"] != false {
		t.Fatalf("PUT update: %v", got)
	}
	e.must(400, "PUT", path, map[string]any{"snapshot_retention": 0})
	e.must(200, "POST", path, map[string]any{"snapshot_retention": 7}) // the spec's Volumes_update

	cases := []struct {
		name         string
		size         int
		want         int
		needsRestart bool
	}{
		{"shrink", 1, 400, false},
		{"same size", 2, 400, false},
		{"grow, not mounted", 4, 200, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("PUT", path+"/extend", map[string]any{"size_gb": tc.size})
			if r.status != tc.want {
				t.Fatalf("status %d %s, want %d", r.status, r.raw, tc.want)
			}
			if tc.want == 200 && r.obj(t)["needs_restart"] != tc.needsRestart {
				t.Fatalf("needs_restart: %s", r.raw)
			}
		})
	}
	id := e.started(map[string]any{"config": testConfig(map[string]any{"mounts": []any{map[string]any{"volume": vol, "path": "/d"}}})})
	r := e.must(200, "PUT", path+"/extend", map[string]any{"size_gb": 5}).obj(t)
	if r["needs_restart"] != true || as[map[string]any](t, r["volume"])["size_gb"] != float64(5) {
		t.Fatalf("extend while mounted by a started machine: %v", r)
	}
	e.must(http.StatusPreconditionFailed, "DELETE", path, nil)
	e.s.DestroyMachineOutOfBand(id)
	if got := e.must(200, "DELETE", path, nil).obj(t)["state"]; got != VolumeScheduledDestroy {
		t.Fatalf("delete answers state %v", got)
	}
	// The API lists it while it is being destroyed; fly-go's GetVolumes hides it.
	if l := e.must(200, "GET", volumes, nil).list(t); len(l) != 1 || l[0]["state"] != VolumeScheduledDestroy {
		t.Fatalf("list: %v", l)
	}
	e.must(200, "GET", path, nil)
	if got := e.must(200, "GET", path, nil).obj(t)["state"]; got != VolumeDestroyed {
		t.Fatalf("state %v", got)
	}
	if l := e.must(200, "GET", volumes, nil).list(t); len(l) != 0 {
		t.Fatalf("list: %v", l)
	}
	e.clock.Advance(25 * time.Hour)
	e.must(404, "GET", path, nil)
}

func TestOnDemandSnapshotAndRestore(t *testing.T) {
	e := newEnv(t, nil)
	vol := as[string](t, e.createVolume(map[string]any{"name": "data", "size_gb": 4})["id"])
	r := e.must(200, "POST", volumes+"/"+vol+"/snapshots", nil)
	if len(r.raw) != 0 {
		t.Fatalf("snapshot create answered a body: %s", r.raw)
	}
	var id string
	for i, want := range []string{SnapshotWaiting, SnapshotRunning, SnapshotCreated} {
		l := e.must(200, "GET", volumes+"/"+vol+"/snapshots", nil).list(t)
		if len(l) != 1 || l[0]["status"] != want {
			t.Fatalf("list %d: %v, want status %s", i+1, l, want)
		}
		id = as[string](t, l[0]["id"])
	}
	e.must(400, "POST", volumes, map[string]any{"name": "small", "snapshot_id": id, "size_gb": 3})
	got := e.createVolume(map[string]any{"name": "restored", "snapshot_id": id})
	if got["size_gb"] != float64(4) {
		t.Fatalf("restore size: %v", got)
	}
	if v, _ := e.s.Volume(as[string](t, got["id"])); v.RestoredFrom != id {
		t.Fatalf("RestoredFrom %q", v.RestoredFrom)
	}
}

func TestAutomaticSnapshotsAndExpiry(t *testing.T) {
	e := newEnv(t, nil)
	vol := as[string](t, e.createVolume(map[string]any{"name": "data", "snapshot_retention": 2})["id"])
	steps := []struct {
		advance time.Duration
		want    int
	}{
		{23 * time.Hour, 0},
		{time.Hour, 1},      // day 1
		{24 * time.Hour, 2}, // day 2
		{24 * time.Hour, 2}, // day 3: day 1's expires after 2 days
		{24 * time.Hour, 2},
	}
	for i, st := range steps {
		e.clock.Advance(st.advance)
		l := e.must(200, "GET", volumes+"/"+vol+"/snapshots", nil).list(t)
		if len(l) != st.want {
			t.Fatalf("step %d: %d snapshots, want %d", i, len(l), st.want)
		}
		if len(l) == 2 && as[string](t, l[0]["created_at"]) <= as[string](t, l[1]["created_at"]) {
			t.Fatalf("not newest first: %v", l)
		}
	}
	// A new retention applies to new snapshots only.
	e.must(200, "PUT", volumes+"/"+vol, map[string]any{"snapshot_retention": 10})
	e.clock.Advance(24 * time.Hour)
	snaps := e.s.Snapshots(vol)
	if snaps[0].RetentionDays != 10 || snaps[1].RetentionDays != 2 || !snaps[0].Automatic {
		t.Fatalf("%+v", snaps)
	}
	if !snaps[0].ExpiresAt.Equal(snaps[0].CreatedAt.Add(10 * 24 * time.Hour)) {
		t.Fatalf("ExpiresAt %v", snaps[0].ExpiresAt)
	}
}
