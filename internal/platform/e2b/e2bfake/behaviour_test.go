package e2bfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

func TestE2BFakeSnapshotPagination(t *testing.T) {
	clock := clock.NewFake(epoch)
	srv := New(t, Options{APIKey: testKey, Clock: clock, BuildPolls: 1})
	api := newFakeAPI(t, srv)
	api.readyTemplate("base")
	var first, second sandboxJSON
	api.must(http.StatusCreated, "POST", "/sandboxes", map[string]any{"templateID": "base", "timeout": 3600}).decode(t, &first)
	api.must(http.StatusCreated, "POST", "/sandboxes", map[string]any{"templateID": "base", "timeout": 3600}).decode(t, &second)
	for i := range 150 {
		sb := first.SandboxID
		if i%3 == 0 {
			sb = second.SandboxID
		}
		api.must(http.StatusCreated, "POST", "/sandboxes/"+sb+"/snapshots", map[string]any{"name": fmt.Sprintf("snap-%03d", i)})
		clock.Advance(time.Second)
	}

	walk := func(query string, deleteAfterFirstPage bool) (ids []string, pages int) {
		t.Helper()
		next := ""
		for {
			q := query
			if next != "" {
				q += "&nextToken=" + url.QueryEscape(next)
			}
			var page []snapshotInfoJSON
			ans := api.must(http.StatusOK, "GET", "/snapshots?"+q, nil)
			ans.decode(t, &page)
			pages++
			for _, p := range page {
				ids = append(ids, p.SnapshotID)
			}
			next = ans.header.Get("X-Next-Token")
			if deleteAfterFirstPage && pages == 1 {
				// Deleting an item already seen must not shift the next page.
				api.must(http.StatusNoContent, "DELETE", "/templates/"+url.PathEscape(page[0].SnapshotID), nil)
			}
			if next == "" {
				return ids, pages
			}
			if pages > 20 {
				t.Fatal("pagination does not end")
			}
		}
	}
	cases := []struct {
		name      string
		query     string
		delete    bool
		wantItems int
		wantPages int
	}{
		{"default limit is 100", "", false, 150, 2},
		{"limit 40", "limit=40", false, 150, 4},
		{"limit 100 exactly", "limit=100", false, 150, 2},
		{"filtered by sandbox", "sandboxID=" + second.SandboxID + "&limit=20", false, 50, 3},
		{"filtered by name", "name=snap-007", false, 1, 1},
		{"filtered by tagged name", "name=snap-007:default", false, 1, 1},
		{"delete between pages", "limit=50", true, 150, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ids, pages := walk(tc.query, tc.delete)
			seen := map[string]bool{}
			for _, id := range ids {
				if seen[id] {
					t.Fatalf("%s listed twice", id)
				}
				seen[id] = true
			}
			if len(ids) != tc.wantItems || pages != tc.wantPages {
				t.Fatalf("%d items on %d pages, want %d on %d", len(ids), pages, tc.wantItems, tc.wantPages)
			}
			if tc.name == "default limit is 100" && (ids[0] != "snap-149:default" || ids[149] != "snap-000:default") {
				t.Fatalf("order: first %s, last %s; want newest first", ids[0], ids[149])
			}
		})
	}
	// After the deleting walk, 149 snapshots remain.
	if n := len(srv.Snapshots()); n != 149 {
		t.Fatalf("%d snapshots left, want 149", n)
	}
	api.must(http.StatusBadRequest, "GET", "/snapshots?nextToken=garbage", nil)
	api.checkClean()
}

func TestE2BFakeSandboxListPagination(t *testing.T) {
	clock := clock.NewFake(epoch)
	srv := New(t, Options{APIKey: testKey, Clock: clock, BuildPolls: 1})
	api := newFakeAPI(t, srv)
	api.readyTemplate("base")
	for i := range 7 {
		var sb sandboxJSON
		api.must(http.StatusCreated, "POST", "/sandboxes", map[string]any{"templateID": "base", "timeout": 3600,
			"metadata": map[string]string{"sbx-managed": "true", "n": fmt.Sprint(i)}}).decode(t, &sb)
		if i%2 == 0 {
			api.must(http.StatusNoContent, "POST", "/sandboxes/"+sb.SandboxID+"/pause", map[string]any{})
		}
		clock.Advance(time.Minute)
	}
	cases := []struct {
		query     string
		wantItems int
		running   string
	}{
		{"state=running,paused&limit=3", 7, "3"},
		{"state=paused&limit=3", 4, ""},
		{"state=running&limit=2&order=asc", 3, "3"},
		{"metadata=" + url.QueryEscape("sbx-managed=true&n=4") + "&limit=1", 1, "0"},
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			var all []listedSandboxJSON
			next := ""
			for range 10 {
				q := tc.query
				if next != "" {
					q += "&nextToken=" + url.QueryEscape(next)
				}
				var page []listedSandboxJSON
				ans := api.must(http.StatusOK, "GET", "/v2/sandboxes?"+q, nil)
				ans.decode(t, &page)
				all = append(all, page...)
				if got := ans.header.Get("X-Total-Running"); got != tc.running {
					t.Fatalf("X-Total-Running = %q, want %q", got, tc.running)
				}
				if next = ans.header.Get("X-Next-Token"); next == "" {
					break
				}
			}
			if len(all) != tc.wantItems {
				t.Fatalf("%d sandboxes, want %d", len(all), tc.wantItems)
			}
			for i := 1; i < len(all); i++ {
				asc := strings.Contains(tc.query, "order=asc")
				if before := all[i-1].StartedAt.Before(all[i].StartedAt); before != asc {
					t.Fatalf("order broken at %d: %v then %v", i, all[i-1].StartedAt, all[i].StartedAt)
				}
			}
		})
	}
	api.checkClean()
}

