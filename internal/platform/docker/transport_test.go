package docker

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

func TestQuickCall(t *testing.T) {
	cases := []struct {
		method, path, query string
		quick               bool
	}{
		{"HEAD", "/_ping", "", true},
		{"GET", "/_ping", "", true},
		{"GET", "/v1.41/containers/json", "all=1", true},
		{"GET", "/v1.41/containers/abc/json", "", true},
		{"GET", "/v1.41/containers/abc/json", "size=1", false},
		{"GET", "/v1.41/images/sbx/x:latest/json", "", true},
		{"GET", "/v1.41/images/abc/history", "", true},
		{"GET", "/v1.41/volumes", "", true},
		{"GET", "/v1.41/containers/abc/logs", "stdout=1&tail=10", true},
		{"GET", "/v1.41/containers/abc/logs", "follow=1", false},
		{"GET", "/v1.41/containers/abc/archive", "path=/data", false},
		{"GET", "/v1.41/containers/abc/export", "", false},
		{"GET", "/v1.41/images/abc/get", "", false},
		{"GET", "/v1.41/events", "", false},
		{"POST", "/v1.41/containers/abc/pause", "", true},
		{"POST", "/v1.41/containers/abc/unpause", "", true},
		{"POST", "/v1.41/containers/abc/update", "", true},
		{"POST", "/v1.41/containers/abc/start", "", false},
		{"POST", "/v1.41/containers/abc/stop", "t=10", false},
		{"POST", "/v1.41/containers/create", "name=x", false},
		{"POST", "/v1.41/build", "", false},
		{"POST", "/v1.41/commit", "container=abc", false},
		{"POST", "/v1.41/images/create", "fromSrc=-", false},
		{"POST", "/v1.41/volumes/create", "", false},
		{"PUT", "/v1.41/containers/abc/archive", "path=/", false},
		{"DELETE", "/v1.41/containers/abc", "force=1", false},
		{"DELETE", "/v1.41/images/abc", "", false},
	}
	for _, tc := range cases {
		q, _ := url.ParseQuery(tc.query)
		if got := quickCall(tc.method, tc.path, q); got != tc.quick {
			t.Errorf("quickCall(%s %s?%s) = %v, want %v", tc.method, tc.path, tc.query, got, tc.quick)
		}
	}
}

