package daytonafake

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Snapshots settle from pending through pulling (image) or building
// (buildInfo) to active, or fail as the build or pull fails; a read sees
// each state.
func TestSnapshotBuilds(t *testing.T) {
	cases := []struct {
		name       string
		body       map[string]any
		upload     string // context hash to upload first
		failReason string
		via        string
		final      string
		reason     string
		logs       []string
	}{
		{name: "image", body: map[string]any{"name": "img", "imageName": "python:3.12", "cpu": 2, "memory": 4, "disk": 10},
			via: snapPulling, final: snapActive},
		{name: "image pull fails", body: map[string]any{"name": "img", "imageName": "python:3.12"}, failReason: "manifest unknown",
			via: snapPulling, final: snapError, reason: "manifest unknown"},
		{name: "build", body: map[string]any{"name": "b", "buildInfo": map[string]any{"dockerfileContent": "FROM python:3.12\nCOPY app /app", "contextHashes": []string{"h1"}}},
			upload: "h1", via: snapBuilding, final: snapActive, logs: []string{"Building snapshot b", "Successfully built snapshot b"}},
		{name: "build without its context", body: map[string]any{"name": "b", "buildInfo": map[string]any{"dockerfileContent": "FROM x", "contextHashes": []string{"missing"}}},
			via: snapBuilding, final: snapBuildFailed, reason: "build context missing not found in object storage"},
		{name: "build fails", body: map[string]any{"name": "b", "buildInfo": map[string]any{"dockerfileContent": "FROM x\nRUN false"}},
			failReason: "exit code 1", via: snapBuilding, final: snapBuildFailed, reason: "exit code 1", logs: []string{"Step 2/2 : RUN false", "exit code 1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, api, _ := newTest(t, Options{})
			if tc.upload != "" {
				p := api.pushAccess()
				if err := upload(t, s3Client(p, p.Secret), p, tc.upload, map[string]string{"app/x": "1"}); err != nil {
					t.Fatal(err)
				}
			}
			if tc.failReason != "" {
				srv.FailNextBuild(tc.failReason, "Step 2/2 : RUN false\nexit code 1")
			}
			var created snapshotOut
			api.must(http.StatusOK, "POST", "/snapshots", tc.body).decode(t, &created)
			if created.State != snapPending {
				t.Fatalf("created %s", created.State)
			}
			if got := api.snapshot(created.ID); got.State != snapPending {
				t.Fatalf("first poll %s, want pending", got.State)
			}
			if got := api.snapshot(created.ID); got.State != tc.via {
				t.Fatalf("second poll %s, want %s", got.State, tc.via)
			}
			name, _ := tc.body["name"].(string)
			got := api.snapshot(name)
			if got.State != tc.final || (tc.reason != "" && (got.ErrorReason == nil || *got.ErrorReason != tc.reason)) {
				t.Fatalf("settled %s (%v), want %s (%s)", got.State, got.ErrorReason, tc.final, tc.reason)
			}
			if _, hasBuild := tc.body["buildInfo"]; hasBuild {
				var u struct{ URL string }
				api.must(http.StatusOK, "GET", "/snapshots/"+created.ID+"/build-logs-url", nil).decode(t, &u)
				resp, err := http.Get(u.URL)
				if err != nil {
					t.Fatal(err)
				}
				text, _ := io.ReadAll(resp.Body)
				_ = resp.Body.Close()
				// The Go SDK reads the deprecated endpoint instead
				// (sdk-go snapshot.go, build-logs?follow=true).
				direct := api.must(http.StatusOK, "GET", "/snapshots/"+created.ID+"/build-logs?follow=true", nil)
				for _, want := range tc.logs {
					if !strings.Contains(string(text), want) || !strings.Contains(string(direct.body), want) {
						t.Errorf("logs %q / %q lack %q", text, direct.body, want)
					}
				}
			}
			api.checkClean()
		})
	}
}

// An image snapshot keeps its sizes and class; sandboxes from it inherit
// them and mark it used.
func TestSnapshotSizesAndUse(t *testing.T) {
	srv, api, clock := newTest(t, Options{})
	var sn snapshotOut
	api.must(http.StatusOK, "POST", "/snapshots", map[string]any{"name": "vm", "imageName": "ubuntu:24.04", "cpu": 2, "memory": 4, "disk": 20, "sandboxClass": "linux-vm"}).decode(t, &sn)
	api.waitSnapshot(sn.ID, snapActive)
	clock.Advance(time.Hour)
	box := api.createSandbox(map[string]any{"snapshot": sn.ID})
	if box.CPU != 2 || box.Memory != 4 || box.Disk != 20 || box.SandboxClass != ClassLinuxVM || box.Snapshot != "vm" {
		t.Fatalf("box %+v", box)
	}
	v, _ := srv.Snapshot("vm")
	if v.LastUsedAt == nil || !v.LastUsedAt.Equal(t0.Add(time.Hour)) {
		t.Fatalf("lastUsedAt %v", v.LastUsedAt)
	}
	api.checkClean()
}

