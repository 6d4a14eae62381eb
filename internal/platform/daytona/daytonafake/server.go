package daytonafake

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

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

// Options configure a fake.
type Options struct {
	// Clock drives auto-stop/archive/delete and snapshot deactivation;
	// clock.Fake fits. Default: the wall clock.
	Clock interface{ Now() time.Time }
	// APIKey is the only bearer token the fake accepts.
	APIKey string
	// OrganizationID is the organization the key belongs to. A request with
	// another X-Daytona-Organization-ID is a 403. Default: a fixed UUID.
	OrganizationID string
	// Polls is how many reads (GETs by id or name) each transitional state
	// of a sandbox, snapshot or volume answers before the next; the read
	// after the last finds it settled. Default 1: every state Daytona
	// passes through (sandbox creating, starting, stopping, archiving,
	// destroying...; snapshot pending then pulling or building; volume
	// pending_create then creating) is seen by one read. Lists do not move
	// transitions on.
	Polls int
	// Instant settles every transition inside the request that begins it
	// (the answer shows the settled state) and lists every box at once.
	// Daytona never answers so; it is for tests whose subject is not the
	// wait (each says why it needs it).
	Instant bool
	// ListLagLists is how many lists (GET /sandbox without a cursor) leave
	// out a box created since: Daytona's cloud answers the list from an
	// OpenSearch index the API publishes to after the insert
	// (sandbox-search.provider.ts, sandbox-opensearch-search.adapter.ts), so
	// a box made a moment ago may be missing. Default 1; negative: none.
	// Reads by id or name find the box at once.
	ListLagLists int
	// DefaultSnapshot is the snapshot a sandbox create without "snapshot"
	// uses (the server's DEFAULT_SNAPSHOT, configuration.ts:65). The fake
	// seeds it as a general, active container snapshot. Default
	// DefaultSnapshotName.
	DefaultSnapshot string
	// MaxAutoArchiveMinutes is the server's MAX_AUTO_ARCHIVE_INTERVAL
	// (configuration.ts:97): autoArchiveInterval 0 means it, larger values
	// are clamped to it. Default 43200 (30 days).
	MaxAutoArchiveMinutes int
	// ResizeDisabled turns off the organization's sandbox_resize feature
	// flag (sandbox.controller.ts:609, feature-flags.ts:8): POST
	// /sandbox/{id}/resize then answers 404 "Cannot POST <url>" as the
	// OpenFeature interceptor does.
	ResizeDisabled bool
	// CreateRateLimit, when above zero, is how many POST /sandbox the
	// sandbox-create throttler lets through per minute of Clock; more answer
	// 429 with Retry-After-sandbox-create.
	CreateRateLimit int
	// MaxCPUPerSandbox, MaxMemoryGBPerSandbox and MaxDiskGBPerSandbox are
	// the organization's per-sandbox limits (getEffectivePerSandboxLimits):
	// snapshot and sandbox creates, starts and resizes above them are a 400.
	// Default 0: no limit.
	MaxCPUPerSandbox, MaxMemoryGBPerSandbox, MaxDiskGBPerSandbox int
	// ListLag hides each new sandbox from GET /sandbox until ListLag has
	// passed on Clock since its create: the spec calls that list "Eventually
	// consistent". Reads by id or name find it at once. Default 0.
	ListLag time.Duration
	// SnapshotDeactivation is how long an active snapshot may go unused
	// before the platform deactivates it (DEFAULT_SNAPSHOT_DEACTIVATION_
	// TIMEOUT_MINUTES, snapshot.manager.ts:64). Default 14 days.
	SnapshotDeactivation time.Duration
	// DefaultSandboxClass is the class of a snapshot created without one
	// (the server's DEFAULT_SANDBOX_CLASS, configuration.ts:66): "container"
	// by default; ClassLinuxVM models a deployment whose boxes are VMs and
	// can be paused.
	DefaultSandboxClass string
	// Regions are the organisation's regions a create may target;
	// default only the fake's own, "us".
	Regions []string
}

// DefaultSnapshotName is the general snapshot the fake seeds when
// Options.DefaultSnapshot is empty. The name is the fake's own; Daytona's
// cloud configures its own default.
const DefaultSnapshotName = "daytonaio/sandbox:fake"

