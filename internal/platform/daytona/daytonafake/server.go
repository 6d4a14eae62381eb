package daytonafake

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
)

// Options configure a fake.
type Options struct {
	// Clock drives auto-stop/archive/delete and snapshot deactivation;
	// retention.FakeClock fits. Default: the wall clock.
	Clock interface{ Now() time.Time }
	// APIKey is the only bearer token the fake accepts.
	APIKey string
	// OrganizationID is the organization the key belongs to. A request with
	// another X-Daytona-Organization-ID is a 403. Default: a fixed UUID.
	OrganizationID string
	// Polls is how many GETs of a sandbox, snapshot or volume in a
	// transitional state answer that state: the Polls-th GET finds it
	// settled. Default 2.
	Polls int
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
	t      testing.TB
	opts   Options
	clock  interface{ Now() time.Time }
	router routers.Router
	http   *httptest.Server

	mu         sync.Mutex
	seq        int64
	sandboxes  map[string]*sandbox
	snapshots  map[string]*snapshot
	volumes    map[string]*volume
	storage    *objectStore
	failNext   *buildFailure
	faults     map[string][]*pendingFault
	counts     map[string]int
	creates    []time.Time // accepted POST /sandbox, for CreateRateLimit
	violations []string
	validated  int
}

// New starts a fake and closes it when the test ends. It fails t at once
// when the spec cannot be loaded.
func New(t testing.TB, opts Options) *Server {
	t.Helper()
	router, err := specRoutes()
	if err != nil {
		t.Fatalf("daytonafake: %v", err)
	}
	if opts.Clock == nil {
		opts.Clock = wallClock{}
	}
	if opts.OrganizationID == "" {
		opts.OrganizationID = DefaultOrganizationID
	}
	if opts.Polls <= 0 {
		opts.Polls = 2
	}
	if opts.DefaultSnapshot == "" {
		opts.DefaultSnapshot = DefaultSnapshotName
	}
	if opts.MaxAutoArchiveMinutes <= 0 {
		opts.MaxAutoArchiveMinutes = 43200
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
		router:    router,
		sandboxes: map[string]*sandbox{},
		snapshots: map[string]*snapshot{},
		volumes:   map[string]*volume{},
		storage:   newObjectStore(),
		faults:    map[string][]*pendingFault{},
		counts:    map[string]int{},
	}
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
func (s *Server) SpecViolations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.violations...)
}

// ValidatedResponses counts the responses that passed spec validation.
func (s *Server) ValidatedResponses() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.validated
}

func (s *Server) violation(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.mu.Lock()
	s.violations = append(s.violations, msg)
	s.mu.Unlock()
	s.t.Errorf("daytonafake: spec violation: %s", msg)
}

// call is one request as the handlers see it.
type call struct {
	r      *http.Request
	body   []byte
	params map[string]string
	query  url.Values
	now    time.Time
}

