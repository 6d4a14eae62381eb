package e2bfake

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

// Options configure a fake.
type Options struct {
	// Clock decides when sandboxes time out; clock.Fake fits.
	// Default: the wall clock.
	Clock interface{ Now() time.Time }
	// APIKey is the only X-API-Key the fake accepts.
	APIKey string
	// BuildPolls is how many status polls a started build answers before it is
	// ready (or failed): polls 1..BuildPolls-1 say "building". Default 2
	// (1 with Instant): E2B builds in the background and its SDKs poll
	// while the status is "waiting" or "building" (e2b-dev/E2B,
	// packages/js-sdk/src/template/buildApi.ts, waitForBuildFinish).
	BuildPolls int
	// PauseReads is how many reads of a sandbox (GET /sandboxes/{id}, or a
	// list that shows it) find it still pausing once it began to pause on
	// its own (at its timeout with autoPause, or out of band), before it
	// settles as paused. Default 1 (0 with Instant). A pause by request is
	// over when its answer comes, as on E2B.
	PauseReads int
	// Instant settles every transition at once: a started build is ready (or
	// failed) at its first status poll, and a box that pauses on its own is
	// paused at once. The default is the slow path E2B takes; a test that
	// sets Instant says why beside it.
	Instant bool
	// TeamSlug namespaces template and snapshot names ("slug/name") as E2B
	// does for teams that have a slug. Default: no namespace.
	TeamSlug string
	// VolumesDisabled makes POST /volumes answer 403, as E2B does for teams
	// without the volumes beta. See also SetVolumesEnabled.
	VolumesDisabled bool
	// MaxTimeoutSeconds is the team's longest sandbox timeout (E2B: 24 h on
	// Pro, 1 h on Base). Default 86400.
	MaxTimeoutSeconds int
	// ListLag hides each new sandbox, volume, template and snapshot from the
	// list endpoints (GET /v2/sandboxes, /volumes, /v2/templates, /snapshots)
	// until ListLag has passed on Clock since its create. Reads by id see it
	// at once. Default 0: listed at once, as E2B's server code lists them:
	// a create answers only after the store or database the lists read
	// holds the object (orchestrator/create_instance.go adds the box to the
	// sandbox store before it returns, and the team's boxes are read in one
	// atomic SMEMBERS: sandbox/storage/redis/operations.go, TeamItems;
	// templates, volumes and snapshots are database rows written before the
	// answer). The lag is kept for the tests that show the provider does not
	// rely on a list being current.
	ListLag time.Duration
}

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

// Server is a running fake. All methods are safe for concurrent use.
type Server struct {
	t      testing.TB
	opts   Options
	clock  interface{ Now() time.Time }
	api    *fakeapi.API
	router routers.Router // the spec's, for tests that check a reply directly
	http   *httptest.Server

	mu        sync.Mutex
	seq       int64
	sandboxes map[string]*sandbox
	templates map[string]*template
	volumes   map[string]*volume
	failNext  map[string]string
	noVolumes bool
	before    map[string][]func() // Fault.Before hooks by route
}

// New starts a fake and closes it when the test ends. It fails t at once when
// the spec cannot be loaded.
func New(t testing.TB, opts Options) *Server {
	t.Helper()
	if opts.Clock == nil {
		opts.Clock = wallClock{}
	}
	if opts.BuildPolls <= 0 {
		opts.BuildPolls = 2
		if opts.Instant {
			opts.BuildPolls = 1
		}
	}
	if opts.PauseReads <= 0 {
		opts.PauseReads = 1
		if opts.Instant {
			opts.PauseReads = 0
		}
	}
	if opts.MaxTimeoutSeconds <= 0 {
		opts.MaxTimeoutSeconds = 86400
	}
	s := &Server{
		t:         t,
		opts:      opts,
		clock:     opts.Clock,
		sandboxes: map[string]*sandbox{},
		templates: map[string]*template{},
		volumes:   map[string]*volume{},
		failNext:  map[string]string{},
		noVolumes: opts.VolumesDisabled,
		before:    map[string][]func(){},
	}
	s.api = fakeapi.New(t, fakeapi.Config{
		Name:         "e2bfake",
		Spec:         spec,
		Clock:        opts.Clock,
		Authenticate: s.authenticate,
		Error: func(status int, format string, args ...any) fakeapi.Reply {
			return errorReply(status, format, args...).wire()
		},
		NoRoute:      "no such operation: %s %s",
		Unauthorized: "Invalid API key",
		Handle:       s.handle,
	})
	s.router = s.api.Router()
	s.http = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	t.Cleanup(s.http.Close)
	return s
}