// DefaultOrganizationID is the organization when Options leave it empty.
const DefaultOrganizationID = "5e0d6a3c-0f4b-4d8a-9a51-7a1f0c2b9d11"

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

// Server is a running fake. All methods are safe for concurrent use.
type Server struct {
	t     testing.TB
	opts  Options
	clock interface{ Now() time.Time }
	api   *fakeapi.API
	http  *httptest.Server

	mu        sync.Mutex
	seq       int64
	sandboxes map[string]*sandbox
	snapshots map[string]*snapshot
	volumes   map[string]*volume
	storage   *objectStore
	failNext  *buildFailure
	creates   []time.Time // accepted POST /sandbox, for CreateRateLimit
	lists     int         // GET /sandbox without a cursor, for ListLagLists
	execRuns  []ExecRun   // commands run through the toolbox proxy
	sleeping  int         // execute requests held in a sleep now
}

// New starts a fake and closes it when the test ends. It fails t at once
// when the spec cannot be loaded.
func New(t testing.TB, opts Options) *Server {
	t.Helper()
	if opts.Clock == nil {
		opts.Clock = wallClock{}
	}
	if opts.OrganizationID == "" {
		opts.OrganizationID = DefaultOrganizationID
	}
	if opts.Polls <= 0 {
		opts.Polls = 1
	}
	if opts.ListLagLists == 0 {
		opts.ListLagLists = 1
	}
	if opts.ListLagLists < 0 || opts.Instant {
		opts.ListLagLists = 0
	}
	if opts.DefaultSnapshot == "" {
		opts.DefaultSnapshot = DefaultSnapshotName
	}
	if opts.MaxAutoArchiveMinutes <= 0 {
		opts.MaxAutoArchiveMinutes = 43200
	}
	if len(opts.Regions) == 0 {
		opts.Regions = []string{fakeRegion}
	}
	if opts.DefaultSandboxClass == "" {
		opts.DefaultSandboxClass = ClassContainer
	}
	if opts.SnapshotDeactivation <= 0 {
		opts.SnapshotDeactivation = 14 * 24 * time.Hour
	}
	s := &Server{
		t:         t,
		opts:      opts,
		clock:     opts.Clock,
		sandboxes: map[string]*sandbox{},
		snapshots: map[string]*snapshot{},
		volumes:   map[string]*volume{},
		storage:   newObjectStore(),
	}
	s.api = fakeapi.New(t, fakeapi.Config{
		Name:         "daytonafake",
		Spec:         spec,
		Clock:        opts.Clock,
		Authenticate: s.authenticate,
		// Guards run before pipes in NestJS: a bad key is a 401 whatever the body.
		AuthFirst: true,
		Error: func(status int, format string, args ...any) fakeapi.Reply {
			return errorReply(status, format, args...).wire()
		},
		// NestJS's answer to an unknown route.
		NoRoute:         "Cannot %s %s",
		Unauthorized:    "Unauthorized",
		JSONContentType: "application/json; charset=utf-8",
		// https://app.daytona.io/api serves the spec's paths under /api.
		StripPrefix: "/api",
		Complete:    stampError,
		Admit:       s.admitOrganization,
		Throttle:    s.throttle,
		Handle:      s.handle,
	})
	s.http = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	t.Cleanup(s.http.Close)
	s.SeedSnapshot(SnapshotSeed{Name: opts.DefaultSnapshot, ImageName: opts.DefaultSnapshot, General: true})
	return s
}

// URL is the fake's base URL, to use as the Daytona API URL. Paths are served
// both bare (as the spec writes them) and under /api (as
// https://app.daytona.io/api serves them).
func (s *Server) URL() string { return s.http.URL }

// OrganizationID is the organization every object belongs to.
func (s *Server) OrganizationID() string { return s.opts.OrganizationID }

// SpecViolations lists every request or response that did not match the
// spec, in order. Each was also reported through t.Errorf when it happened.
func (s *Server) SpecViolations() []string { return s.api.SpecViolations() }

// ValidatedResponses counts the responses that passed spec validation.
func (s *Server) ValidatedResponses() int { return s.api.ValidatedResponses() }

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
	// text, when set, is sent as text/plain instead of body.
	text string
}

