package daytonafake

import (
	"net/http"
	"strings"
	"testing"
)

// The fake refuses what Daytona's server refuses, with the server's status
// and message (sources in the handlers' comments). Each case prepares its
// own fake; "{id}" in the path is replaced by the id prep returns.
func TestRefusals(t *testing.T) {
	started := func(body map[string]any) func(*fakeAPI, *Server) string {
		return func(api *fakeAPI, _ *Server) string { return api.createSandbox(body).ID }
	}
	stopped := func(body map[string]any) func(*fakeAPI, *Server) string {
		return func(api *fakeAPI, srv *Server) string {
			id := api.createSandbox(body).ID
			api.must(http.StatusOK, "POST", "/sandbox/"+id+"/stop", nil)
			api.waitSandbox(id, stateStopped)
			return id
		}
	}
	windows := func(api *fakeAPI, srv *Server) string {
		srv.SeedSnapshot(SnapshotSeed{Name: "win", SandboxClass: ClassWindows, CPU: 4, MemoryGB: 8, DiskGB: 50})
		return api.createSandbox(map[string]any{"snapshot": "win"}).ID
	}
	withVolume := func(api *fakeAPI, _ *Server) string { return api.readyVolume("data") }
	none := func(*fakeAPI, *Server) string { return "" }
	mount := func(path, subpath string) map[string]any {
		return map[string]any{"volumes": []map[string]any{{"volumeId": "data", "mountPath": path, "subpath": subpath}}}
	}

	cases := []struct {
		name    string
		opts    Options
		prep    func(*fakeAPI, *Server) string
		method  string
		path    string
		body    any
		status  int
		mention string
	}{
		// Sandbox create.
		{"resources with a snapshot", Options{}, none, "POST", "/sandbox", map[string]any{"cpu": 2}, 400, "Cannot specify Sandbox resources when using a snapshot"},
		{"gpuType with a snapshot", Options{}, none, "POST", "/sandbox", map[string]any{"gpuType": []string{"H100"}}, 400, "Cannot specify GPU type"},
		{"name taken", Options{}, started(map[string]any{"name": "twin"}), "POST", "/sandbox", map[string]any{"name": "twin"}, 409, "Sandbox with name twin already exists"},
		{"unknown snapshot", Options{}, none, "POST", "/sandbox", map[string]any{"snapshot": "nope"}, 400, "Snapshot nope not found"},
		{"inactive snapshot", Options{}, func(_ *fakeAPI, srv *Server) string {
			srv.SeedSnapshot(SnapshotSeed{Name: "old", ImageName: "ubuntu:22.04"})
			srv.DeactivateSnapshotOutOfBand("old")
			return ""
		}, "POST", "/sandbox", map[string]any{"snapshot": "old"}, 400, "Snapshot old is inactive"},
		{"GPU box not ephemeral", Options{}, func(_ *fakeAPI, srv *Server) string {
			srv.SeedSnapshot(SnapshotSeed{Name: "gpu", GPU: 1})
			return ""
		}, "POST", "/sandbox", map[string]any{"snapshot": "gpu"}, 400, "GPU sandboxes must be ephemeral"},
		{"volume unknown", Options{}, none, "POST", "/sandbox", mount("/data", ""), 404, "Volume 'data' not found"},
		{"volume not ready", Options{}, func(api *fakeAPI, _ *Server) string {
			api.must(http.StatusOK, "POST", "/volumes", map[string]any{"name": "data"})
			return ""
		}, "POST", "/sandbox", mount("/data", ""), 400, "Volume 'data' is not in a ready state. Current state: pending_create"},
		{"mount path relative", Options{}, withVolume, "POST", "/sandbox", mount("data", ""), 400, "Invalid mount path data (must be absolute)"},
		{"mount path root", Options{}, withVolume, "POST", "/sandbox", mount("/", ""), 400, "cannot mount to the root directory"},
		{"mount path dot-dot", Options{}, withVolume, "POST", "/sandbox", mount("/a/../b", ""), 400, "cannot contain relative path components"},
		{"mount path double slash", Options{}, withVolume, "POST", "/sandbox", mount("/a//b", ""), 400, "cannot contain consecutive slashes"},
		{"mount path system dir", Options{}, withVolume, "POST", "/sandbox", mount("/etc/app", ""), 400, "cannot mount to system directory"},
		{"subpath absolute", Options{}, withVolume, "POST", "/sandbox", mount("/data", "/x"), 400, "S3 key prefixes cannot start with /"},
		{"subpath traversal", Options{}, withVolume, "POST", "/sandbox", mount("/data", "a/../b"), 400, "cannot contain .. for security"},
		{"subpath double slash", Options{}, withVolume, "POST", "/sandbox", mount("/data", "a//b"), 400, "cannot contain consecutive slashes"},
		{"network allow list not CIDR", Options{}, none, "POST", "/sandbox", map[string]any{"networkAllowList": "10.0.0.1"}, 400, "Missing CIDR prefix length"},
		{"network allow list not IPv4", Options{}, none, "POST", "/sandbox", map[string]any{"networkAllowList": "::1/128"}, 400, "Must be a valid IPv4 address"},
		{"negative auto-stop", Options{}, none, "POST", "/sandbox", map[string]any{"autoStopInterval": -1}, 400, "Auto-stop interval must be non-negative"},
		{"negative auto-archive", Options{}, none, "POST", "/sandbox", map[string]any{"autoArchiveInterval": -5}, 400, "Auto-archive interval must be non-negative"},

		// Lifecycle.
		{"pause a container box", Options{}, started(nil), "POST", "/sandbox/{id}/pause", nil, 422, "Pausing is not supported for this sandbox"},
		{"pause a stopped box", Options{}, stopped(nil), "POST", "/sandbox/{id}/pause", nil, 400, "Sandbox must be in started state to pause"},
		{"resume a paused container box", Options{}, func(api *fakeAPI, srv *Server) string {
			id := api.createSandbox(nil).ID
			srv.PauseOutOfBand(id)
			return id
		}, "POST", "/sandbox/{id}/start", nil, 422, "Resuming is not supported for this sandbox"},
		{"stop a stopped box", Options{}, stopped(nil), "POST", "/sandbox/{id}/stop", nil, 400, "Sandbox is not in a stoppable state"},
		{"archive a started box", Options{}, started(nil), "POST", "/sandbox/{id}/archive", nil, 400, "Sandbox is not stopped"},
		{"archive an ephemeral box", Options{}, func(api *fakeAPI, srv *Server) string {
			id := stopped(nil)(api, srv)
			api.must(http.StatusOK, "POST", "/sandbox/"+id+"/autodelete/0", nil)
			return id
		}, "POST", "/sandbox/{id}/archive", nil, 400, "Ephemeral sandboxes cannot be archived"},
		{"start an errored box", Options{}, func(api *fakeAPI, srv *Server) string {
			id := api.createSandbox(nil).ID
			srv.FailSandbox(id, "disk full", true)
			return id
		}, "POST", "/sandbox/{id}/start", nil, 400, "Sandbox is in an errored state"},
		{"stop a box that is being created", Options{}, func(api *fakeAPI, _ *Server) string {
			var out sandboxOut
			api.must(http.StatusOK, "POST", "/sandbox", map[string]any{}).decode(api.t, &out)
			return out.ID
		}, "POST", "/sandbox/{id}/stop", nil, 409, "Sandbox state change in progress"},
		{"delete a box that is stopping", Options{}, func(api *fakeAPI, _ *Server) string {
			id := api.createSandbox(nil).ID
			api.must(http.StatusOK, "POST", "/sandbox/"+id+"/stop", nil)
			return id
		}, "DELETE", "/sandbox/{id}", nil, 409, "Sandbox state change in progress"},
		{"recover a box that is not recoverable", Options{}, func(api *fakeAPI, srv *Server) string {
			id := api.createSandbox(nil).ID
			srv.FailSandbox(id, "broken", false)
			return id
		}, "POST", "/sandbox/{id}/recover", nil, 400, "Sandbox is not in a recoverable state"},
		{"negative auto-stop by path", Options{}, started(nil), "POST", "/sandbox/{id}/autostop/-1", nil, 400, "Auto-stop interval must be non-negative"},

		// Resize.
		{"resize disabled", Options{ResizeDisabled: true}, started(nil), "POST", "/sandbox/{id}/resize", map[string]any{"cpu": 2}, 404, "Cannot POST /sandbox/"},
		{"resize disk while started", Options{}, started(nil), "POST", "/sandbox/{id}/resize", map[string]any{"disk": 10}, 400, "Disk resize can only be performed on a stopped sandbox"},
		{"hot cpu decrease", Options{}, func(api *fakeAPI, srv *Server) string {
			srv.SeedSnapshot(SnapshotSeed{Name: "big", CPU: 4})
			return api.createSandbox(map[string]any{"snapshot": "big"}).ID
		}, "POST", "/sandbox/{id}/resize", map[string]any{"cpu": 2}, 400, "Sandbox must be in stopped state to decrease the number of CPU cores"},
		{"hot memory decrease", Options{}, func(api *fakeAPI, srv *Server) string {
			srv.SeedSnapshot(SnapshotSeed{Name: "big", MemoryGB: 4})
			return api.createSandbox(map[string]any{"snapshot": "big"}).ID
		}, "POST", "/sandbox/{id}/resize", map[string]any{"memory": 2}, 400, "Sandbox must be in stopped state to decrease memory"},
		{"disk decrease", Options{}, stopped(nil), "POST", "/sandbox/{id}/resize", map[string]any{"disk": 1}, 400, "Sandbox disk size cannot be decreased"},
		{"resize without change", Options{}, started(nil), "POST", "/sandbox/{id}/resize", map[string]any{"cpu": 1}, 400, "No resource changes specified"},
		{"resize nothing", Options{}, started(nil), "POST", "/sandbox/{id}/resize", map[string]any{}, 400, "No resource changes specified"},

		{"resize above the per-sandbox limit", Options{MaxCPUPerSandbox: 4}, started(nil), "POST", "/sandbox/{id}/resize", map[string]any{"cpu": 8}, 400, "CPU request 8 exceeds maximum allowed per sandbox (4)."},
		{"snapshot above the memory limit", Options{MaxMemoryGBPerSandbox: 8}, none, "POST", "/snapshots", map[string]any{"name": "s", "imageName": "ubuntu:22.04", "memory": 16}, 400, "Memory request 16GB exceeds maximum allowed per sandbox (8GB)."},
		{"sandbox from a snapshot above the disk limit", Options{MaxDiskGBPerSandbox: 10}, func(_ *fakeAPI, srv *Server) string {
			srv.SeedSnapshot(SnapshotSeed{Name: "huge", DiskGB: 50})
			return ""
		}, "POST", "/sandbox", map[string]any{"snapshot": "huge"}, 400, "Disk request 50GB exceeds maximum allowed per sandbox (10GB)."},

		// Snapshot of a sandbox.
		{"memory snapshot of a container", Options{}, started(nil), "POST", "/sandbox/{id}/snapshot", map[string]any{"name": "s", "includeMemory": true}, 400, "includeMemory is only supported for Windows sandboxes"},
		{"windows memory snapshot when stopped", Options{}, func(api *fakeAPI, srv *Server) string {
			id := windows(api, srv)
			api.must(http.StatusOK, "POST", "/sandbox/"+id+"/stop", nil)
			api.waitSandbox(id, stateStopped)
			return id
		}, "POST", "/sandbox/{id}/snapshot", map[string]any{"name": "s", "includeMemory": true}, 400, "Snapshots with memory require the Windows sandbox to be running (STARTED)"},
		{"windows filesystem snapshot when started", Options{}, windows, "POST", "/sandbox/{id}/snapshot", map[string]any{"name": "s"}, 400, "Filesystem-only snapshots require the Windows sandbox to be stopped (STOPPED)"},
		{"snapshot of a box being created", Options{}, func(api *fakeAPI, _ *Server) string {
			var out sandboxOut
			api.must(http.StatusOK, "POST", "/sandbox", map[string]any{}).decode(api.t, &out)
			return out.ID
		}, "POST", "/sandbox/{id}/snapshot", map[string]any{"name": "s"}, 400, "Sandbox must be in started or stopped state to create a snapshot"},

		// Snapshots.
		{"image tag latest", Options{}, none, "POST", "/snapshots", map[string]any{"name": "s", "imageName": "ubuntu:latest"}, 400, `Images with tag ":latest" are not allowed`},
		{"image without tag", Options{}, none, "POST", "/snapshots", map[string]any{"name": "s", "imageName": "ubuntu"}, 400, "Image name must include a tag"},
		{"image and buildInfo", Options{}, none, "POST", "/snapshots", map[string]any{"name": "s", "imageName": "ubuntu:22.04", "buildInfo": map[string]any{"dockerfileContent": "FROM x"}}, 400, "Cannot specify an image name when using a build info entry"},
		{"entrypoint and buildInfo", Options{}, none, "POST", "/snapshots", map[string]any{"name": "s", "entrypoint": []string{"sh"}, "buildInfo": map[string]any{"dockerfileContent": "FROM x"}}, 400, "Cannot specify an entrypoint when using a build info entry"},
		{"neither image nor buildInfo", Options{}, none, "POST", "/snapshots", map[string]any{"name": "s"}, 400, "Must specify an image name when not using a build info entry"},
		{"bad snapshot name", Options{}, none, "POST", "/snapshots", map[string]any{"name": "a b", "imageName": "ubuntu:22.04"}, 400, "Invalid snapshot name format"},
		{"windows snapshot by POST", Options{}, none, "POST", "/snapshots", map[string]any{"name": "w", "imageName": "ubuntu:22.04", "sandboxClass": "windows"}, 400, "Windows snapshots cannot be created via this endpoint"},
		{"snapshot name taken", Options{}, func(_ *fakeAPI, srv *Server) string {
			srv.SeedSnapshot(SnapshotSeed{Name: "s"})
			return ""
		}, "POST", "/snapshots", map[string]any{"name": "s", "imageName": "ubuntu:22.04"}, 409, `Snapshot with name "s" already exists for this organization`},
		{"activate an active snapshot", Options{}, func(_ *fakeAPI, srv *Server) string {
			return srv.SeedSnapshot(SnapshotSeed{Name: "s"})
		}, "POST", "/snapshots/{id}/activate", nil, 400, "is already active"},
		{"activate right after deactivation", Options{}, func(api *fakeAPI, srv *Server) string {
			id := srv.SeedSnapshot(SnapshotSeed{Name: "s"})
			api.must(http.StatusNoContent, "POST", "/snapshots/"+id+"/deactivate", nil)
			return id
		}, "POST", "/snapshots/{id}/activate", nil, 400, "Snapshot deactivation is still in progress"},
		{"delete a general snapshot", Options{}, func(_ *fakeAPI, srv *Server) string {
			return srv.SeedSnapshot(SnapshotSeed{Name: "g", General: true})
		}, "DELETE", "/snapshots/{id}", nil, 403, "You cannot delete a general snapshot"},
		{"delete a snapshot by name", Options{}, func(_ *fakeAPI, srv *Server) string {
			srv.SeedSnapshot(SnapshotSeed{Name: "s"})
			return "s"
		}, "DELETE", "/snapshots/{id}", nil, 400, "Validation failed (uuid is expected)"},
		{"build logs of an image snapshot", Options{}, func(_ *fakeAPI, srv *Server) string {
			return srv.SeedSnapshot(SnapshotSeed{Name: "s", ImageName: "ubuntu:22.04"})
		}, "GET", "/snapshots/{id}/build-logs-url", nil, 404, "has no build info"},

		// Volumes.
		{"volume name taken", Options{}, withVolume, "POST", "/volumes", map[string]any{"name": "data"}, 400, "Volume with name data already exists"},
		{"delete a pending volume", Options{}, func(api *fakeAPI, _ *Server) string {
			var v struct{ ID string }
			api.must(http.StatusOK, "POST", "/volumes", map[string]any{"name": "data"}).decode(api.t, &v)
			return v.ID
		}, "DELETE", "/volumes/{id}", nil, 400, "Volume must be in 'ready' or 'error' state in order to be deleted"},
		{"delete a mounted volume", Options{}, func(api *fakeAPI, _ *Server) string {
			id := api.readyVolume("data")
			api.createSandbox(map[string]any{"name": "user", "volumes": []map[string]any{{"volumeId": id, "mountPath": "/data"}}})
			return id
		}, "DELETE", "/volumes/{id}", nil, 409, "Volume cannot be deleted because it is in use by one or more sandboxes (e.g. user)"},

		// Lists.
		{"labels filter not JSON", Options{}, none, "GET", "/sandbox?labels=a%3D1", nil, 400, "Invalid labels JSON format"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, api, _ := newTest(t, tc.opts)
			id := tc.prep(api, srv)
			api.refuse(tc.status, tc.mention, tc.method, strings.ReplaceAll(tc.path, "{id}", id), tc.body)
			api.checkClean()
		})
	}
}
