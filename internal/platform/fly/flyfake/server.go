package flyfake

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
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
	// Clock drives automatic daily volume snapshots, their expiry and the
	// timestamps the fake writes; clock.Fake fits. Default: the wall
	// clock. Rate limits are measured on RateClock whatever Clock is.
	Clock interface{ Now() time.Time }
	// APIToken is the only token the fake accepts, sent as
	// "Authorization: Bearer <token>" or "Authorization: FlyV1 <token>".
	// Empty: any non-empty token.
	APIToken string
	// Org is the only organization slug POST /v1/apps accepts. Default
	// "personal".
	Org string
	// Apps are created before the first request (in Org).
	Apps []string
	// DefaultRegion is the region of a machine or volume created without
	// one. Default "iad".
	DefaultRegion string
	// Regions are the regions the fake knows; any other is refused. Default
	// DefaultRegions.
	Regions []string
	// Polls paces the transitions, which advance by reads, never by wall
	// time: each transitional state of a machine (created while it
	// launches, starting, stopping, suspending, updating, destroying) shows
	// for Polls-1 GETs of it (Polls 1: none), and the next GET finds it
	// settled; an on-demand volume snapshot lists waiting once, running
	// Polls-1 times, then created. GET .../wait for a transition's target
	// settles it at once. Default 2.
	Polls int
	// Instant makes the fake answer as no real Fly does: every transition
	// settles before its request is answered (a create answers started),
	// on-demand snapshots are created at once and a new machine is listed
	// at once. For tests about something else that need one request to
	// leave a settled object; each such test says why it uses it.
	Instant bool
	// LoseSuspendSnapshots makes every suspend lose its memory snapshot, so
	// the next start is a cold boot (see also LoseSuspendSnapshot).
	LoseSuspendSnapshots bool
	// RateLimits enables Fly's documented limits, per action (route) and
	// per machine or app, on the wall clock: 1 request/s with bursts of 3,
	// Get Machine 5/s with bursts of 10. Over them: 429.
	RateLimits bool
	// RateClock is the clock RateLimits are measured on (nil: the wall
	// clock, which the provider's real-time pacing needs). A test of the
	// limits themselves passes a clock of its own (clock.Fake) and moves
	// it, so that its requests count as sent within one second however
	// slowly the machine sends them.
	RateClock interface{ Now() time.Time }
	// WaitBlock is how long (real time) GET .../wait blocks for a state no
	// pending transition leads to, before answering 408; the wait also ends
	// with 408 when Clock passes its timeout. Default 200ms.
	WaitBlock time.Duration
}

// DefaultRegions are regions Fly serves (a subset).
var DefaultRegions = []string{"ams", "arn", "cdg", "dfw", "ewr", "fra", "iad", "lax", "lhr", "nrt", "ord", "sin", "sjc", "syd", "yyz"}

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

// Server is a running fake. All methods are safe for concurrent use.
type Server struct {
	t     testing.TB
	opts  Options
	clock interface{ Now() time.Time }
	api   *fakeapi.API
	http  *httptest.Server
	rl    *rateLimiter

	mu       sync.Mutex
	seq      int64
	apps     map[string]*app
	machines map[string]*machine
	volumes  map[string]*volume
	snaps    map[string]*snapshot
	after    map[string][]*afterFault // faults answered after handling
	creates  int                      // machines created by POST .../machines
	execRuns []ExecRun                // commands run by POST .../exec
	sleeping int                      // exec requests held in a sleep now
}

// New starts a fake and closes it when the test ends. It fails t at once when
// the spec cannot be loaded.
func New(t testing.TB, opts Options) *Server {
	t.Helper()
	if opts.Clock == nil {
		opts.Clock = wallClock{}
	}
	if opts.Org == "" {
		opts.Org = "personal"
	}
	if opts.DefaultRegion == "" {
		opts.DefaultRegion = "iad"
	}
	if len(opts.Regions) == 0 {
		opts.Regions = DefaultRegions
	}
	if opts.Polls <= 0 {
		opts.Polls = 2
	}
	if opts.RateClock == nil {
		opts.RateClock = wallClock{}
	}
	if opts.WaitBlock <= 0 {
		opts.WaitBlock = 200 * time.Millisecond
	}
	s := &Server{
		t:        t,
		opts:     opts,
		clock:    opts.Clock,
		rl:       newRateLimiter(),
		apps:     map[string]*app{},
		machines: map[string]*machine{},
		volumes:  map[string]*volume{},
		snaps:    map[string]*snapshot{},
		after:    map[string][]*afterFault{},
	}
	now := s.clock.Now()
	for _, name := range opts.Apps {
		s.addApp(name, now)
	}
	s.api = fakeapi.New(t, fakeapi.Config{
		Name:  "flyfake",
		Spec:  spec,
		Clock: opts.Clock,
		// The spec declares no security scheme: the key is checked in
		// serveHTTP, before anything else, as Fly's proxy does.
		Authenticate: func(context.Context, *openapi3filter.AuthenticationInput) error { return nil },
		Error: func(status int, format string, args ...any) fakeapi.Reply {
			return errorReply(status, format, args...).wire()
		},
		NoRoute:      "not found: %s %s",
		Unauthorized: unauthorizedMessage,
		// https://api.machines.dev serves the spec's paths under /v1 (the
		// spec's server is https://api.machines.dev/v1).
		StripPrefix: "/v1",
		Handle:      s.handle,
	})
	s.http = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	t.Cleanup(s.http.Close)
	return s
}

