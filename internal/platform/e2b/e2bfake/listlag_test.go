package e2bfake

import (
	"net/http"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

// TestE2BFakeListLag: with Options.ListLag, every list endpoint leaves out
// the objects created less than ListLag ago on the fake's clock, while a
// read by id finds them at once; once the lag has passed they are listed.
// A create whose answer was dropped after handling is lagged the same way.
func TestE2BFakeListLag(t *testing.T) {
	const lag = 10 * time.Second
	clock := clock.NewFake(epoch)
	srv := New(t, Options{APIKey: testKey, Clock: clock, BuildPolls: 1, ListLag: lag})
	api := newFakeAPI(t, srv)

	tplID := api.readyTemplate("base")
	var box sandboxJSON
	api.must(http.StatusCreated, "POST", "/sandboxes", map[string]any{"templateID": "base", "timeout": 3600}).decode(t, &box)
	var vol volumeAndTokenJSON
	api.must(http.StatusCreated, "POST", "/volumes", map[string]any{"name": "data"}).decode(t, &vol)
	var snap snapshotInfoJSON
	api.must(http.StatusCreated, "POST", "/sandboxes/"+box.SandboxID+"/snapshots", map[string]any{"name": "ckpt"}).decode(t, &snap)
	srv.Inject("POST /volumes", Fault{DropAfterHandling: true})
	if _, err := api.send("POST", "/volumes", map[string]any{"name": "lost"}); err == nil {
		t.Fatal("the dropped create answered")
	}

	counts := func() map[string]int {
		t.Helper()
		var boxes []listedSandboxJSON
		api.must(http.StatusOK, "GET", "/v2/sandboxes", nil).decode(t, &boxes)
		var vols []volumeJSON
		api.must(http.StatusOK, "GET", "/volumes", nil).decode(t, &vols)
		var tpls []templateJSON
		api.must(http.StatusOK, "GET", "/v2/templates", nil).decode(t, &tpls)
		var snaps, byBox, byName []snapshotInfoJSON
		api.must(http.StatusOK, "GET", "/snapshots", nil).decode(t, &snaps)
		api.must(http.StatusOK, "GET", "/snapshots?sandboxID="+box.SandboxID, nil).decode(t, &byBox)
		api.must(http.StatusOK, "GET", "/snapshots?name=ckpt", nil).decode(t, &byName)
		return map[string]int{"sandboxes": len(boxes), "volumes": len(vols), "templates": len(tpls),
			"snapshots": len(snaps), "snapshots of the box": len(byBox), "snapshots by name": len(byName)}
	}
	check := func(when string, want int) {
		t.Helper()
		for list, n := range counts() {
			wantN := want
			if list == "volumes" {
				wantN = 2 * want // "data" and the lost "lost"
			}
			if n != wantN {
				t.Errorf("%s: %s listed %d, want %d", when, list, n, wantN)
			}
		}
	}

	check("right after the creates", 0)
	// Reads by id are not lagged.
	api.must(http.StatusOK, "GET", "/sandboxes/"+box.SandboxID, nil)
	api.must(http.StatusOK, "GET", "/volumes/"+vol.VolumeID, nil)
	api.must(http.StatusOK, "GET", "/templates/"+tplID, nil)
	if got := len(srv.Sandboxes()) + len(srv.Volumes()) + len(srv.Templates()) + len(srv.Snapshots()); got != 5 {
		t.Errorf("the fake's views hold %d objects, want all 5 (views are not lagged)", got)
	}
	clock.Advance(lag - time.Nanosecond)
	check("just before the lag has passed", 0)
	clock.Advance(time.Nanosecond)
	check("once the lag has passed", 1)

	// A named snapshot taken again is a new build of a listed snapshot: it
	// stays listed.
	api.must(http.StatusCreated, "POST", "/sandboxes/"+box.SandboxID+"/snapshots", map[string]any{"name": "ckpt"})
	check("after a second snapshot under the name", 1)
	api.checkClean()
}
