package fakeapi

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
)

// Fault is a misbehaviour injected into the next requests of one route. A
// fake's own Fault type (with its platform's status headers) turns into one.
type Fault struct {
	// Times is how many requests the fault hits; 0 means once.
	Times int
	// Latency is waited (really, inside the fake; see Config.Wait) before
	// anything else; a client that gives up meanwhile finds its request
	// unhandled.
	Latency time.Duration
	// DropBeforeHandling closes the connection without an answer and
	// without touching state: the client cannot tell whether anything
	// happened.
	DropBeforeHandling bool
	// DropAfterHandling changes state as the request asks, then closes the
	// connection without an answer: the case that makes clients find a
	// create again instead of repeating it.
	DropAfterHandling bool
	// AnswerLatency lets the request be handled at once and holds its
	// answer this long (really, inside the fake): a client that gives up
	// meanwhile loses the answer, the change made. It is the window an
	// interrupted client lands in, where Latency's is before the change.
	AnswerLatency time.Duration
	// Answer, when set, builds the reply sent instead of handling the
	// request; route is the operation as the spec writes it.
	Answer func(route string) Reply
	// SparesRetry lets a request through when the same request (method,
	// URI and body) drew a fault last time; the fault waits for the next
	// request. A client's retry then never draws faults twice in a row,
	// however concurrent requests interleave on the route's queue.
	SparesRetry bool
}

// acts reports whether f does anything to a request: a queued zero Fault
// lets its request through, as a place in a sequence.
func (f Fault) acts() bool {
	return f.Latency > 0 || f.DropBeforeHandling || f.DropAfterHandling || f.AnswerLatency > 0 || f.Answer != nil
}

// RetryMemo remembers which requests drew a fault on their last try, for
// faults that spare a client's retry (Fault.SparesRetry, modalfake's
// Step.SparesRetry). Its owner's lock guards it.
type RetryMemo map[string]bool

// Spares reports whether a fault that spares retries and acts must let the
// request named key through, its last try having drawn one; the request is
// then forgotten. A request with no key ("") is never spared.
func (m RetryMemo) Spares(key string, sparesRetry, acts bool) bool {
	if !sparesRetry || !acts || key == "" || !m[key] {
		return false
	}
	delete(m, key)
	return true
}

// Record notes whether the request named key drew a fault that acts.
func (m RetryMemo) Record(key string, acted bool) {
	if acted && key != "" {
		m[key] = true
	} else {
		delete(m, key)
	}
}

// RequestKey names a request for Fault.SparesRetry: its method, URI and a
// digest of its body, the same for a client's retries of it.
func RequestKey(r *http.Request, body []byte) string {
	sum := sha256.Sum256(body)
	return r.Method + " " + r.URL.RequestURI() + " " + hex.EncodeToString(sum[:8])
}

type pendingFault struct {
	Fault
	left int
}

// NormalizeRoute writes a route as the fake keys it: "METHOD /path", the
// method upper-case, so "get /x" and "GET  /x" name one route.
func NormalizeRoute(route string) string {
	method, path, ok := strings.Cut(strings.TrimSpace(route), " ")
	if !ok {
		return route
	}
	return strings.ToUpper(method) + " " + strings.TrimSpace(path)
}

// Inject queues a fault for a route written as the spec writes it, e.g.
// "POST /sandboxes". Faults on one route are used in the order they were
// injected.
func (a *API) Inject(route string, f Fault) {
	route = NormalizeRoute(route)
	n := f.Times
	if n <= 0 {
		n = 1
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.faults[route] = append(a.faults[route], &pendingFault{Fault: f, left: n})
}

// Count records one request that reached route.
func (a *API) Count(route string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.counts[route]++
}

// Requests counts the requests that reached a route (faulted ones included).
func (a *API) Requests(route string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.counts[NormalizeRoute(route)]
}

// TakeFault uses up one hit of the first fault queued for route, for the
// request named request (RequestKey; "" for none).
func (a *API) TakeFault(route, request string) (Fault, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	queue := a.faults[route]
	if len(queue) == 0 {
		a.faulted.Record(request, false)
		return Fault{}, false
	}
	f := queue[0]
	if a.faulted.Spares(request, f.SparesRetry, f.acts()) {
		return Fault{}, false
	}
	f.left--
	if f.left == 0 {
		a.faults[route] = queue[1:]
	}
	a.faulted.Record(request, f.acts())
	return f.Fault, true
}

// BeforeHandling plays the part of a fault that comes before handling and
// says whether the request should still be handled. A nil input (a route
// outside the spec) writes the fault's answer without validating it.
func (a *API) BeforeHandling(w http.ResponseWriter, r *http.Request, input *openapi3filter.RequestValidationInput, route string, f Fault) bool {
	if !a.waitForClient(r, f.Latency) {
		return false
	}
	if f.DropBeforeHandling {
		DropConnection(w)
		return false
	}
	if f.Answer == nil {
		return true
	}
	rep := f.Answer(route)
	if input == nil {
		a.WriteRaw(w, r, rep)
	} else {
		a.Send(w, r, input, rep)
	}
	return false
}

// AfterHandling plays the part of a fault that comes after handling and
// says whether the answer should still be sent: not when the fault drops
// it, nor when the client gave up while the answer was held.
func (a *API) AfterHandling(w http.ResponseWriter, r *http.Request, f Fault) bool {
	if !a.waitForClient(r, f.AnswerLatency) {
		return false
	}
	if f.DropAfterHandling {
		DropConnection(w)
		return false
	}
	return true
}

// waitForClient waits d (really, unless Config.Wait says otherwise) and
// says whether the client still waits for its answer.
func (a *API) waitForClient(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	if a.cfg.Wait != nil {
		return a.cfg.Wait(r.Context(), d) == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

// DropConnection closes the TCP connection under a request without writing
// a response, so the client sees a transport error.
func DropConnection(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic("fakeapi: the response writer cannot be hijacked to drop the connection")
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic("fakeapi: hijack: " + err.Error())
	}
	_ = conn.Close() // the point is the close; its error changes nothing
}