func TestE2BFakeTimeoutExpiry(t *testing.T) {
	cases := []struct {
		name      string
		create    map[string]any
		wantState string // "" = killed
		wantEnd   time.Duration
		omitted   bool
	}{
		{"killed on timeout", map[string]any{"timeout": 300}, "", 300 * time.Second, false},
		{"paused on timeout with autoPause", map[string]any{"timeout": 300, "autoPause": true}, statePaused, 300 * time.Second, false},
		{"omitted timeout is 15 s and recorded", map[string]any{}, "", 15 * time.Second, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clock := clock.NewFake(epoch)
			srv := New(t, Options{APIKey: testKey, Clock: clock, BuildPolls: 1})
			api := newFakeAPI(t, srv)
			api.readyTemplate("base")
			body := map[string]any{"templateID": "base"}
			for k, v := range tc.create {
				body[k] = v
			}
			var sb sandboxJSON
			api.must(http.StatusCreated, "POST", "/sandboxes", body).decode(t, &sb)
			view, _ := srv.Sandbox(sb.SandboxID)
			if view.TimeoutOmitted != tc.omitted || !view.EndAt.Equal(epoch.Add(tc.wantEnd)) {
				t.Fatalf("view = %+v", view)
			}

			clock.Advance(tc.wantEnd - time.Second)
			api.must(http.StatusOK, "GET", "/sandboxes/"+sb.SandboxID, nil)
			clock.Advance(time.Second) // now == endAt: due
			if tc.wantState == "" {
				api.must(http.StatusNotFound, "GET", "/sandboxes/"+sb.SandboxID, nil)
				if _, ok := srv.Sandbox(sb.SandboxID); ok {
					t.Fatal("expired sandbox still in state")
				}
			} else {
				var d sandboxDetailJSON
				api.must(http.StatusOK, "GET", "/sandboxes/"+sb.SandboxID, nil).decode(t, &d)
				if d.State != tc.wantState {
					t.Fatalf("state %s, want %s", d.State, tc.wantState)
				}
				// Paused sandboxes do not expire; connect resumes with a fresh end.
				clock.Advance(72 * time.Hour)
				api.must(http.StatusCreated, "POST", "/sandboxes/"+sb.SandboxID+"/connect", map[string]any{"timeout": 60})
				view, _ := srv.Sandbox(sb.SandboxID)
				if view.State != stateRunning || !view.EndAt.Equal(clock.Now().Add(time.Minute)) {
					t.Fatalf("after resume: %+v", view)
				}
			}
			api.checkClean()
		})
	}
}

func TestE2BFakeOutOfBand(t *testing.T) {
	srv := New(t, Options{APIKey: testKey, BuildPolls: 1, TeamSlug: "acme"})
	api := newFakeAPI(t, srv)
	templateID := api.readyTemplate("base")
	var sb sandboxJSON
	api.must(http.StatusCreated, "POST", "/sandboxes", map[string]any{"templateID": "acme/base:default", "timeout": 600}).decode(t, &sb)
	var snap snapshotInfoJSON
	api.must(http.StatusCreated, "POST", "/sandboxes/"+sb.SandboxID+"/snapshots", map[string]any{}).decode(t, &snap)
	if !strings.HasSuffix(snap.SnapshotID, ":default") || len(snap.Names) != 0 {
		t.Fatalf("unnamed snapshot = %+v", snap)
	}

	// A named snapshot on a team with a slug is namespaced; its ID travels
	// path-escaped.
	var named snapshotInfoJSON
	api.must(http.StatusCreated, "POST", "/sandboxes/"+sb.SandboxID+"/snapshots", map[string]any{"name": "nightly"}).decode(t, &named)
	if named.SnapshotID != "acme/nightly:default" || named.Names[0] != "acme/nightly:default" {
		t.Fatalf("named snapshot = %+v", named)
	}
	api.must(http.StatusCreated, "POST", "/sandboxes", map[string]any{"templateID": named.SnapshotID, "timeout": 60})
	api.must(http.StatusNoContent, "DELETE", "/templates/"+url.PathEscape(named.SnapshotID), nil)

	srv.PauseOutOfBand(sb.SandboxID)
	var d sandboxDetailJSON
	api.must(http.StatusOK, "GET", "/sandboxes/"+sb.SandboxID, nil).decode(t, &d)
	if d.State != statePaused {
		t.Fatalf("state after out-of-band pause = %s", d.State)
	}
	api.must(http.StatusNotFound, "POST", "/sandboxes/"+sb.SandboxID+"/timeout", map[string]any{"timeout": 60})
	srv.KillOutOfBand(sb.SandboxID)
	api.must(http.StatusNotFound, "GET", "/sandboxes/"+sb.SandboxID, nil)

	srv.DeleteTemplateOutOfBand(snap.SnapshotID)
	srv.DeleteTemplateOutOfBand(templateID)
	api.must(http.StatusNotFound, "GET", "/templates/"+templateID, nil)
	api.must(http.StatusNotFound, "POST", "/sandboxes", map[string]any{"templateID": "acme/base", "timeout": 60})
	if len(srv.Snapshots())+len(srv.Templates()) != 0 {
		t.Fatal("out-of-band deletes left objects")
	}
	api.checkClean()
}

