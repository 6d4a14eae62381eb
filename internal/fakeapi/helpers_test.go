package fakeapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

const (
	miniFile = "mini-openapi.yaml"
	miniSum  = "65a9b94048326668e119cddcf19fdb72923523ad0de03d1c48d2a3e18bb807f0"
	testKey  = "k1"
)

// miniSpec is the test document, shared like a fake's spec.
var miniSpec = &Spec{Platform: "Mini", File: miniFile, SHA256: miniSum, Testdata: TestdataDir()}

type fixedClock struct{ at time.Time }

func (c fixedClock) Now() time.Time { return c.at }

var t0 = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// recordingTB stands in for the test's T where violations are expected: it
// records Errorf calls instead of failing.
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

func miniError(status int, format string, args ...any) Reply {
	return Reply{Status: status, Body: map[string]any{"message": fmt.Sprintf(format, args...)}}
}

func miniAuth(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	if in.RequestValidationInput.Request.Header.Get("X-Key") != testKey {
		return errors.New("bad key")
	}
	return nil
}

// miniFake is a fake of the test document: POST /items stores a name, GET
// /items/{id} reads it back; /unserved has no handler.
type miniFake struct {
	api     *API
	url     string
	mu      sync.Mutex
	handled []string
	// answer, when set, replaces every handler's reply.
	answer *Reply
}

func newMini(t *testing.T, tb testing.TB, change func(*Config)) *miniFake {
	t.Helper()
	f := &miniFake{}
	cfg := Config{
		Name: "minifake", Spec: miniSpec, Clock: fixedClock{t0}, Authenticate: miniAuth,
		Error: miniError, NoRoute: "no route %s %s", Unauthorized: "who are you",
		Handle: f.handle,
	}
	if change != nil {
		change(&cfg)
	}
	f.api = New(tb, cfg)
	srv := httptest.NewServer(f.api)
	t.Cleanup(srv.Close)
	f.url = srv.URL
	return f
}

func (f *miniFake) handle(route string, in *Request) (Reply, bool) {
	var rep Reply
	switch route {
	case "POST /items":
		rep = Reply{Status: http.StatusCreated, Body: map[string]string{"id": "i1", "name": "n"}}
	case "GET /items/{id}":
		rep = Reply{Status: http.StatusOK, Body: map[string]string{"id": in.Params["id"], "name": in.Now.Format(time.RFC3339)}}
	default:
		return Reply{}, false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.handled = append(f.handled, route)
	if f.answer != nil {
		rep = *f.answer
	}
	return rep, true
}

func (f *miniFake) handledRoutes() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.handled...)
}

type answer struct {
	status int
	header http.Header
	body   string
}

// do sends one request with the test key unless key says otherwise.
func (f *miniFake) do(t *testing.T, method, path, body string, key ...string) (answer, error) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, f.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("X-Key", testKey)
	if len(key) > 0 {
		req.Header.Set("X-Key", key[0])
	}
	// The timeout is for a fake that never answers, which no test here
	// means: the answers come in milliseconds.
	resp, err := (&http.Client{Timeout: clock.Patience}).Do(req)
	if err != nil {
		return answer{}, err
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return answer{}, err
	}
	return answer{status: resp.StatusCode, header: resp.Header, body: string(data)}, nil
}