// The list pages with page/limit, filters by name substring and sorts;
// general snapshots come last.
func TestSnapshotList(t *testing.T) {
	srv, api, _ := newTest(t, Options{})
	for _, name := range []string{"beta", "alpha", "gamma"} {
		srv.SeedSnapshot(SnapshotSeed{Name: name})
	}
	var page struct {
		Items                   []snapshotOut
		Total, Page, TotalPages int
	}
	api.must(http.StatusOK, "GET", "/snapshots?sort=name&order=asc&limit=2&page=1", nil).decode(t, &page)
	if page.Total != 4 || page.TotalPages != 2 || len(page.Items) != 2 || page.Items[0].Name != "alpha" || page.Items[1].Name != "beta" {
		t.Fatalf("page 1: %+v", page)
	}
	api.must(http.StatusOK, "GET", "/snapshots?sort=name&order=asc&limit=2&page=2", nil).decode(t, &page)
	if len(page.Items) != 2 || page.Items[0].Name != "gamma" || page.Items[1].Name != DefaultSnapshotName {
		t.Fatalf("page 2 (general last): %+v", page)
	}
	api.must(http.StatusOK, "GET", "/snapshots?name=AMM", nil).decode(t, &page)
	if page.Total != 1 || page.Items[0].Name != "gamma" {
		t.Fatalf("name filter: %+v", page)
	}
	api.checkClean()
}

// Deleting goes through "removing"; activation brings an inactive snapshot
// back through a pull once the cooldown has passed.
func TestSnapshotDeleteAndActivate(t *testing.T) {
	srv, api, clock := newTest(t, Options{})
	id := srv.SeedSnapshot(SnapshotSeed{Name: "s", ImageName: "ubuntu:22.04"})
	api.must(http.StatusNoContent, "POST", "/snapshots/"+id+"/deactivate", nil)
	if got := api.snapshot(id); got.State != snapInactive {
		t.Fatalf("deactivated: %s", got.State)
	}
	clock.Advance(11 * time.Minute)
	var act snapshotOut
	api.must(http.StatusOK, "POST", "/snapshots/"+id+"/activate", nil).decode(t, &act)
	if act.State != snapPending {
		t.Fatalf("activate answered %s", act.State)
	}
	api.waitSnapshot(id, snapActive)

	api.must(http.StatusOK, "DELETE", "/snapshots/"+id, nil)
	if got := api.snapshot("s"); got.State != snapRemoving {
		t.Fatalf("deleting: %s", got.State)
	}
	api.must(http.StatusNotFound, "GET", "/snapshots/s", nil)
	api.must(http.StatusNotFound, "GET", "/snapshots/"+id, nil)
	api.checkClean()
}

// A snapshot of a sandbox: the box shows "snapshotting" and returns to its
// state; the snapshot has the box's sizes and class and becomes active.
func TestSnapshotFromSandbox(t *testing.T) {
	srv, api, _ := newTest(t, Options{})
	srv.SeedSnapshot(SnapshotSeed{Name: "win", SandboxClass: ClassWindows, CPU: 4, MemoryGB: 8, DiskGB: 60})
	box := api.createSandbox(map[string]any{"snapshot": "win"})
	var during sandboxOut
	api.must(http.StatusOK, "POST", "/sandbox/"+box.ID+"/snapshot", map[string]any{"name": "win-mem", "includeMemory": true}).decode(t, &during)
	if during.State != stateSnapshotting {
		t.Fatalf("snapshot answered %s", during.State)
	}
	api.refuse(http.StatusConflict, "state change in progress", "POST", "/sandbox/"+box.ID+"/stop", nil)
	api.waitSandbox(box.ID, stateStarted)
	sn := api.waitSnapshot("win-mem", snapActive)
	if sn.SandboxClass != ClassWindows || sn.CPU != 4 || sn.Mem != 8 || sn.Disk != 60 {
		t.Fatalf("snapshot %+v", sn)
	}
	if v, _ := srv.Snapshot("win-mem"); v.FromSandbox != box.ID {
		t.Fatalf("view %+v", v)
	}
	api.checkClean()
}