// URL is the fake's base URL, to use as the E2B API URL.
func (s *Server) URL() string { return s.http.URL }

// SpecViolations lists every request or response that did not match the spec,
// in order. Each was also reported through t.Errorf when it happened.
func (s *Server) SpecViolations() []string { return s.api.SpecViolations() }

// ValidatedResponses counts the responses that passed spec validation.
func (s *Server) ValidatedResponses() int { return s.api.ValidatedResponses() }

// SetVolumesEnabled switches the team's volume beta: when off, POST /volumes
// answers 403.
func (s *Server) SetVolumesEnabled(enabled bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noVolumes = !enabled
}

// call is one request as the handlers see it.
type call struct {
	r      *http.Request
	body   []byte
	params map[string]string
	query  url.Values
	now    time.Time
}

// reply is a handler's answer; wire hands it to fakeapi, which validates it
// before any byte reaches the client.
type reply struct {
	status int
	body   any
	header http.Header
}

func (rep reply) wire() fakeapi.Reply {
	return fakeapi.Reply{Status: rep.status, Body: rep.body, Header: rep.header}
}

// apiError is E2B's Error body.
type apiError struct {
	Code    int32  `json:"code"`
	Message string `json:"message"`
}

func errorReply(status int, format string, args ...any) reply {
	return reply{status: status, body: apiError{Code: int32(status), Message: fmt.Sprintf(format, args...)}}
}

// serveHTTP sends the upload URL, which is outside the spec, to its own
// handler and everything else through the spec-checking front.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, uploadPrefix) {
		s.serveUpload(w, r)
		return
	}
	s.api.ServeHTTP(w, r)
}

// handle runs the handler of a valid request after the clock's expiries.
func (s *Server) handle(route string, in *fakeapi.Request) (fakeapi.Reply, bool) {
	h, known := handlers[route]
	if !known {
		return fakeapi.Reply{}, false
	}
	c := &call{r: in.HTTP, body: in.Body, params: in.Params, query: in.HTTP.URL.Query(), now: in.Now}
	s.runBefore(route)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire(c.now)
	return h(s, c).wire(), true
}

// authenticate is kin-openapi's hook for the spec's security schemes: the fake
// honours only X-API-Key, the scheme a provider uses.
func (s *Server) authenticate(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	if in.SecuritySchemeName != "ApiKeyAuth" {
		return fmt.Errorf("the fake accepts only ApiKeyAuth, not %s", in.SecuritySchemeName)
	}
	if got := in.RequestValidationInput.Request.Header.Get("X-API-Key"); got == "" || got != s.opts.APIKey {
		return errors.New("invalid or missing X-API-Key")
	}
	return nil
}

// send validates a reply against the operation's responses and writes it;
// tests use it to hold the fake's own shapes to the spec.
func (s *Server) send(w http.ResponseWriter, r *http.Request, input *openapi3filter.RequestValidationInput, rep reply) {
	s.api.Send(w, r, input, rep.wire())
}

// writeRaw writes a reply outside the spec, unvalidated.
func (s *Server) writeRaw(w http.ResponseWriter, r *http.Request, rep reply) {
	s.api.WriteRaw(w, r, rep.wire())
}
