package docker

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/volume"
	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// stubEngine answers the few engine calls a test needs, from handlers keyed
// by "METHOD /path" (the path without its API version), and records every
// call. A call without a handler is a 404.
type stubEngine struct {
	mu       sync.Mutex
	calls    []string
	handlers map[string]http.HandlerFunc
}

func (e *stubEngine) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := r.Method + " " + apiPath(r.URL.Path)
	e.mu.Lock()
	e.calls = append(e.calls, key)
	h := e.handlers[key]
	e.mu.Unlock()
	if h == nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"message":"no such object"}`))
		return
	}
	h(w, r)
}

// count is how many calls of key ("METHOD /path") the engine got.
func (e *stubEngine) count(key string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, c := range e.calls {
		if c == key {
			n++
		}
	}
	return n
}

func (e *stubEngine) recorded() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.calls...)
}

// stubClient is an engine client talking API 1.41 to e.
func stubClient(t *testing.T, e *stubEngine) *client.Client {
	t.Helper()
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	api, err := client.NewClientWithOpts(client.WithHost("tcp://"+strings.TrimPrefix(srv.URL, "http://")),
		client.WithHTTPClient(srv.Client()), client.WithVersion("1.41"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = api.Close() })
	return api
}

// flush sends what the handler wrote so far, as the engine does with the
// header of an answer it holds (a wait).
func flush(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// A box without a ready_cmd is watched for an exit with one wait call held
// open for the settle time, not read every pollInterval; the box's exit ends
// the watch at once, and an engine that will not hold the wait is polled.
// The settle time passes on a fake clock, when the engine stub says (at a
// given read, or while the wait is held), so a box is ready only once the
// clock says so whatever the machine's speed; each row's waitReady runs
// under a context that never ends, so a return is waitReady's own doing.
func TestWaitReadyWithoutReadyCmd(t *testing.T) {
	running := &container.State{Status: container.StateRunning, Running: true, StartedAt: "2026-01-02T03:04:05Z"}
	exited := &container.State{Status: container.StateExited, ExitCode: 3,
		StartedAt: "2026-01-02T03:04:05Z", FinishedAt: "2026-01-02T03:04:05.1Z"}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		name string
		// settle is the real time the client holds the wait for; the
		// clock only moves when settledAt says.
		settle time.Duration
		// settledAt is the read at which the settle time has passed; 0:
		// once the wait is asked for; -1: never.
		settledAt int
		wait      func(w http.ResponseWriter, r *http.Request, exit func())
		wantErr   string // "" for ready
		wantWaits int    // -1: any number
		reads     int
	}{
		{
			// The engine never answers the wait and the context never
			// ends: only the wait's own deadline, a real one of settle,
			// ends it, and the box is read once more.
			name:   "keeps running: one wait held to its deadline, read before and after",
			settle: 100 * time.Millisecond, settledAt: 0,
			wait: func(w http.ResponseWriter, r *http.Request, _ func()) {
				// As the engine does: the header at once, the answer at
				// the exit, which never comes.
				w.WriteHeader(http.StatusOK)
				flush(w)
				<-r.Context().Done()
			},
			wantWaits: 1, reads: 2,
		},
		{
			name:   "exits while settling: fails at the exit, not at the settle time",
			settle: time.Hour, settledAt: -1,
			wait: func(w http.ResponseWriter, _ *http.Request, exit func()) {
				w.WriteHeader(http.StatusOK)
				flush(w)
				exit()
				_ = json.NewEncoder(w).Encode(container.WaitResponse{StatusCode: 3})
			},
			wantErr:   "its command exited with code 3 right after it started",
			wantWaits: 1, reads: 2,
		},
		{
			name:   "wait answers at once, box runs on: one wait, then polled until settled",
			settle: time.Hour, settledAt: 3,
			wait: func(w http.ResponseWriter, _ *http.Request, _ func()) {
				writeJSON(w, container.WaitResponse{})
			},
			wantWaits: 1, reads: 3,
		},
		{
			name:   "engine refuses the wait: polled until settled",
			settle: time.Hour, settledAt: 3,
			wait: func(w http.ResponseWriter, _ *http.Request, _ func()) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusInternalServerError)
				_, _ = w.Write([]byte(`{"message":"wait is not available"}`))
			},
			wantWaits: -1, reads: 3,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			reads, out := 0, false
			exit := func() { mu.Lock(); out = true; mu.Unlock() }
			fake := clock.NewFake(t0)
			settle := func() { fake.Set(t0.Add(tc.settle)) }
			e := &stubEngine{handlers: map[string]http.HandlerFunc{
				"GET /containers/box/json": func(w http.ResponseWriter, _ *http.Request) {
					st := running
					mu.Lock()
					reads++
					if reads == tc.settledAt {
						settle()
					}
					if out {
						st = exited
					}
					mu.Unlock()
					writeJSON(w, container.InspectResponse{
						ContainerJSONBase: &container.ContainerJSONBase{ID: "box", State: st},
						Config:            &container.Config{Env: []string{"TOKEN=secret-value"}},
					})
				},
				"POST /containers/box/wait": func(w http.ResponseWriter, r *http.Request) {
					if tc.settledAt == 0 {
						settle() // the box runs through its settle time while the wait is held
					}
					tc.wait(w, r, exit)
				},
				"GET /containers/box/logs": func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) },
			}}
			s := &sandboxes{api: stubClient(t, e), settle: tc.settle, clock: fake}
			err := s.waitReady(t.Context(), "box")
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("waitReady: %v, want ready", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("waitReady: %v, want an error containing %q", err, tc.wantErr)
			case err != nil && strings.Contains(err.Error(), "secret-value"):
				t.Fatalf("waitReady error shows the box's env: %v", err)
			}
			var se *startError
			if tc.wantErr != "" && !errors.As(err, &se) {
				t.Errorf("error %T, want a *startError", err)
			}
			if tc.wantErr == "" && fake.Now().Before(t0.Add(tc.settle)) {
				t.Error("ready before the settle time passed")
			}
			if n := e.count("POST /containers/box/wait"); tc.wantWaits >= 0 && n != tc.wantWaits {
				t.Errorf("%d wait calls, want %d (calls: %v)", n, tc.wantWaits, e.recorded())
			}
			if n := e.count("GET /containers/box/json"); n != tc.reads {
				t.Errorf("%d inspects, want %d (calls: %v)", n, tc.reads, e.recorded())
			}
		})
	}
}

// A box with a ready_cmd is still read every pollInterval: the engine has no
// call that waits for a health status.
func TestWaitReadyWithReadyCmdPolls(t *testing.T) {
	var mu sync.Mutex
	reads := 0
	e := &stubEngine{handlers: map[string]http.HandlerFunc{
		"GET /containers/box/json": func(w http.ResponseWriter, _ *http.Request) {
			mu.Lock()
			reads++
			status := container.Starting
			if reads >= 3 {
				status = container.Healthy
			}
			mu.Unlock()
			writeJSON(w, container.InspectResponse{ContainerJSONBase: &container.ContainerJSONBase{ID: "box",
				State: &container.State{Status: container.StateRunning, Running: true, Health: &container.Health{Status: status}}}})
		},
	}}
	s := &sandboxes{api: stubClient(t, e)}
	if err := s.waitReady(t.Context(), "box"); err != nil {
		t.Fatal(err)
	}
	if n := e.count("POST /containers/box/wait"); n != 0 {
		t.Errorf("%d wait calls for a box with a ready_cmd, want none", n)
	}
	if n := e.count("GET /containers/box/json"); n != 3 {
		t.Errorf("%d inspects, want 3 (ready at the third)", n)
	}
}

// A volume create asks the engine whether the name is taken and makes the
// volume; the answer to the create is the volume, not read back.
func TestVolumeCreateRequests(t *testing.T) {
	marks := platform.Marks{Owner: "team", CreateToken: "tok-1"}
	for _, tc := range []struct {
		name       string
		echoLabels func(map[string]string) map[string]string // what the engine answers the create with
		wantErr    bool
		wantCalls  []string
	}{
		{
			name:       "new volume",
			echoLabels: func(l map[string]string) map[string]string { return l },
			wantCalls:  []string{"GET /volumes/data", "POST /volumes/create"},
		},
		{
			name: "another create made it meanwhile",
			echoLabels: func(map[string]string) map[string]string {
				return managedLabels(kindVolume, "data", platform.Marks{CreateToken: "tok-other"}, nil)
			},
			wantErr:   true,
			wantCalls: []string{"GET /volumes/data", "POST /volumes/create"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &stubEngine{handlers: map[string]http.HandlerFunc{
				"POST /volumes/create": func(w http.ResponseWriter, r *http.Request) {
					var req volume.CreateOptions
					if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
						http.Error(w, err.Error(), http.StatusBadRequest)
						return
					}
					writeJSON(w, volume.Volume{Name: req.Name, Driver: "local", Labels: tc.echoLabels(req.Labels),
						CreatedAt: "2026-01-02T03:04:05Z", Scope: "local"})
				},
			}}
			s := &volumes{api: stubClient(t, e)}
			v, err := s.Create(t.Context(), platform.VolumeSpec{Name: "data", Marks: marks, Labels: map[string]string{"env": "dev"}})
			if got := e.recorded(); !reflect.DeepEqual(got, tc.wantCalls) {
				t.Errorf("engine calls %v, want %v", got, tc.wantCalls)
			}
			if tc.wantErr {
				var notOwned *platform.NotOwnedError
				if !errors.As(err, &notOwned) {
					t.Fatalf("Create: %v, want a NotOwnedError", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := platform.Volume{ID: "data", Name: "data", State: volumeStateAvailable, Labels: map[string]string{"env": "dev"},
				Managed: true, MadeWith: marks, CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
			if !reflect.DeepEqual(*v, want) {
				t.Errorf("Create = %+v, want %+v", *v, want)
			}
		})
	}
}

// Creating a running box without a ready_cmd: the container just made is
// started without being read first (it can only be "created"), and then
// watched with one wait call instead of a read every pollInterval.
func TestSandboxCreateRequests(t *testing.T) {
	const imageID = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	var mu sync.Mutex
	var made *container.Config
	var started bool
	e := &stubEngine{handlers: map[string]http.HandlerFunc{
		"GET /containers/json": func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, []container.Summary{}) },
		"GET /images/sbx/tmpl:latest/json": func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, map[string]any{"Id": imageID, "Config": map[string]any{"Labels": templateLabels(platform.TemplateSpec{Name: "tmpl"})}})
		},
		"GET /images/" + imageID + "/json": func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, map[string]any{"Id": imageID, "Config": map[string]any{}})
		},
		"GET /volumes/data": func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, volume.Volume{Name: "data"}) },
		"POST /containers/create": func(w http.ResponseWriter, r *http.Request) {
			var body container.Config
			if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			mu.Lock()
			made = &body
			mu.Unlock()
			w.WriteHeader(http.StatusCreated)
			writeJSON(w, container.CreateResponse{ID: "box"})
		},
		"POST /containers/box/start": func(w http.ResponseWriter, _ *http.Request) {
			mu.Lock()
			started = true
			mu.Unlock()
			w.WriteHeader(http.StatusNoContent)
		},
		"POST /containers/box/wait": func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusOK)
			flush(w)
			<-r.Context().Done()
		},
		"GET /containers/box/json": func(w http.ResponseWriter, _ *http.Request) {
			mu.Lock()
			defer mu.Unlock()
			st := &container.State{Status: container.StateCreated}
			if started {
				st = &container.State{Status: container.StateRunning, Running: true}
			}
			writeJSON(w, container.InspectResponse{
				ContainerJSONBase: &container.ContainerJSONBase{ID: "box", Name: "/box-1", Image: imageID, State: st},
				Config:            made,
			})
		},
	}}
	s := &sandboxes{api: stubClient(t, e), settle: 100 * time.Millisecond}
	sb, err := s.Create(t.Context(), platform.SandboxSpec{Name: "box-1", TemplateID: "sbx/tmpl:latest",
		Env: map[string]string{"A": "1"}, VolumeMounts: []platform.VolumeMount{{VolumeID: "data", Path: "/data"}}})
	if err != nil {
		t.Fatal(err)
	}
	if sb.ID != "box" || sb.Status != platform.StateRunning || sb.Env["A"] != "1" {
		t.Errorf("Create = %+v, want box running with its env", sb)
	}
	want := []string{
		"GET /containers/json",             // is the name taken
		"GET /images/sbx/tmpl:latest/json", // the template's settings
		"GET /volumes/data",                // the volume exists
		"POST /containers/create",
		"POST /containers/box/start", // no read before: a new container is stopped
		"GET /containers/box/json",   // running?
		"POST /containers/box/wait",  // until it exits or settles
		"GET /containers/box/json",   // still running: started
		"GET /containers/box/json",   // read back
		"GET /images/" + imageID + "/json",
	}
	if got := e.recorded(); !reflect.DeepEqual(got, want) {
		t.Errorf("engine calls:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
