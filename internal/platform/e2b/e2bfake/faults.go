package e2bfake

import (
	"net/http"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

// Fault is a misbehaviour injected into the next requests of one route.
type Fault struct {
	// Status, when set, answers with this status and an E2B Error body
	// instead of handling the request.
	Status int
	// RetryAfter is sent as the Retry-After header with Status.
	RetryAfter string
	// Times is how many requests the fault hits; 0 means once.
	Times int
	// DropBeforeHandling closes the connection without an answer and without
	// touching state: the client cannot tell whether anything happened.
	DropBeforeHandling bool
	// DropAfterHandling changes state as the request asks, then closes the
	// connection without an answer: the case that makes clients find a create
	// again instead of repeating it.
	DropAfterHandling bool
	// AnswerLatency handles the request at once and holds the answer this
	// long (really, inside the fake): a client that gives up meanwhile
	// loses the answer, the change made.
	AnswerLatency time.Duration
	// Latency is waited (really, inside the fake) before anything else; a
	// client that gives up meanwhile finds its request unhandled.
	Latency time.Duration
	// Before runs once, just before the next request of the route is
	// handled: what another client, a dashboard user or E2B itself does
	// at that moment (PauseOutOfBand, KillOutOfBand). It runs without the
	// fake's lock, so it may call the fake's methods.
	Before func()
	// SparesRetry lets the same request (method, URI, body) through when
	// it drew a fault last time; the fault waits for the next request
	// (fakeapi.Fault.SparesRetry).
	SparesRetry bool
}

// Inject queues a fault for a route written as the spec writes it, e.g.
// "POST /sandboxes" or "GET /sandboxes/{sandboxID}". Faults on one route are
// used in the order they were injected. The fake's upload URL is the route
// "PUT " + UploadRoute (or POST).
func (s *Server) Inject(route string, f Fault) {
	if f.Before != nil {
		s.mu.Lock()
		key := fakeapi.NormalizeRoute(route)
		s.before[key] = append(s.before[key], f.Before)
		s.mu.Unlock()
		if f.Status == 0 && f.RetryAfter == "" && f.Times == 0 && !f.DropBeforeHandling && !f.DropAfterHandling && f.Latency == 0 {
			return // nothing else to inject
		}
	}
	s.api.Inject(route, fakeapi.Fault{Times: f.Times, Latency: f.Latency,
		DropBeforeHandling: f.DropBeforeHandling, DropAfterHandling: f.DropAfterHandling, AnswerLatency: f.AnswerLatency, Answer: f.answer(), SparesRetry: f.SparesRetry})
}

// Requests counts the requests that reached a route (faulted ones included).
func (s *Server) Requests(route string) int { return s.api.Requests(route) }

// answer is the reply of a Status fault (nil without one): E2B's Error body
// with the plain Retry-After header E2B sends.
func (f Fault) answer() func(route string) fakeapi.Reply {
	if f.Status == 0 {
		return nil
	}
	return func(string) fakeapi.Reply {
		rep := errorReply(f.Status, "injected fault: %s", http.StatusText(f.Status))
		if f.RetryAfter != "" {
			rep.header = http.Header{"Retry-After": []string{f.RetryAfter}}
		}
		return rep.wire()
	}
}

// runBefore runs the first Before hook queued for route, if any.
func (s *Server) runBefore(route string) {
	s.mu.Lock()
	key := fakeapi.NormalizeRoute(route)
	hooks := s.before[key]
	var hook func()
	if len(hooks) > 0 {
		hook, s.before[key] = hooks[0], hooks[1:]
	}
	s.mu.Unlock()
	if hook != nil {
		hook()
	}
}
