package e2bfake

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

var epoch = time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)

func TestE2BFakeTemplateBuild(t *testing.T) {
	clock := clock.NewFake(epoch)
	srv := New(t, Options{APIKey: testKey, Clock: clock, BuildPolls: 3})
	api := newFakeAPI(t, srv)

	var created templateRequestResponseV3
	api.must(http.StatusAccepted, "POST", "/v3/templates", map[string]any{"name": "py-tools:v1", "tags": []string{"stable"}, "cpuCount": 4, "memoryMB": 2048}).decode(t, &created)
	if created.Names[0] != "py-tools" || strings.Join(created.Tags, ",") != "v1,stable" {
		t.Fatalf("created = %+v", created)
	}

	// Build files: not present, uploaded to the returned URL, then present.
	appLayer := gzipTar(t, map[string]string{"app/main.py": "print(1)", "app/req.txt": ""})
	appEntries, err := unpackLayer(appLayer)
	if err != nil {
		t.Fatal(err)
	}
	appHash, _ := sdkFilesHash("app", "/app", appEntries)
	var link buildFileUpload
	api.must(http.StatusCreated, "GET", "/templates/"+created.TemplateID+"/files/"+appHash, nil).decode(t, &link)
	if link.Present || link.URL == "" {
		t.Fatalf("first file link = %+v, want an upload URL", link)
	}
	if st := api.upload(link.URL, appLayer); st != http.StatusOK {
		t.Fatalf("upload status %d", st)
	}
	api.must(http.StatusCreated, "GET", "/templates/"+created.TemplateID+"/files/"+appHash, nil).decode(t, &link)
	if !link.Present {
		t.Fatal("uploaded files are not present")
	}

	statusPath := "/templates/" + created.TemplateID + "/builds/" + created.BuildID + "/status"
	var info templateBuildInfo
	api.must(http.StatusOK, "GET", statusPath, nil).decode(t, &info)
	if info.Status != buildWaiting {
		t.Fatalf("before start: %s, want waiting", info.Status)
	}
	api.must(http.StatusAccepted, "POST", "/v2/templates/"+created.TemplateID+"/builds/"+created.BuildID, map[string]any{
		"fromImage": "python:3.12",
		"steps":     []map[string]any{{"type": "COPY", "args": []string{"app", "/app"}, "filesHash": appHash}, {"type": "RUN", "args": []string{"pip install -r /app/req.txt"}}},
		"startCmd":  "python /app/main.py",
	})
	for poll, want := range []string{buildBuilding, buildBuilding, buildReady} {
		api.must(http.StatusOK, "GET", statusPath, nil).decode(t, &info)
		if info.Status != want {
			t.Fatalf("poll %d: %s, want %s", poll+1, info.Status, want)
		}
	}
	if len(info.LogEntries) != 4 || len(info.Logs) != 4 || info.Reason != nil {
		t.Fatalf("ready build info = %+v", info)
	}
	var logs struct{ Logs []logEntry }
	api.must(http.StatusOK, "GET", "/templates/"+created.TemplateID+"/builds/"+created.BuildID+"/logs?direction=backward&limit=1", nil).decode(t, &logs)
	if len(logs.Logs) != 1 || logs.Logs[0].Message != "Build finished" {
		t.Fatalf("last log = %+v", logs.Logs)
	}

	// The same name again is a new build of the same template; this one fails.
	srv.FailNextBuild("py-tools", "apt-get exited with 100")
	var again templateRequestResponseV3
	api.must(http.StatusAccepted, "POST", "/v3/templates", map[string]any{"name": "py-tools"}).decode(t, &again)
	if again.TemplateID != created.TemplateID || again.BuildID == created.BuildID {
		t.Fatalf("rebuild = %+v, first = %+v", again, created)
	}
	api.must(http.StatusAccepted, "POST", "/v2/templates/"+again.TemplateID+"/builds/"+again.BuildID, map[string]any{"fromTemplate": "py-tools:v1"})
	for range 3 {
		api.must(http.StatusOK, "GET", "/templates/"+again.TemplateID+"/builds/"+again.BuildID+"/status", nil).decode(t, &info)
	}
	if info.Status != buildError || info.Reason == nil || info.Reason.Message != "apt-get exited with 100" {
		t.Fatalf("failed build info = %+v", info)
	}

	// A step whose files were never uploaded fails the build.
	var third templateRequestResponseV3
	api.must(http.StatusAccepted, "POST", "/v3/templates", map[string]any{"name": "no-files"}).decode(t, &third)
	api.must(http.StatusAccepted, "POST", "/v2/templates/"+third.TemplateID+"/builds/"+third.BuildID, map[string]any{
		"fromImage": "alpine", "steps": []map[string]any{{"type": "COPY", "args": []string{".", "/"}, "filesHash": "missing"}}})
	for range 3 {
		api.must(http.StatusOK, "GET", "/templates/"+third.TemplateID+"/builds/"+third.BuildID+"/status", nil).decode(t, &info)
	}
	if info.Status != buildError || !strings.Contains(info.Reason.Message, "missing") {
		t.Fatalf("build without files = %+v", info)
	}

	var tmpl templateWithBuilds
	api.must(http.StatusOK, "GET", "/templates/"+created.TemplateID, nil).decode(t, &tmpl)
	if len(tmpl.Builds) != 2 || tmpl.Builds[0].Status != buildError || tmpl.Builds[1].Status != buildReady {
		t.Fatalf("template builds (newest first) = %+v", tmpl.Builds)
	}
	var list []templateJSON
	api.must(http.StatusOK, "GET", "/v2/templates", nil).decode(t, &list)
	if len(list) != 2 || list[0].BuildID != created.BuildID || list[0].BuildStatus != buildError || list[0].CPUCount != 4 {
		t.Fatalf("template list = %+v", list)
	}
	var alias struct{ TemplateID string }
	api.must(http.StatusOK, "GET", "/templates/aliases/py-tools", nil).decode(t, &alias)
	if alias.TemplateID != created.TemplateID {
		t.Fatalf("alias lookup = %+v", alias)
	}
	api.must(http.StatusNotFound, "GET", "/templates/aliases/nope", nil)

	views := srv.Templates()
	if len(views) != 2 || views[0].Files[appHash] != len(appLayer) || views[0].Uploads[appHash] != 1 || len(views[0].Builds[0].Steps) != 2 ||
		views[0].Builds[0].StartCmd != "python /app/main.py" || views[0].Builds[1].Reason != "apt-get exited with 100" {
		t.Fatalf("template views = %+v", views)
	}

	api.must(http.StatusNoContent, "DELETE", "/templates/"+created.TemplateID, nil)
	api.must(http.StatusNotFound, "DELETE", "/templates/"+created.TemplateID, nil)
	if len(srv.Templates()) != 1 {
		t.Fatalf("templates after delete = %+v", srv.Templates())
	}
	api.checkClean()
}

