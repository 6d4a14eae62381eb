package e2bfake

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
	// Clock decides when sandboxes time out; retention.FakeClock fits.
	// Default: the wall clock.
	Clock interface{ Now() time.Time }
	// APIKey is the only X-API-Key the fake accepts.
	APIKey string
	// BuildPolls is how many status polls a started build answers before it is
	// ready (or failed): polls 1..BuildPolls-1 say "building". Default 2.
	BuildPolls int
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
	// until ListLag has passed on Clock since its create, as E2B's eventually
	// consistent listings do. Reads by id see it at once. Default 0: listed
	// at once.
	ListLag time.Duration
}

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
	templates  map[string]*template
	volumes    map[string]*volume
	failNext   map[string]string
	faults     map[string][]*pendingFault
	counts     map[string]int
	violations []string
	validated  int
	noVolumes  bool
}

// New starts a fake and closes it when the test ends. It fails t at once when
// the spec cannot be loaded.
func New(t testing.TB, opts Options) *Server {
	t.Helper()
	router, err := specRoutes()
	if err != nil {
		t.Fatalf("e2bfake: %v", err)
	}
	if opts.Clock == nil {
		opts.Clock = wallClock{}
	}
	if opts.BuildPolls <= 0 {
		opts.BuildPolls = 2
	}
	if opts.MaxTimeoutSeconds <= 0 {
		opts.MaxTimeoutSeconds = 86400
	}
	s := &Server{
		t:         t,
		opts:      opts,
		clock:     opts.Clock,
		router:    router,
		sandboxes: map[string]*sandbox{},
		templates: map[string]*template{},
		volumes:   map[string]*volume{},
		failNext:  map[string]string{},
		faults:    map[string][]*pendingFault{},
		counts:    map[string]int{},
		noVolumes: opts.VolumesDisabled,
	}
	s.http = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	t.Cleanup(s.http.Close)
	return s
}

// URL is the fake's base URL, to use as the E2B API URL.
func (s *Server) URL() string { return s.http.URL }

// SpecViolations lists every request or response that did not match the spec,
// in order. Each was also reported through t.Errorf when it happened.
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

// SetVolumesEnabled switches the team's volume beta: when off, POST /volumes
// answers 403.
func (s *Server) SetVolumesEnabled(enabled bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noVolumes = !enabled
}

func (s *Server) violation(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.mu.Lock()
	s.violations = append(s.violations, msg)
	s.mu.Unlock()
	s.t.Errorf("e2bfake: spec violation: %s", msg)
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
}

type apiError struct {
	Code    int32  `json:"code"`
	Message string `json:"message"`
}

func errorReply(status int, format string, args ...any) reply {
	return reply{status: status, body: apiError{Code: int32(status), Message: fmt.Sprintf(format, args...)}}
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, uploadPrefix) {
		s.serveUpload(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	vreq := r.Clone(r.Context())
	vreq.Body = io.NopCloser(bytes.NewReader(body))
	route, rawParams, err := s.router.FindRoute(vreq)
	if err != nil {
		s.violation("%s %s: no such operation in the E2B spec (%v)", r.Method, r.URL.Path, err)
		writeRaw(w, errorReply(http.StatusNotFound, "no such operation: %s %s", r.Method, r.URL.Path))
		return
	}
	key := r.Method + " " + route.Path
	s.mu.Lock()
	s.counts[key]++
	s.mu.Unlock()

	opts := validationOptions()
	opts.AuthenticationFunc = s.authenticate
	// Defaults stay out so handlers see what the client really sent (the fake
	// records an omitted sandbox timeout).
	opts.SkipSettingDefaults = true
	input := &openapi3filter.RequestValidationInput{Request: vreq, PathParams: rawParams, Route: route, Options: opts}
	authFailed, problems := splitRequestErrors(openapi3filter.ValidateRequest(r.Context(), input))
	if len(problems) > 0 {
		s.violation("%s %s: request does not match the spec: %s", r.Method, r.URL.RequestURI(), strings.Join(problems, "; "))
		s.send(w, r, input, errorReply(http.StatusBadRequest, "request does not match the API spec: %s", strings.Join(problems, "; ")))
		return
	}
	if authFailed {
		s.send(w, r, input, errorReply(http.StatusUnauthorized, "Invalid API key"))
		return
	}

	fault, ok := s.takeFault(key)
	if ok && !s.applyFaultBefore(w, r, input, fault) {
		return
	}

	h, known := handlers[key]
	if !known {
		s.violation("%s %s: operation %q exists in the spec but the fake does not serve it", r.Method, r.URL.Path, key)
		s.send(w, r, input, errorReply(http.StatusNotImplemented, "the E2B fake does not serve %s", key))
		return
	}
	params := make(map[string]string, len(rawParams))
	for k, v := range rawParams {
		if u, err := url.PathUnescape(v); err == nil {
			v = u
		}
		params[k] = v
	}
	c := &call{r: r, body: body, params: params, query: r.URL.Query(), now: s.clock.Now()}
	s.mu.Lock()
	s.expire(c.now)
	rep := h(s, c)
	s.mu.Unlock()

	if ok && fault.DropAfterHandling {
		dropConnection(w)
		return
	}
	s.send(w, r, input, rep)
}

// validationOptions report every mismatch, each as "at <JSON pointer>: reason"
// rather than kin-openapi's default dump of the whole schema.
func validationOptions() *openapi3filter.Options {
	opts := &openapi3filter.Options{MultiError: true}
	opts.WithCustomSchemaErrorFunc(func(err *openapi3.SchemaError) string {
		return fmt.Sprintf("at /%s: %s", strings.Join(err.JSONPointer(), "/"), err.Reason)
	})
	return opts
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
	header, data := encode(rep)
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

func encode(rep reply) (http.Header, []byte) {
	header := http.Header{}
	for k, v := range rep.header {
		header[k] = v
	}
	if rep.body == nil {
		return header, nil
	}
	data, err := json.Marshal(rep.body)
	if err != nil {
		// Only the fake's own types are marshalled; a failure is a fake bug.
		panic(fmt.Sprintf("e2bfake: marshal %T: %v", rep.body, err))
	}
	header.Set("Content-Type", "application/json")
	return header, data
}

func writeRaw(w http.ResponseWriter, rep reply) {
	header, data := encode(rep)
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
