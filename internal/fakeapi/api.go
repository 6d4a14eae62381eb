package fakeapi

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
)

// Config is what a fake tells API about its platform. Name, Spec, Clock,
// Authenticate, Error and Handle are required.
type Config struct {
	// Name prefixes every report ("e2bfake").
	Name string
	Spec *Spec
	// Clock gives each handled request its time.
	Clock interface{ Now() time.Time }
	// Authenticate is kin-openapi's hook for the spec's security schemes:
	// it accepts the one scheme and key a provider uses.
	Authenticate openapi3filter.AuthenticationFunc
	// AuthFirst answers a bad key with a 401 before looking at the rest of
	// the request (NestJS runs guards before pipes); otherwise a request
	// that breaks the spec is a 400 and a violation whatever its key.
	AuthFirst bool
	// Error is the platform's error reply.
	Error func(status int, format string, args ...any) Reply
	// NoRoute is the format of the 404 message for a path the spec lacks,
	// given the method and the path.
	NoRoute string
	// Unauthorized is the message of a 401.
	Unauthorized string
	// JSONContentType is the Content-Type of a JSON body.
	JSONContentType string
	// StripPrefix, when set, is a base path the platform also serves the
	// spec's paths under ("/api").
	StripPrefix string
	// Complete, when set, fills in a body what only the request knows (its
	// path, the time of the answer) just before it is marshalled.
	Complete func(r *http.Request, body any) any
	// Admit, when set, refuses a valid request before any fault or handler
	// sees it (false with the reply to send).
	Admit func(r *http.Request) (Reply, bool)
	// Throttle, when set, may answer a request that passed its faults
	// instead of the handler (true with the reply to send).
	Throttle func(route string, now time.Time) (Reply, bool)
	// Handle serves one request of route, the operation as the spec writes
	// it; false says the fake does not serve that operation.
	Handle func(route string, req *Request) (Reply, bool)
	// Wait, when set, is how a fault's Latency and AnswerLatency are
	// waited: it returns nil once d has passed, or ctx's error once ctx
	// (the request's: the client gave up) ends first. Default: a real
	// timer. A test of the faults records the waits through it instead of
	// timing them.
	Wait func(ctx context.Context, d time.Duration) error
}

// Request is one valid request as a handler sees it.
type Request struct {
	HTTP *http.Request
	// Body is the request body, read once.
	Body []byte
	// Params are the path parameters, unescaped.
	Params map[string]string
	Now    time.Time
}

// API is the spec-checking front of a fake. All methods are safe for
// concurrent use; its lock is its own, apart from the fake's state.
type API struct {
	t      testing.TB
	cfg    Config
	router routers.Router

	mu         sync.Mutex
	faults     map[string][]*pendingFault
	faulted    RetryMemo // requests (RequestKey) whose last try drew a fault
	counts     map[string]int
	violations []string
	validated  int
}

// New builds the front of a fake, failing t at once when the spec cannot
// be loaded.
func New(t testing.TB, cfg Config) *API {
	t.Helper()
	router, err := cfg.Spec.Router()
	if err != nil {
		t.Fatalf("%s: %v", cfg.Name, err)
	}
	if cfg.JSONContentType == "" {
		cfg.JSONContentType = "application/json"
	}
	return &API{t: t, cfg: cfg, router: router, faults: map[string][]*pendingFault{}, faulted: RetryMemo{}, counts: map[string]int{}}
}

// Router is the spec's router.
func (a *API) Router() routers.Router { return a.router }