// reply is a handler's answer, captured so it can be validated before any
// byte reaches the client.
type reply struct {
	status int
	body   any
	header http.Header
	// text, when set, is sent as text/plain instead of body.
	text string
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
// send.
func errorReply(status int, format string, args ...any) reply {
	return reply{status: status, body: nestError{StatusCode: status, Error: http.StatusText(status), Message: fmt.Sprintf(format, args...)}}
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case strings.HasPrefix(r.URL.Path, s3Prefix):
		s.serveS3(w, r)
		return
	case strings.HasPrefix(r.URL.Path, buildLogsPrefix):
		s.serveBuildLogs(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	vreq := r.Clone(r.Context())
	if p := strings.TrimPrefix(vreq.URL.Path, "/api"); strings.HasPrefix(p, "/") {
		vreq.URL.Path, vreq.URL.RawPath = p, ""
	}
	vreq.Body = io.NopCloser(bytes.NewReader(body))
	route, rawParams, err := s.router.FindRoute(vreq)
	if err != nil {
		s.violation("%s %s: no such operation in the Daytona spec (%v)", r.Method, r.URL.Path, err)
		// NestJS's answer to an unknown route.
		writeRaw(w, r, errorReply(http.StatusNotFound, "Cannot %s %s", r.Method, r.URL.Path))
		return
	}
	key := r.Method + " " + route.Path
	s.mu.Lock()
	s.counts[key]++
	s.mu.Unlock()

	opts := validationOptions()
	opts.AuthenticationFunc = s.authenticate
	opts.SkipSettingDefaults = true // handlers see what the client really sent
	input := &openapi3filter.RequestValidationInput{Request: vreq, PathParams: rawParams, Route: route, Options: opts}
	authFailed, problems := splitRequestErrors(openapi3filter.ValidateRequest(r.Context(), input))
	// Guards run before pipes in NestJS: a bad key is a 401 whatever the body.
	if authFailed {
		s.send(w, r, input, errorReply(http.StatusUnauthorized, "Unauthorized"))
		return
	}
	if len(problems) > 0 {
		s.violation("%s %s: request does not match the spec: %s", r.Method, r.URL.RequestURI(), strings.Join(problems, "; "))
		s.send(w, r, input, errorReply(http.StatusBadRequest, "request does not match the API spec: %s", strings.Join(problems, "; ")))
		return
	}
	// Stricter than the server: only its JWT strategy reads this header
	// (auth/jwt.strategy.ts:56), an API key carries its own organization.
	// A client that sends a foreign organization has a bug worth a 403, with
	// the message OrganizationAuthContextGuard gives an organization it cannot
	// resolve (organization-auth-context.guard.ts:48-51).
	if org := r.Header.Get("X-Daytona-Organization-ID"); org != "" && org != s.opts.OrganizationID {
		s.send(w, r, input, errorReply(http.StatusForbidden, "Invalid authentication context"))
		return
	}

	fault, faulted := s.takeFault(key)
	if faulted && !s.applyFaultBefore(w, r, input, fault) {
		return
	}
	now := s.clock.Now()
	if key == "POST /sandbox" {
		if rep, limited := s.rateLimitCreate(now); limited {
			s.send(w, r, input, rep)
			return
		}
	}

	h, known := handlers[key]
	if !known {
		s.violation("%s %s: operation %q exists in the spec but the fake does not serve it", r.Method, r.URL.Path, key)
		s.send(w, r, input, errorReply(http.StatusNotImplemented, "the Daytona fake does not serve %s", key))
		return
	}
	params := make(map[string]string, len(rawParams))
	for k, v := range rawParams {
		if u, err := url.PathUnescape(v); err == nil {
			v = u
		}
		params[k] = v
	}
	c := &call{r: r, body: body, params: params, query: r.URL.Query(), now: now}
	s.mu.Lock()
	s.advanceClock(now)
	rep := h(s, c)
	s.mu.Unlock()

	if faulted && fault.DropAfterHandling {
		dropConnection(w)
		return
	}
	s.send(w, r, input, rep)
}

// validationOptions report every mismatch, each as "at <JSON pointer>:
// reason" rather than kin-openapi's default dump of the whole schema.
func validationOptions() *openapi3filter.Options {
	opts := &openapi3filter.Options{MultiError: true}
	opts.WithCustomSchemaErrorFunc(func(err *openapi3.SchemaError) string {
		return fmt.Sprintf("at /%s: %s", strings.Join(err.JSONPointer(), "/"), err.Reason)
	})
	return opts
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

// splitRequestErrors separates a failed key check (a 401, not a client bug
// against the spec) from real mismatches.
func splitRequestErrors(err error) (authFailed bool, problems []string) {
	if err == nil {
		return false, nil
	}
	var errs []error
	var me openapi3.MultiError
	if errors.As(err, &me) {
		errs = me
	} else {
		errs = []error{err}
	}
	for _, e := range errs {
		var sec *openapi3filter.SecurityRequirementsError
		if errors.As(e, &sec) {
			authFailed = true
			continue
		}
		problems = append(problems, strings.ReplaceAll(e.Error(), "\n", " "))
	}
	return authFailed, problems
}

// send validates a reply against the operation's responses and writes it.
func (s *Server) send(w http.ResponseWriter, r *http.Request, input *openapi3filter.RequestValidationInput, rep reply) {
	header, data := encode(r, rep)
	err := openapi3filter.ValidateResponse(r.Context(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: input,
		Status:                 rep.status,
		Header:                 header,
		Body:                   io.NopCloser(bytes.NewReader(data)),
		Options:                validationOptions(),
	})
	if err != nil {
		s.violation("%s %s: the fake's %d response does not match the spec: %s", r.Method, r.URL.RequestURI(), rep.status, strings.ReplaceAll(err.Error(), "\n", " "))
	} else {
		s.mu.Lock()
		s.validated++
		s.mu.Unlock()
	}
	write(w, rep.status, header, data)
}

func encode(r *http.Request, rep reply) (http.Header, []byte) {
	header := http.Header{}
	for k, v := range rep.header {
		header[k] = v
	}
	if rep.text != "" {
		header.Set("Content-Type", "text/plain; charset=utf-8")
		return header, []byte(rep.text)
	}
	if rep.body == nil {
		return header, nil
	}
	body := rep.body
	if e, ok := body.(nestError); ok {
		e.Path, e.Timestamp = r.URL.RequestURI(), time.Now().UTC().Format(time.RFC3339Nano)
		body = e
	}
	data, err := json.Marshal(body)
	if err != nil {
		// Only the fake's own types are marshalled; a failure is a fake bug.
		panic(fmt.Sprintf("daytonafake: marshal %T: %v", body, err))
	}
	header.Set("Content-Type", "application/json; charset=utf-8")
	return header, data
}

func writeRaw(w http.ResponseWriter, r *http.Request, rep reply) {
	header, data := encode(r, rep)
	write(w, rep.status, header, data)
}

func write(w http.ResponseWriter, status int, header http.Header, data []byte) {
	for k, v := range header {
		w.Header()[k] = v
	}
	w.WriteHeader(status)
	if len(data) > 0 {
		_, _ = w.Write(data) // the client may have gone; nothing to do about it
	}
}
