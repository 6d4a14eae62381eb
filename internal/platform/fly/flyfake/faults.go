package flyfake

import (
	"fmt"
	"net/http"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

// Fault is a misbehaviour injected into the next requests of one route.
type Fault struct {
	// Status, when set, answers with this status and Fly's error body
	// instead of handling the request; with AfterHandling, after it.
	Status int
	// AfterHandling lets the request change state as it asks, then answers
	// Status instead of the handler's answer: Fly's 408 on a create whose
	// machine was made anyway. Such faults are kept in their own queue per
	// route, apart from the others.
	AfterHandling bool
	// RetryAfter is sent as the Retry-After header with Status.
	RetryAfter string
	// Times is how many requests the fault hits; 0 means once.
	Times int
	// DropBeforeHandling closes the connection without an answer and
	// without touching state.
	DropBeforeHandling bool
	// DropAfterHandling changes state as the request asks, then closes the
	// connection without an answer.
	DropAfterHandling bool
	// AnswerLatency handles the request at once and holds the answer this
	// long (really, inside the fake): a client that gives up meanwhile
	// loses the answer, the change made.
	AnswerLatency time.Duration
	// Latency is waited (really, inside the fake) before anything else.
	Latency time.Duration
	// SparesRetry lets the same request (method, URI, body) through when
	// it drew a fault last time; the fault waits for the next request
	// (fakeapi.Fault.SparesRetry).
	SparesRetry bool
}

type afterFault struct {
	status  int
	message string
	left    int
}

// Inject queues a fault for a route written as the spec writes it, without
// /v1, e.g. "POST /apps/{app_name}/machines"; the routes the spec lacks are
// RouteSuspend, RouteUpdateVolume and RouteWaitSuspended. Faults on one route
// are used in the order they were injected.
func (s *Server) Inject(route string, f Fault) {
	route = fakeapi.NormalizeRoute(route)
	if f.AfterHandling {
		if f.Status == 0 {
			s.t.Errorf("flyfake: Inject %s: AfterHandling needs a Status", route)
			return
		}
		n := max(f.Times, 1)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.after[route] = append(s.after[route], &afterFault{status: f.Status, message: fmt.Sprintf("injected fault: %s", http.StatusText(f.Status)), left: n})
		return
	}
	s.api.Inject(route, fakeapi.Fault{Times: f.Times, Latency: f.Latency,
		DropBeforeHandling: f.DropBeforeHandling, DropAfterHandling: f.DropAfterHandling, AnswerLatency: f.AnswerLatency, Answer: f.answer(), SparesRetry: f.SparesRetry})
}

// Requests counts the requests that reached a route (faulted ones included).
func (s *Server) Requests(route string) int { return s.api.Requests(route) }

// takeAfter uses up one hit of the first after-handling fault of route.
func (s *Server) takeAfter(route string) (afterFault, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.after[route]
	if len(q) == 0 {
		return afterFault{}, false
	}
	f := q[0]
	f.left--
	if f.left == 0 {
		s.after[route] = q[1:]
	}
	return *f, true
}

// answer is the reply of a Status fault (nil without one).
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