func TestE2BFakeFaults(t *testing.T) {
	cases := []struct {
		name        string
		fault       Fault
		client      time.Duration // client timeout; 0 = default
		wantStatus  []int         // per attempt; 0 = transport error
		wantVolumes int           // volumes after all attempts
	}{
		{"429 with Retry-After", Fault{Status: 429, RetryAfter: "2"}, 0, []int{429, 201}, 1},
		{"503 twice", Fault{Status: 503, Times: 2}, 0, []int{503, 503, 201}, 1},
		{"drop before handling", Fault{DropBeforeHandling: true}, 0, []int{0, 201}, 1},
		{"drop after handling", Fault{DropAfterHandling: true}, 0, []int{0, 400}, 1},
		{"latency the client waits out", Fault{Latency: 20 * time.Millisecond}, 0, []int{201, 400}, 1},
		{"latency beyond the client timeout", Fault{Latency: 5 * time.Second}, 100 * time.Millisecond, []int{0, 201}, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := New(t, Options{APIKey: testKey})
			api := newFakeAPI(t, srv)
			if tc.client > 0 {
				api.hc.Timeout = tc.client
			}
			srv.Inject("POST /volumes", tc.fault)
			for i, want := range tc.wantStatus {
				ans, err := api.send("POST", "/volumes", map[string]any{"name": "vol"})
				switch {
				case want == 0 && err == nil:
					t.Fatalf("attempt %d: status %d, want a transport error", i+1, ans.status)
				case want != 0 && err != nil:
					t.Fatalf("attempt %d: %v, want status %d", i+1, err, want)
				case want != 0 && ans.status != want:
					t.Fatalf("attempt %d: status %d, want %d (%s)", i+1, ans.status, want, ans.body)
				}
				if want == 429 && ans.header.Get("Retry-After") != tc.fault.RetryAfter {
					t.Fatalf("Retry-After = %q", ans.header.Get("Retry-After"))
				}
				api.hc.Timeout = 10 * time.Second
			}
			if got := srv.Requests("POST /volumes"); got != len(tc.wantStatus) {
				t.Fatalf("Requests = %d, want %d", got, len(tc.wantStatus))
			}
			if got := len(srv.Volumes()); got != tc.wantVolumes {
				t.Fatalf("%d volumes, want %d", got, tc.wantVolumes)
			}
			if v := srv.SpecViolations(); len(v) != 0 {
				t.Fatalf("violations: %q", v)
			}
		})
	}
}

// Concurrent clients: state stays consistent (run with -race).
func TestE2BFakeConcurrentClients(t *testing.T) {
	srv := New(t, Options{APIKey: testKey, BuildPolls: 1})
	api := newFakeAPI(t, srv)
	api.readyTemplate("base")
	const workers = 16
	errs := make(chan error, workers)
	for range workers {
		go func() {
			ans, err := api.send("POST", "/sandboxes", map[string]any{"templateID": "base", "timeout": 60})
			if err == nil && ans.status != http.StatusCreated {
				err = fmt.Errorf("create: %d %s", ans.status, ans.body)
			}
			if err == nil {
				var sb sandboxJSON
				if err = json.Unmarshal(ans.body, &sb); err == nil {
					_, err = api.send("POST", "/sandboxes/"+sb.SandboxID+"/pause", nil)
				}
			}
			errs <- err
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	views := srv.Sandboxes()
	if len(views) != workers {
		t.Fatalf("%d sandboxes, want %d", len(views), workers)
	}
	for _, v := range views {
		if v.State != statePaused || v.PauseCount != 1 {
			t.Fatalf("sandbox %+v", v)
		}
	}
	if srv.Requests("POST /sandboxes") != workers || srv.Requests("post /sandboxes/{sandboxID}/pause") != workers {
		t.Fatalf("request counts %d, %d", srv.Requests("POST /sandboxes"), srv.Requests("POST /sandboxes/{sandboxID}/pause"))
	}
	api.checkClean()
}
