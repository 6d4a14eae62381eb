package daytonafake

import (
	"net/http"
	"testing"
)

// A volume settles pending_create → creating → ready; deletion goes through
// pending_delete and deleting to "deleted", renamed "<name>-deleted": the id
// still answers, the name does not, and lists hide it unless asked.
func TestVolumeLifecycle(t *testing.T) {
	srv, api, _ := newTest(t, Options{})
	var v struct{ ID, Name, State string }
	api.must(http.StatusOK, "POST", "/volumes", map[string]any{"name": "data"}).decode(t, &v)
	if v.State != volPendingCreate {
		t.Fatalf("created %s", v.State)
	}
	for _, want := range []string{volPendingCreate, volCreating, volReady} {
		api.must(http.StatusOK, "GET", "/volumes/by-name/data", nil).decode(t, &v)
		if v.State != want {
			t.Fatalf("read %s, want %s", v.State, want)
		}
	}

	// Mounted by a box: 409 until the box is being destroyed.
	box := api.createSandbox(map[string]any{"volumes": []map[string]any{{"volumeId": "data", "mountPath": "/home/daytona/data", "subpath": "users/1"}}})
	if len(box.Volumes) != 1 || box.Volumes[0].VolumeID != v.ID || box.Volumes[0].Subpath != "users/1" {
		t.Fatalf("box volumes %+v", box.Volumes)
	}
	api.must(http.StatusConflict, "DELETE", "/volumes/"+v.ID, nil)
	api.must(http.StatusOK, "DELETE", "/sandbox/"+box.ID, nil)
	api.must(http.StatusOK, "DELETE", "/volumes/"+v.ID, nil)

	for _, want := range []string{volPendingDelete, volDeleting} {
		api.must(http.StatusOK, "GET", "/volumes/"+v.ID, nil).decode(t, &v)
		if v.State != want {
			t.Fatalf("deleting volume shows %s, want %s", v.State, want)
		}
	}
	api.must(http.StatusOK, "GET", "/volumes/"+v.ID, nil).decode(t, &v)
	if v.State != volDeleted || v.Name != "data-deleted" {
		t.Fatalf("deleted volume shows %+v", v)
	}
	api.must(http.StatusNotFound, "GET", "/volumes/by-name/data", nil)
	var list []struct{ ID string }
	api.must(http.StatusOK, "GET", "/volumes", nil).decode(t, &list)
	if len(list) != 0 {
		t.Fatalf("list %+v", list)
	}
	api.must(http.StatusOK, "GET", "/volumes?includeDeleted=true", nil).decode(t, &list)
	if len(list) != 1 {
		t.Fatalf("list with deleted %+v", list)
	}
	// The name is free again.
	api.must(http.StatusOK, "POST", "/volumes", map[string]any{"name": "data"})
	if vv, ok := srv.Volume(v.ID); !ok || vv.State != volDeleted || vv.LastUsedAt == nil {
		t.Fatalf("view %+v", vv)
	}
	api.checkClean()
}