// TestDeadlineTransport: a quick call the engine does not answer ends by
// its deadline, at the stage it had reached, which the error says; a long
// call runs under the caller's deadline past the transport's, and one
// without a deadline of its own gets the ceiling.
//
// No case depends on how fast the machine is. A quick call's deadline
// passes twice: first the engine is pinged, and it answers the ping only
// once the call has got as far as the case means it to (its request in,
// or its answer begun), so the deadline passes for good after that, with
// a deadline of twice answer. The long call with a deadline of its own is
// answered only after a call sent later has been cut by the ceiling.
func TestDeadlineTransport(t *testing.T) {
	release := make(chan struct{})
	// The engine answers a ping once the test has allowed it; allowing it
	// again before that ping came (which only a transport that does not
	// ping would leave) adds nothing, rather than blocking the test.
	probe := make(chan struct{}, 1)
	allowPing := func() {
		select {
		case probe <- struct{}{}:
		default:
		}
	}
	building := make(chan struct{})      // the build with a deadline has come in
	ceilingPassed := make(chan struct{}) // a later build was cut by the ceiling
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/_ping": // the transport's probe of a quick call past its deadline
			select {
			case <-probe:
				_, _ = io.WriteString(w, "OK")
			case <-release:
			case <-r.Context().Done():
			}
			return
		case "/v1.41/containers/json": // never answers
			allowPing() // the call's request is in
		case "/v1.41/containers/abc/json": // starts an answer, then stalls
			w.WriteHeader(http.StatusOK)
			_, _ = io.WriteString(w, `{"Id":`)
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
		case "/v1.41/build": // real work
			if r.URL.Query().Has("answers") {
				close(building)
				select {
				case <-ceilingPassed:
					_, _ = io.WriteString(w, `{"stream":"done"}`)
				case <-release:
				case <-r.Context().Done():
				}
				return
			}
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release) // before srv.Close: the hung handlers return
	const answer, ceiling = 100 * time.Millisecond, 300 * time.Millisecond
	// The ping may take clock.Patience; busy allows one renewal.
	c := &http.Client{Transport: &deadlineTransport{next: srv.Client().Transport, host: "tcp://engine.test:2375",
		answer: answer, ceiling: ceiling, probe: clock.Patience, busy: 2 * answer}}

	noAnswer := func(err error, path string) *NoAnswerError {
		t.Helper()
		var na *NoAnswerError
		if !errors.As(err, &na) || na.Path != path {
			t.Fatalf("error %v, want a NoAnswerError for %s", err, path)
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%v is not a deadline", err)
		}
		return na
	}

	// The engine never answers: the call ends by its deadline, connected,
	// and the error says so.
	_, err := c.Get(srv.URL + "/v1.41/containers/json")
	if na := noAnswer(err, "/containers/json"); na.Stage != StageWaiting {
		t.Errorf("stage %d, want %d (waiting)", na.Stage, StageWaiting)
	}
	if want := "the Docker engine at tcp://engine.test:2375 did not answer in 200ms " +
		"(GET /containers/json: it accepted the connection but sent no answer)"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q, want %q", err, want)
	}

	// An answer that starts and stalls: the deadline passes once the start
	// has come in (the answer's headers, with which Get returns).
	resp, err := c.Get(srv.URL + "/v1.41/containers/abc/json")
	if err != nil {
		t.Fatal(err)
	}
	allowPing()
	_, err = io.ReadAll(resp.Body)
	_ = resp.Body.Close() // read to the error above
	if na := noAnswer(err, "/containers/abc/json"); na.Stage != StageReading {
		t.Errorf("stage %d, want %d (reading)", na.Stage, StageReading)
	}

	// A long call under a deadline of its own (only that it has one
	// counts: clock.Patience, for a transport that hangs) runs past the
	// answer deadline and the ceiling.
	ctx, cancel := context.WithTimeout(context.Background(), clock.Patience)
	defer cancel()
	type answered struct {
		body string
		err  error
	}
	built := make(chan answered, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1.41/build?answers=1", nil)
		resp, err := c.Do(req)
		if err != nil {
			built <- answered{err: err}
			return
		}
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close() // read in full
		built <- answered{string(body), err}
	}()
	<-building

	// Without a deadline of its own, a long call gets the ceiling (the
	// engine never answers this one). How far it got by then is the
	// machine's business: the stages are checked above, where the test
	// says when the deadline passes.
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1.41/build", nil)
	_, err = c.Do(req)
	if na := noAnswer(err, "/build"); na.Timeout != ceiling {
		t.Errorf("the build without a deadline was cut after %s, want the ceiling %s", na.Timeout, ceiling)
	}

	// That build was sent after the first one came in, so the first has
	// outlived the ceiling now.
	close(ceilingPassed)
	if got := <-built; got.err != nil || got.body != `{"stream":"done"}` {
		t.Errorf("a build under a deadline of its own: answer %q, %v", got.body, got.err)
	}
}

func TestCheckHost(t *testing.T) {
	cases := []struct{ host, want string }{
		{"unix:///var/run/docker.sock", ""},
		{"tcp://build-host:2376", ""},
		{"tcp://10.0.0.1:2375/", ""},
		{"tcp://build-host", "needs a port"},
		{"ftp://x", `uses the scheme "ftp://", which is not supported: use unix://`},
		{"ssh://dev@build-host", ""},
		{"ssh://dev:hunter2@build-host", "holds a password"},
		{"tcp://dev:hunter2@build-host:2376", "holds a password"},
		{"http://build-host:2375", "write tcp:// instead"},
		{"build-host:2375", "is not an engine address"},
		{"unix://", "is not an engine address"},
	}
	if runtime.GOOS != "windows" {
		cases = append(cases, struct{ host, want string }{"npipe:////./pipe/docker_engine", "works only when Terraform runs on Windows"})
	}
	for _, tc := range cases {
		err := CheckHost(tc.host)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("CheckHost(%q) = %v, want nil", tc.host, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("CheckHost(%q) = %v, want %q", tc.host, err, tc.want)
		}
	}
}

