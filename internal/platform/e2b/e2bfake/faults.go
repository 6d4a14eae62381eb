package e2bfake

import (
	"net/http"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
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
	// Latency is waited (really, inside the fake) before anything else; a
	// client that gives up meanwhile finds its request unhandled.
	Latency time.Duration
}

type pendingFault struct {
	Fault
	left int
}

// Inject queues a fault for a route written as the spec writes it, e.g.
// "POST /sandboxes" or "GET /sandboxes/{sandboxID}". Faults on one route are
// used in the order they were injected. The fake's upload URL is the route
// "PUT " + UploadRoute (or POST).
func (s *Server) Inject(route string, f Fault) {
	route = normalizeRoute(route)
	n := f.Times
	if n <= 0 {
		n = 1
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[route] = append(s.faults[route], &pendingFault{Fault: f, left: n})
}

// Requests counts the requests that reached a route (faulted ones included).
func (s *Server) Requests(route string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[normalizeRoute(route)]
}

func normalizeRoute(route string) string {
	method, path, ok := strings.Cut(strings.TrimSpace(route), " ")
	if !ok {
		return route
	}
	return strings.ToUpper(method) + " " + strings.TrimSpace(path)
}

func (s *Server) takeFault(route string) (Fault, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	queue := s.faults[route]
	if len(queue) == 0 {
		return Fault{}, false
	}
	f := queue[0]
	f.left--
	if f.left == 0 {
		s.faults[route] = queue[1:]
	}
	return f.Fault, true
}

// applyFaultBefore plays the part of a fault that comes before handling and
// says whether the request should still be handled.
func (s *Server) applyFaultBefore(w http.ResponseWriter, r *http.Request, input *openapi3filter.RequestValidationInput, f Fault) bool {
	if f.Latency > 0 {
		timer := time.NewTimer(f.Latency)
		select {
		case <-timer.C:
		case <-r.Context().Done():
			timer.Stop()
			return false
		}
	}
	if f.DropBeforeHandling {
		dropConnection(w)
		return false
	}
	if f.Status != 0 {
		rep := errorReply(f.Status, "injected fault: %s", http.StatusText(f.Status))
		if f.RetryAfter != "" {
			rep.header = http.Header{"Retry-After": []string{f.RetryAfter}}
		}
		if input == nil {
			writeRaw(w, rep)
		} else {
			s.send(w, r, input, rep)
		}
		return false
	}
	return true
}

// dropConnection closes the TCP connection under a request without writing a
// response, so the client sees a transport error.
func dropConnection(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic("e2bfake: the response writer cannot be hijacked to drop the connection")
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic("e2bfake: hijack: " + err.Error())
	}
	_ = conn.Close() // the point is the close; its error changes nothing
}
