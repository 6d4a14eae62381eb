package daytonafake

import (
	"net/http"
	"testing"
)

// A box is created "creating", reads creating once and then started,
// stops, starts, archives, restores and is deleted, each change seen by a
// read in its transitional state; every answer passes the spec.
func TestSandboxLifecycle(t *testing.T) {
	srv, api, _ := newTest(t, Options{})
	var created sandboxOut
	api.must(http.StatusOK, "POST", "/sandbox", map[string]any{"name": "box", "labels": map[string]string{"a": "1"}}).decode(t, &created)
	if created.State != stateCreating || created.DesiredState != stateStarted {
		t.Fatalf("create answered %s/%s, want creating/started", created.State, created.DesiredState)
	}
	if got := api.sandbox("box"); got.State != stateCreating {
		t.Fatalf("first GET: %s, want creating", got.State)
	}
	if got := api.sandbox(created.ID); got.State != stateStarted || got.Snapshot != DefaultSnapshotName ||
		got.AutoStopInterval != 15 || got.AutoArchiveInterval != 10080 || got.AutoDeleteInterval != -1 || got.SandboxClass != ClassContainer {
		t.Fatalf("second GET: %+v", got)
	}

	var stopped sandboxOut
	api.must(http.StatusOK, "POST", "/sandbox/box/stop", nil).decode(t, &stopped)
	if stopped.State != stateStopping || stopped.DesiredState != stateStopped {
		t.Fatalf("stop answered %s/%s, want stopping/stopped", stopped.State, stopped.DesiredState)
	}
	api.refuse(http.StatusConflict, "state change in progress", "POST", "/sandbox/box/start", nil)
	api.waitSandbox(created.ID, stateStopped)
	api.must(http.StatusOK, "POST", "/sandbox/box/archive", nil)
	api.waitSandbox(created.ID, stateArchived)
	api.must(http.StatusOK, "POST", "/sandbox/box/start", nil)
	if got := api.sandbox("box"); got.State != stateRestoring {
		t.Fatalf("restoring box shows %s", got.State)
	}
	api.waitSandbox(created.ID, stateStarted)

	var deleted sandboxOut
	api.must(http.StatusOK, "DELETE", "/sandbox/box", nil).decode(t, &deleted)
	if deleted.DesiredState != stateDestroyed {
		t.Fatalf("delete answered desiredState %s", deleted.DesiredState)
	}
	// The name is free at once; the id answers until the deletion settles.
	api.must(http.StatusNotFound, "GET", "/sandbox/box", nil)
	if got := api.sandbox(created.ID); got.State != stateDestroying {
		t.Fatalf("deleting box shows %s", got.State)
	}
	api.must(http.StatusNotFound, "GET", "/sandbox/"+created.ID, nil)
	if v, ok := srv.Sandbox(created.ID); !ok || !v.Destroyed || v.Labels["a"] != "1" {
		t.Fatalf("view: %+v %v", v, ok)
	}
	api.must(http.StatusOK, "POST", "/sandbox", map[string]any{"name": "box"})
	api.checkClean()
}
