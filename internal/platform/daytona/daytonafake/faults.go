package daytonafake

import (
	"net/http"
	"strconv"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
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
	// AnswerLatency handles the request at once and holds the answer this
	// long (really, inside the fake): a client that gives up meanwhile
	// loses the answer, the change made.
	AnswerLatency time.Duration
	// Latency is waited (really, inside the fake) before anything else; a
	// client that gives up meanwhile finds its request unhandled.
	Latency time.Duration
	// SparesRetry lets the same request (method, URI, body) through when
	// it drew a fault last time; the fault waits for the next request
	// (fakeapi.Fault.SparesRetry).
	SparesRetry bool
}

// Inject queues a fault for a route written as the spec writes it, e.g.
// "POST /sandbox" or "GET /sandbox/{sandboxIdOrName}". Faults on one route
// are used in the order they were injected.
func (s *Server) Inject(route string, f Fault) {
	s.api.Inject(route, fakeapi.Fault{Times: f.Times, Latency: f.Latency,
		DropBeforeHandling: f.DropBeforeHandling, DropAfterHandling: f.DropAfterHandling, AnswerLatency: f.AnswerLatency, Answer: f.answer(), SparesRetry: f.SparesRetry})
}

// Requests counts the requests that reached a route (faulted ones included).
func (s *Server) Requests(route string) int { return s.api.Requests(route) }

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

// answer is the reply of a Status fault (nil without one): a 429 as the
// route's throttler (or Throttler) writes it, any other status as a NestJS
// error with a plain Retry-After.
func (f Fault) answer() func(route string) fakeapi.Reply {
	if f.Status == 0 {
		return nil
	}
	return func(route string) fakeapi.Reply {
		if f.Status == http.StatusTooManyRequests {
			throttler := f.Throttler
			if throttler == "" {
				throttler = routeThrottler(route)
			}
			retry := f.RetryAfter
			if retry <= 0 {
				retry = 60
			}
			return throttled(throttler, 10000, retry).wire()
		}
		rep := errorReply(f.Status, "injected fault: %s", http.StatusText(f.Status))
		if f.RetryAfter > 0 {
			rep.header = http.Header{"Retry-After": {strconv.Itoa(f.RetryAfter)}}
		}
		return rep.wire()
	}
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
