package docker

import (
	"context"
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
func TestWaitReadyWithoutReadyCmd(t *testing.T) {
	const settle = 400 * time.Millisecond
	running := &container.State{Status: container.StateRunning, Running: true, StartedAt: "2026-01-02T03:04:05Z"}
	exited := &container.State{Status: container.StateExited, ExitCode: 3,
		StartedAt: "2026-01-02T03:04:05Z", FinishedAt: "2026-01-02T03:04:05.1Z"}
	inspect := func(st func() *container.State) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, container.InspectResponse{
				ContainerJSONBase: &container.ContainerJSONBase{ID: "box", State: st()},
				Config:            &container.Config{Env: []string{"TOKEN=secret-value"}},
			})
		}
	}
	holdWait := func(w http.ResponseWriter, r *http.Request) {
		// As the engine does: the header at once, the answer at the exit.
		w.WriteHeader(http.StatusOK)
		flush(w)
		<-r.Context().Done()
	}
	for _, tc := range []struct {
		name string
		// handlers gets a func that reports whether the box has exited.
		handlers    func(exit func(), gone func() bool) map[string]http.HandlerFunc
		wantErr     string        // "" for ready
		minTook     time.Duration // the box must have kept running this long
		maxTook     time.Duration
		wantWaits   int
		maxInspects int
	}{
		{
			name: "keeps running: one wait, read before and after",
			handlers: func(_ func(), gone func() bool) map[string]http.HandlerFunc {
				return map[string]http.HandlerFunc{
					"GET /containers/box/json":  inspect(func() *container.State { return running }),
					"POST /containers/box/wait": holdWait,
				}
			},
			minTook: settle, maxTook: settle + 2*time.Second,
			wantWaits: 1, maxInspects: 2,
		},
		{
			name: "exits while settling: fails at the exit, not at the settle time",
			handlers: func(exit func(), gone func() bool) map[string]http.HandlerFunc {
				return map[string]http.HandlerFunc{
					"GET /containers/box/json": inspect(func() *container.State {
						if gone() {
							return exited
						}
						return running
					}),
					"POST /containers/box/wait": func(w http.ResponseWriter, _ *http.Request) {
						w.WriteHeader(http.StatusOK)
						flush(w)
						time.Sleep(50 * time.Millisecond)
						exit()
						_ = json.NewEncoder(w).Encode(container.WaitResponse{StatusCode: 3})
					},
					"GET /containers/box/logs": func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) },
				}
			},
			wantErr: "its command exited with code 3 right after it started",
			maxTook: settle - 100*time.Millisecond, wantWaits: 1, maxInspects: 2,
		},
		{
			name: "wait answers at once, box runs on: one wait, then polled",
			handlers: func(_ func(), _ func() bool) map[string]http.HandlerFunc {
				return map[string]http.HandlerFunc{
					"GET /containers/box/json": inspect(func() *container.State { return running }),
					"POST /containers/box/wait": func(w http.ResponseWriter, _ *http.Request) {
						writeJSON(w, container.WaitResponse{})
					},
				}
			},
			minTook: settle, maxTook: settle + 2*time.Second,
			wantWaits: 1, maxInspects: int(settle/pollInterval) + 3,
		},
		{
			name: "engine refuses the wait: polled until settled",
			handlers: func(_ func(), _ func() bool) map[string]http.HandlerFunc {
				return map[string]http.HandlerFunc{
					"GET /containers/box/json": inspect(func() *container.State { return running }),
					"POST /containers/box/wait": func(w http.ResponseWriter, _ *http.Request) {
						w.Header().Set("Content-Type", "application/json")
						w.WriteHeader(http.StatusInternalServerError)
						_, _ = w.Write([]byte(`{"message":"wait is not available"}`))
					},
				}
			},
			minTook: settle, maxTook: settle + 2*time.Second,
			wantWaits: -1, maxInspects: int(settle/pollInterval) + 3,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var out bool
			exit := func() { mu.Lock(); out = true; mu.Unlock() }
			gone := func() bool { mu.Lock(); defer mu.Unlock(); return out }
			e := &stubEngine{handlers: tc.handlers(exit, gone)}
			s := &sandboxes{api: stubClient(t, e), settle: settle}
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			start := time.Now()
			err := s.waitReady(ctx, "box")
			took := time.Since(start)
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
			if took < tc.minTook || took > tc.maxTook {
				t.Errorf("waitReady took %v, want %v to %v", took, tc.minTook, tc.maxTook)
			}
			if n := e.count("POST /containers/box/wait"); tc.wantWaits >= 0 && n != tc.wantWaits {
				t.Errorf("%d wait calls, want %d (calls: %v)", n, tc.wantWaits, e.recorded())
			}
			if n := e.count("GET /containers/box/json"); n > tc.maxInspects {
				t.Errorf("%d inspects, want at most %d (calls: %v)", n, tc.maxInspects, e.recorded())
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