// URL is the fake's base URL, to use as the Machines API URL (the fake serves
// the API under /v1, as https://api.machines.dev does).
func (s *Server) URL() string { return s.http.URL }

// SpecViolations lists every request or response that did not match the
// spec (or, for routes the spec lacks, the hand-written shapes), in order.
// Each was also reported through t.Errorf when it happened.
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

// reply is a handler's answer.
type reply struct {
	status int
	body   any
	header http.Header
}

func (rep reply) wire() fakeapi.Reply {
	return fakeapi.Reply{Status: rep.status, Body: rep.body, Header: rep.header}
}

// apiError is Fly's error body: the spec's ErrorResponse, which fly-go's
// handleAPIError (flaps/flaps.go) reads as {"error": "..."}.
type apiError struct {
	Error string `json:"error"`
}

func errorReply(status int, format string, args ...any) reply {
	return reply{status: status, body: apiError{Error: fmt.Sprintf(format, args...)}}
}

// ok is the {"ok": true} body Fly answers stop, suspend, wait and delete
// with; the spec declares those 200s without content.
var ok = map[string]bool{"ok": true}

const unauthorizedMessage = "You must be authenticated to view this."

// authorized checks the Authorization header: "Bearer <token>", or
// "FlyV1 <token>", which fly-go sends for macaroon tokens (fm1r_/fm2_).
func (s *Server) authorized(r *http.Request) bool {
	scheme, token, found := strings.Cut(r.Header.Get("Authorization"), " ")
	if !found || (scheme != "Bearer" && scheme != "FlyV1") {
		return false
	}
	token = strings.TrimSpace(token)
	if s.opts.APIToken == "" {
		return token != ""
	}
	return token == s.opts.APIToken
}

// serveHTTP checks the key first, drops null members of JSON bodies, sends
// the routes the 2023 spec lacks to their hand-written handling and
// everything else through the spec-checking front.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(r) {
		s.api.WriteRaw(w, r, errorReply(http.StatusUnauthorized, unauthorizedMessage).wire())
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	body = dropNulls(body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	if route, params, found := offSpecRoute(r); found {
		s.serveOffSpec(w, r, route, params, body)
		return
	}
	s.api.ServeHTTP(w, r)
}

// dropNulls removes null members from a JSON object body, recursively. Go
// clients (fly-go's CreateVolumeRequest, UpdateVolumeRequest) send null for
// every unset pointer; Fly's server reads null as absent, while the 2023
// spec marks nothing nullable. A body that is not a JSON object is kept.
func dropNulls(body []byte) []byte {
	if len(bytes.TrimSpace(body)) == 0 {
		return body
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return body
	}
	obj, isObj := v.(map[string]any)
	if !isObj {
		return body
	}
	out, err := json.Marshal(stripNulls(obj))
	if err != nil {
		return body
	}
	return out
}

func stripNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
				continue
			}
			x[k] = stripNulls(e)
		}
	case []any:
		for i, e := range x {
			x[i] = stripNulls(e)
		}
	}
	return v
}

// handle runs the handler of a valid request: the clock's automatic
// snapshots and expiries first, then the rate limits, the handler, and any
// fault that answers after handling.
func (s *Server) handle(route string, in *fakeapi.Request) (fakeapi.Reply, bool) {
	h, known := handlers[route]
	if !known {
		return fakeapi.Reply{}, false
	}
	c := &call{r: in.HTTP, body: in.Body, params: in.Params, query: in.HTTP.URL.Query(), now: in.Now}
	return s.run(route, h, c).wire(), true
}

func (s *Server) run(route string, h func(*Server, *call) reply, c *call) reply {
	if rep, limited := s.throttle(route, c.params); limited {
		return rep
	}
	if route == routeWait || route == RouteWaitSuspended {
		// wait blocks; it takes the lock itself.
		return s.waitMachine(c)
	}
	if route == RouteExec {
		// exec may sleep; it takes the lock itself.
		return s.execMachine(c)
	}
	s.mu.Lock()
	s.advanceClock(c.now)
	rep := h(s, c)
	s.mu.Unlock()
	if f, faulted := s.takeAfter(route); faulted {
		return errorReply(f.status, "%s", f.message)
	}
	return rep
}