func TestE2BFakeSandboxLifecycle(t *testing.T) {
	clock := clock.NewFake(epoch)
	srv := New(t, Options{APIKey: testKey, Clock: clock, BuildPolls: 1})
	api := newFakeAPI(t, srv)
	templateID := api.readyTemplate("base")

	var vol volumeAndTokenJSON
	api.must(http.StatusCreated, "POST", "/volumes", map[string]any{"name": "data"}).decode(t, &vol)

	var sb sandboxJSON
	api.must(http.StatusCreated, "POST", "/sandboxes", map[string]any{
		"templateID": "base", "timeout": 600, "autoPause": true,
		"metadata": map[string]string{"sbx-managed": "true", "owner": "a b&c"}, "envVars": map[string]string{"K": "v"},
		"volumeMounts": []map[string]string{{"name": "data", "path": "/data"}},
	}).decode(t, &sb)
	if sb.TemplateID != templateID || sb.Alias != "base" {
		t.Fatalf("created sandbox = %+v", sb)
	}
	// A second sandbox that must not match the metadata filter.
	api.must(http.StatusCreated, "POST", "/sandboxes", map[string]any{"templateID": templateID, "timeout": 600, "metadata": map[string]string{"owner": "other"}})

	var d sandboxDetailJSON
	api.must(http.StatusOK, "GET", "/sandboxes/"+sb.SandboxID, nil).decode(t, &d)
	if d.State != stateRunning || !d.StartedAt.Equal(epoch) || !d.EndAt.Equal(epoch.Add(600*time.Second)) ||
		d.Lifecycle.OnTimeout != "pause" || d.Metadata["owner"] != "a b&c" || d.VolumeMounts[0].Path != "/data" {
		t.Fatalf("detail = %+v", d)
	}

	filter := url.QueryEscape(url.QueryEscape("owner") + "=" + url.QueryEscape("a b&c"))
	var listed []listedSandboxJSON
	ans := api.must(http.StatusOK, "GET", "/v2/sandboxes?state=running,paused&metadata="+filter, nil)
	ans.decode(t, &listed)
	if len(listed) != 1 || listed[0].SandboxID != sb.SandboxID || ans.header.Get("X-Total-Running") != "1" {
		t.Fatalf("filtered list = %+v (headers %v)", listed, ans.header)
	}

	steps := []struct {
		name   string
		method string
		path   string
		body   any
		status int
		state  string
	}{
		{"pause without memory", "POST", "/pause", map[string]any{"memory": false}, http.StatusNoContent, statePaused},
		{"pause again conflicts", "POST", "/pause", nil, http.StatusConflict, statePaused},
		{"connect resumes", "POST", "/connect", map[string]any{"timeout": 300}, http.StatusCreated, stateRunning},
		{"connect while running", "POST", "/connect", map[string]any{"timeout": 60}, http.StatusOK, stateRunning},
		{"set timeout", "POST", "/timeout", map[string]any{"timeout": 120}, http.StatusNoContent, stateRunning},
		{"snapshot keeps the sandbox", "POST", "/snapshots", map[string]any{"name": "snap-one"}, http.StatusCreated, stateRunning},
	}
	for _, st := range steps {
		api.must(st.status, st.method, "/sandboxes/"+sb.SandboxID+st.path, st.body)
		view, ok := srv.Sandbox(sb.SandboxID)
		if !ok || view.State != st.state {
			t.Fatalf("%s: sandbox %+v (exists %v), want state %s", st.name, view, ok, st.state)
		}
		if st.name == "pause without memory" && (view.PausedWithMemory || view.PauseCount != 1) {
			t.Fatalf("pause flags = %+v", view)
		}
		if st.name == "connect while running" && !view.EndAt.Equal(epoch.Add(300*time.Second)) {
			t.Fatalf("connect shortened the TTL: endAt %v", view.EndAt)
		}
		if st.name == "set timeout" && !view.EndAt.Equal(epoch.Add(120*time.Second)) {
			t.Fatalf("timeout: endAt %v", view.EndAt)
		}
	}

	snaps := srv.Snapshots()
	if len(snaps) != 1 || snaps[0].SnapshotID != "snap-one:default" || snaps[0].SandboxID != sb.SandboxID {
		t.Fatalf("snapshots = %+v", snaps)
	}
	var restored sandboxJSON
	api.must(http.StatusCreated, "POST", "/sandboxes", map[string]any{"templateID": snaps[0].SnapshotID, "timeout": 60}).decode(t, &restored)
	if restored.TemplateID != snaps[0].TemplateID {
		t.Fatalf("restored from %s, want %s", restored.TemplateID, snaps[0].TemplateID)
	}
	api.must(http.StatusNoContent, "DELETE", "/templates/"+url.PathEscape(snaps[0].SnapshotID), nil)
	api.must(http.StatusNotFound, "DELETE", "/templates/"+url.PathEscape(snaps[0].SnapshotID), nil)
	if len(srv.Snapshots()) != 0 {
		t.Fatalf("snapshot not deleted: %+v", srv.Snapshots())
	}

	api.must(http.StatusNoContent, "DELETE", "/sandboxes/"+sb.SandboxID, nil)
	api.must(http.StatusNotFound, "DELETE", "/sandboxes/"+sb.SandboxID, nil)
	api.must(http.StatusNotFound, "GET", "/sandboxes/"+sb.SandboxID, nil)
	api.must(http.StatusNoContent, "DELETE", "/volumes/"+vol.VolumeID, nil)
	api.must(http.StatusNotFound, "GET", "/volumes/"+vol.VolumeID, nil)
	api.checkClean()
}
