package daytonafake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

const testKey = "dtn_test_key"

var t0 = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// fakeAPI is a plain net/http client for the fake, counting the answers it
// got so tests can check that every one of them passed validation.
type fakeAPI struct {
	t       *testing.T
	srv     *Server
	key     string
	hc      *http.Client
	mu      sync.Mutex
	answers int
}

func newFakeAPI(t *testing.T, srv *Server) *fakeAPI {
	return &fakeAPI{t: t, srv: srv, key: testKey, hc: &http.Client{Timeout: 10 * time.Second}}
}

// newTest starts a fake on a fake clock with a client for it.
func newTest(t *testing.T, opts Options) (*Server, *fakeAPI, *clock.Fake) {
	t.Helper()
	clock := clock.NewFake(t0)
	if opts.Clock == nil {
		opts.Clock = clock
	}
	if opts.APIKey == "" {
		opts.APIKey = testKey
	}
	srv := New(t, opts)
	return srv, newFakeAPI(t, srv), clock
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

func (a answer) decode(t *testing.T, into any) {
	t.Helper()
	if err := json.Unmarshal(a.body, into); err != nil {
		t.Fatalf("decode %s: %v", a.body, err)
	}
}

// message is the NestJS error message of an answer.
func (a answer) message() string {
	var e struct{ Message string }
	_ = json.Unmarshal(a.body, &e)
	return e.Message
}

func (a *fakeAPI) send(method, path string, body any) (answer, error) {
	var rd io.Reader
	if m, ok := body.(map[string]any); ok && m == nil {
		body = "{}" // a nil map would marshal as null
	}
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			return answer{}, err
		}
		rd = bytes.NewReader(data)
	}
	target := path
	if !strings.HasPrefix(path, "http") {
		target = a.srv.URL() + path
	}
	req, err := http.NewRequest(method, target, rd)
	if err != nil {
		return answer{}, err
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if a.key != "" {
		req.Header.Set("Authorization", "Bearer "+a.key)
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return answer{}, err
	}
	a.mu.Lock()
	a.answers++
	a.mu.Unlock()
	return answer{status: resp.StatusCode, header: resp.Header, body: data}, nil
}

// must sends a request and fails the test unless the status is want.
func (a *fakeAPI) must(want int, method, path string, body any) answer {
	a.t.Helper()
	ans, err := a.send(method, path, body)
	if err != nil {
		a.t.Fatalf("%s %s: %v", method, path, err)
	}
	if ans.status != want {
		a.t.Fatalf("%s %s: status %d, want %d; body %s", method, path, ans.status, want, ans.body)
	}
	return ans
}

// refuse sends a request that must fail with status and a message
// containing mention.
func (a *fakeAPI) refuse(status int, mention, method, path string, body any) {
	a.t.Helper()
	ans := a.must(status, method, path, body)
	if !strings.Contains(ans.message(), mention) {
		a.t.Fatalf("%s %s: message %q, want it to mention %q", method, path, ans.message(), mention)
	}
}

type sandboxOut struct {
	ID                  string
	Name                string
	Snapshot            string
	State               string
	DesiredState        string
	SandboxClass        string
	CPU, Memory, Disk   int
	AutoStopInterval    int
	AutoArchiveInterval int
	AutoDeleteInterval  int
	Labels              map[string]string
	Volumes             []sandboxVolume
}

type snapshotOut struct {
	ID, Name, State string
	ErrorReason     *string
	SandboxClass    string
	CPU, Mem, Disk  int
	LastUsedAt      *string
}

func (a *fakeAPI) sandbox(idOrName string) sandboxOut {
	a.t.Helper()
	var out sandboxOut
	a.must(http.StatusOK, "GET", "/sandbox/"+idOrName, nil).decode(a.t, &out)
	return out
}

// waitSandbox polls a sandbox until it is in state.
func (a *fakeAPI) waitSandbox(id, state string) sandboxOut {
	a.t.Helper()
	var last sandboxOut
	for i := 0; i < 10; i++ {
		last = a.sandbox(id)
		if last.State == state && last.DesiredState != "" {
			return last
		}
	}
	a.t.Fatalf("sandbox %s stuck in %s, want %s", id, last.State, state)
	return last
}

func (a *fakeAPI) snapshot(idOrName string) snapshotOut {
	a.t.Helper()
	var out snapshotOut
	a.must(http.StatusOK, "GET", "/snapshots/"+idOrName, nil).decode(a.t, &out)
	return out
}

func (a *fakeAPI) waitSnapshot(id, state string) snapshotOut {
	a.t.Helper()
	var last snapshotOut
	for i := 0; i < 10; i++ {
		last = a.snapshot(id)
		if last.State == state {
			return last
		}
	}
	a.t.Fatalf("snapshot %s stuck in %s, want %s", id, last.State, state)
	return last
}

// createSandbox creates a sandbox and waits until it is started.
func (a *fakeAPI) createSandbox(body map[string]any) sandboxOut {
	a.t.Helper()
	var out sandboxOut
	a.must(http.StatusOK, "POST", "/sandbox", body).decode(a.t, &out)
	return a.waitSandbox(out.ID, stateStarted)
}

// readyVolume creates a volume and waits until it is ready.
func (a *fakeAPI) readyVolume(name string) string {
	a.t.Helper()
	var v struct{ ID, State string }
	a.must(http.StatusOK, "POST", "/volumes", map[string]any{"name": name}).decode(a.t, &v)
	for i := 0; i < 10 && v.State != volReady; i++ {
		a.must(http.StatusOK, "GET", "/volumes/"+v.ID, nil).decode(a.t, &v)
	}
	if v.State != volReady {
		a.t.Fatalf("volume %s never ready", name)
	}
	return v.ID
}

// checkClean asserts that the fake saw no violation and that every answer
// the client received had passed response validation.
func (a *fakeAPI) checkClean() {
	a.t.Helper()
	if v := a.srv.SpecViolations(); len(v) != 0 {
		a.t.Errorf("spec violations: %q", v)
	}
	a.mu.Lock()
	answers := a.answers
	a.mu.Unlock()
	if got := a.srv.ValidatedResponses(); got != answers {
		a.t.Errorf("validated responses = %d, client got %d answers", got, answers)
	}
}

// recordingTB stands in for the test's T where the fake is expected to
// report violations: it records Errorf calls instead of failing.
type recordingTB struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recordingTB) recorded() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errors...)
}