// TestDeadlineTransportBusyEngine: a quick call that waits on the engine's
// own work (an inspect behind a container that is starting) outlasts its
// deadline while the engine answers pings, and fails once the busy limit
// passes; an engine that answers no ping fails it at the first deadline.
// Each row runs through the provider's own client over a TCP port and over
// a unix socket, whose address no URL written out and parsed again keeps.
//
// No row depends on how fast the machine is: the busy inspect answers once
// the client has pinged the engine twice (however long that takes), a ping
// the engine answers may take clock.Patience, and the other inspects never
// answer, so that only a deadline or the busy limit ends them.
func TestDeadlineTransportBusyEngine(t *testing.T) {
	const answer = 100 * time.Millisecond
	tests := []struct {
		name string
		// afterPings is how many pings during the inspect the engine
		// answers before it answers the inspect; 0: it never does.
		afterPings int32
		pings      bool // whether the engine answers pings while it works
		probe      time.Duration
		busy       time.Duration
		wantErr    bool
		wantLimit  time.Duration // the NoAnswerError's Timeout
	}{
		{name: "busy engine, inspect answers in time", afterPings: 2, pings: true, probe: clock.Patience, busy: time.Hour},
		{name: "busy engine past the busy limit", pings: true, probe: clock.Patience, busy: 3 * answer, wantErr: true, wantLimit: 3 * answer},
		// The ping that never comes back is cut by the probe's timeout,
		// whose expiry is the point.
		{name: "hung engine", pings: false, probe: answer, busy: time.Hour, wantErr: true, wantLimit: answer},
	}
	for _, over := range []string{"tcp", "unix"} {
		for _, tt := range tests {
			t.Run(over+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				var inspecting atomic.Bool
				var workPings atomic.Int32
				busyEnough := make(chan struct{})
				host := serveEngine(t, over, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if strings.HasSuffix(r.URL.Path, "/_ping") {
						// A hung engine still answered the client's first
						// pings, before the inspect.
						if !tt.pings && inspecting.Load() {
							<-r.Context().Done()
							return
						}
						w.Header().Set("API-Version", "1.41")
						_, _ = io.WriteString(w, "OK")
						if inspecting.Load() && workPings.Add(1) == tt.afterPings {
							close(busyEnough)
						}
						return
					}
					select {
					case <-busyEnough:
						w.Header().Set("Content-Type", "application/json")
						_, _ = io.WriteString(w, `{"Id":"abc"}`)
					case <-r.Context().Done():
					}
				}))
				api, err := engineClient(host, nil, &deadlineTransport{answer: answer, ceiling: time.Hour, probe: tt.probe, busy: tt.busy})
				if err != nil {
					t.Fatal(err)
				}
				defer func() { _ = api.Close() }() // the test's own client
				// The client's API version, from a ping under the answer
				// deadline, which a loaded machine may miss: ping again
				// rather than leave the inspect's call to do it.
				if !clock.Eventually(func() bool {
					api.NegotiateAPIVersion(context.Background())
					return api.ClientVersion() == "1.41"
				}) {
					t.Fatal("the engine never answered a ping")
				}
				// From here, the pings are the client's probes of the inspect.
				inspecting.Store(true)
				got, err := api.ContainerInspect(context.Background(), "abc")
				if !tt.wantErr {
					if err != nil {
						t.Fatalf("the inspect of a busy engine failed: %v", err)
					}
					if got.ID != "abc" {
						t.Errorf("inspect answered id %q", got.ID)
					}
					return
				}
				var na *NoAnswerError
				if !errors.As(err, &na) {
					t.Fatalf("error %v, want a NoAnswerError", err)
				}
				if na.Timeout != tt.wantLimit {
					t.Errorf("the error says %s passed, want %s", na.Timeout, tt.wantLimit)
				}
			})
		}
	}
}

// serveEngine serves h as an engine at a TCP port or a unix socket, and
// returns its address as the provider's docker.host takes it.
func serveEngine(t *testing.T, over string, h http.Handler) string {
	t.Helper()
	if over == "tcp" {
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		return "tcp://" + srv.Listener.Addr().String()
	}
	sock := filepath.Join(t.TempDir(), "docker.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	_ = srv.Listener.Close() // replaced by the socket
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return "unix://" + sock
}
