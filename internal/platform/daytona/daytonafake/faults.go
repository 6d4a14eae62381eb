package daytonafake

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
)

// Throttler names as Daytona's NestJS throttlers call them; each 429 names
// its throttler in the header suffixes (limits.mdx:53-76).
const (
	ThrottlerAuthenticated    = "authenticated"
	ThrottlerSandboxCreate    = "sandbox-create"
	ThrottlerSandboxLifecycle = "sandbox-lifecycle"
)

// Fault is a misbehaviour injected into the next requests of one route.
type Fault struct {
	// Status, when set, answers with this status and a NestJS error body
	// instead of handling the request. A 429 is written as Daytona's
	// throttlers write it (see Throttler).
	Status int
	// RetryAfter is the seconds sent in Retry-After-{Throttler} (429) or
	// Retry-After (other statuses). Default for a 429: 60.
	RetryAfter int
	// Throttler names the throttler of a 429 (ThrottlerSandboxCreate, ...).
	// Default: the one guarding the route.
	Throttler string
	// Times is how many requests the fault hits; 0 means once.
	Times int
	// DropBeforeHandling closes the connection without an answer and
	// without touching state: the client cannot tell whether anything
	// happened.
	DropBeforeHandling bool
	// DropAfterHandling changes state as the request asks, then closes the
	// connection without an answer: the case that makes clients find a
	// create again instead of repeating it.
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
// "POST /sandbox" or "GET /sandbox/{sandboxIdOrName}". Faults on one route
// are used in the order they were injected.
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

// routeThrottler is the throttler guarding a route: sandbox create and the
// lifecycle operations have their own scopes and skip the authenticated
// one (sandbox.controller.ts:232-233, 399-400, 433-434, 485-486, 527-528,
// 573-574, 607-608); everything else counts against "authenticated".
func routeThrottler(route string) string {
	switch route {
	case "POST /sandbox":
		return ThrottlerSandboxCreate
	case "POST /sandbox/{sandboxIdOrName}/start", "POST /sandbox/{sandboxIdOrName}/stop",
		"POST /sandbox/{sandboxIdOrName}/pause", "POST /sandbox/{sandboxIdOrName}/archive",
		"POST /sandbox/{sandboxIdOrName}/resize", "POST /sandbox/{sandboxIdOrName}/recover",
		"DELETE /sandbox/{sandboxIdOrName}":
		return ThrottlerSandboxLifecycle
	}
	return ThrottlerAuthenticated
}

// throttled is a 429 as @nestjs/throttler answers it behind Daytona's
// guards: per-throttler X-RateLimit-* headers and Retry-After-{throttler}
// in seconds (limits.mdx:53-76; note there is no plain Retry-After).
func throttled(throttler string, limit, retryAfter int) reply {
	rep := errorReply(http.StatusTooManyRequests, "Rate limit exceeded")
	secs := strconv.Itoa(retryAfter)
	rep.header = http.Header{
		"X-RateLimit-Limit-" + throttler:     {strconv.Itoa(limit)},
		"X-RateLimit-Remaining-" + throttler: {"0"},
		"X-RateLimit-Reset-" + throttler:     {secs},
		"Retry-After-" + throttler:           {secs},
	}
	return rep
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
	if f.Status == 0 {
		return true
	}
	var rep reply
	if f.Status == http.StatusTooManyRequests {
		throttler := f.Throttler
		if throttler == "" {
			throttler = routeThrottler(input.Route.Method + " " + input.Route.Path)
		}
		retry := f.RetryAfter
		if retry <= 0 {
			retry = 60
		}
		rep = throttled(throttler, 10000, retry)
	} else {
		rep = errorReply(f.Status, "injected fault: %s", http.StatusText(f.Status))
		if f.RetryAfter > 0 {
			rep.header = http.Header{"Retry-After": {strconv.Itoa(f.RetryAfter)}}
		}
	}
	s.send(w, r, input, rep)
	return false
}

// rateLimitCreate applies Options.CreateRateLimit: a sliding minute on the
// fake's clock, as the sandbox-create throttler counts per minute.
func (s *Server) rateLimitCreate(now time.Time) (reply, bool) {
	if s.opts.CreateRateLimit <= 0 {
		return reply{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := s.creates[:0]
	for _, at := range s.creates {
		if now.Sub(at) < time.Minute {
			kept = append(kept, at)
		}
	}
	s.creates = kept
	if len(kept) >= s.opts.CreateRateLimit {
		retry := int((time.Minute - now.Sub(kept[0]) + time.Second - 1) / time.Second)
		if retry < 1 {
			retry = 1
		}
		return throttled(ThrottlerSandboxCreate, s.opts.CreateRateLimit, retry), true
	}
	s.creates = append(s.creates, now)
	return reply{}, false
}

// dropConnection closes the TCP connection under a request without writing
// a response, so the client sees a transport error.
func dropConnection(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic("daytonafake: the response writer cannot be hijacked to drop the connection")
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic("daytonafake: hijack: " + err.Error())
	}
	_ = conn.Close() // the point is the close; its error changes nothing
}