func (rep reply) wire() fakeapi.Reply {
	return fakeapi.Reply{Status: rep.status, Body: rep.body, Header: rep.header, Text: rep.text}
}

// nestError is the body NestJS writes for every exception through
// AllExceptionsFilter (apps/api/src/filters/all-exceptions.filter.ts:81-87):
// message is the exception's message, error the status text.
type nestError struct {
	Path       string `json:"path,omitempty"`
	Timestamp  string `json:"timestamp,omitempty"`
	StatusCode int    `json:"statusCode"`
	Error      string `json:"error"`
	Message    string `json:"message"`
}

// errorReply is an HttpException answer; path and timestamp are filled in by
// stampError when it is written.
func errorReply(status int, format string, args ...any) reply {
	return reply{status: status, body: nestError{StatusCode: status, Error: http.StatusText(status), Message: fmt.Sprintf(format, args...)}}
}

// serveHTTP sends the fake's object storage and build-log URLs, which are
// outside the spec, to their own handlers, the toolbox proxy to the spec's
// execute operation (execute.go) and everything else through the
// spec-checking front.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case strings.HasPrefix(r.URL.Path, s3Prefix):
		s.serveS3(w, r)
	case strings.HasPrefix(r.URL.Path, buildLogsPrefix):
		s.serveBuildLogs(w, r)
	case strings.HasPrefix(r.URL.Path, toolboxPrefix):
		s.serveToolbox(w, r)
	default:
		s.api.ServeHTTP(w, r)
	}
}

// admitOrganization is stricter than the server: only its JWT strategy
// reads X-Daytona-Organization-ID (auth/jwt.strategy.ts:56), an API key
// carries its own organization. A client that sends a foreign organization
// has a bug worth a 403, with the message OrganizationAuthContextGuard
// gives an organization it cannot resolve
// (organization-auth-context.guard.ts:48-51).
func (s *Server) admitOrganization(r *http.Request) (fakeapi.Reply, bool) {
	if org := r.Header.Get("X-Daytona-Organization-ID"); org != "" && org != s.opts.OrganizationID {
		return errorReply(http.StatusForbidden, "Invalid authentication context").wire(), false
	}
	return fakeapi.Reply{}, true
}

// throttle applies Options.CreateRateLimit to sandbox creates.
func (s *Server) throttle(route string, now time.Time) (fakeapi.Reply, bool) {
	if route != "POST /sandbox" {
		return fakeapi.Reply{}, false
	}
	rep, limited := s.rateLimitCreate(now)
	return rep.wire(), limited
}

// handle runs the handler of a valid request after what the clock has made
// due.
func (s *Server) handle(route string, in *fakeapi.Request) (fakeapi.Reply, bool) {
	h, known := handlers[route]
	if !known {
		return fakeapi.Reply{}, false
	}
	c := &call{r: in.HTTP, body: in.Body, params: in.Params, query: in.HTTP.URL.Query(), now: in.Now}
	if route == routeExecute {
		// A command may sleep; execute takes the lock itself.
		return h(s, c).wire(), true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.advanceClock(c.now)
	return h(s, c).wire(), true
}

// authenticate is kin-openapi's hook for the spec's security schemes
// (bearer, oauth2). The fake honours only the bearer API key a provider
// uses; JWT/OIDC logins are not modelled.
func (s *Server) authenticate(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	if in.SecuritySchemeName != "bearer" {
		return fmt.Errorf("the fake accepts only the bearer API key, not %s", in.SecuritySchemeName)
	}
	got := in.RequestValidationInput.Request.Header.Get("Authorization")
	token, ok := strings.CutPrefix(got, "Bearer ")
	if !ok || token == "" || token != s.opts.APIKey {
		return errors.New("invalid or missing bearer API key")
	}
	return nil
}

// stampError fills in a NestJS error body the request's path and the time
// of the answer, as AllExceptionsFilter does.
func stampError(r *http.Request, body any) any {
	if e, ok := body.(nestError); ok {
		e.Path, e.Timestamp = r.URL.RequestURI(), time.Now().UTC().Format(time.RFC3339Nano)
		return e
	}
	return body
}
