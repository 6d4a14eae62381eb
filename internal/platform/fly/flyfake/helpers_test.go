package flyfake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

const (
	testToken = "fo1_test-token"
	testApp   = "sbx-test"
)

var epoch = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

type env struct {
	t     *testing.T
	s     *Server
	clock *clock.Fake
}

func newEnv(t *testing.T, mod func(*Options)) *env {
	t.Helper()
	clock := clock.NewFake(epoch)
	opts := Options{Clock: clock, APIToken: testToken, Apps: []string{testApp}}
	if mod != nil {
		mod(&opts)
	}
	return &env{t: t, s: New(t, opts), clock: clock}
}

type resp struct {
	status int
	header http.Header
	raw    []byte
}

func (r resp) obj(t *testing.T) map[string]any {
	t.Helper()
	var out map[string]any
	if err := json.Unmarshal(r.raw, &out); err != nil {
		t.Fatalf("decode %s: %v", r.raw, err)
	}
	return out
}

func (r resp) list(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	if err := json.Unmarshal(r.raw, &out); err != nil {
		t.Fatalf("decode %s: %v", r.raw, err)
	}
	return out
}

// doAuth sends a request with an Authorization header (none when auth is
// empty); body is marshalled unless it is already bytes.
func (e *env) doAuth(auth, method, path string, body any) resp {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, e.s.URL()+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer func() { _ = res.Body.Close() }()
	raw, _ := io.ReadAll(res.Body)
	return resp{status: res.StatusCode, header: res.Header, raw: raw}
}

func (e *env) do(method, path string, body any) resp {
	e.t.Helper()
	return e.doAuth("Bearer "+testToken, method, path, body)
}

// must sends a request and fails unless it answers want.
func (e *env) must(want int, method, path string, body any) resp {
	e.t.Helper()
	r := e.do(method, path, body)
	if r.status != want {
		e.t.Fatalf("%s %s = %d %s, want %d", method, path, r.status, r.raw, want)
	}
	return r
}

const machines = "/v1/apps/" + testApp + "/machines"
const volumes = "/v1/apps/" + testApp + "/volumes"

func testConfig(extra map[string]any) map[string]any {
	cfg := map[string]any{"image": "alpine:3.20", "guest": map[string]any{"cpu_kind": "shared", "cpus": 1, "memory_mb": 256}}
	for k, v := range extra {
		cfg[k] = v
	}
	return cfg
}

// createMachine creates a machine and returns its id.
func (e *env) createMachine(body map[string]any) string {
	e.t.Helper()
	if _, has := body["config"]; !has {
		body["config"] = testConfig(nil)
	}
	return as[string](e.t, e.must(http.StatusOK, "POST", machines, body).obj(e.t)["id"])
}

// started creates a machine and waits for it to start.
func (e *env) started(body map[string]any) string {
	e.t.Helper()
	id := e.createMachine(body)
	e.must(http.StatusOK, "GET", machines+"/"+id+"/wait?state=started", nil)
	return id
}

func (e *env) createVolume(body map[string]any) map[string]any {
	e.t.Helper()
	return e.must(http.StatusOK, "POST", volumes, body).obj(e.t)
}

func (e *env) state(id string) string {
	e.t.Helper()
	m, found := e.s.Machine(id)
	if !found {
		e.t.Fatalf("no machine %s", id)
	}
	return m.State
}

// recordingTB records Errorf instead of failing, for tests that expect the
// fake to report a violation.
type recordingTB struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recordingTB) recorded() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errs...)
}

// newRecordingEnv is newEnv whose fake reports to a recordingTB.
func newRecordingEnv(t *testing.T) (*env, *recordingTB) {
	rec := &recordingTB{TB: t}
	clock := clock.NewFake(epoch)
	return &env{t: t, s: New(rec, Options{Clock: clock, APIToken: testToken, Apps: []string{testApp}}), clock: clock}, rec
}

// as asserts a decoded JSON value's type.
func as[T any](t testing.TB, v any) T {
	t.Helper()
	out, isT := v.(T)
	if !isT {
		t.Fatalf("%v (%T) is not a %T", v, v, out)
	}
	return out
}
