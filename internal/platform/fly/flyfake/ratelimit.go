package flyfake

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Fly's documented limits (docs machines/api/working-with-machines-api,
// "Rate limits"): 1 request per second per action (Create Machine, Start
// Machine, ...) per machine or app, with a short-term burst of 3; Get
// Machine 5 per second, burst 10. The fake keeps one token bucket per route
// and target (the machine id, else the app name), on the wall clock: the
// provider's client-side pacing is real-time, so the limits are too
// (Options.RateClock puts them on a test's clock instead).
//
// Fly's docs name neither the status nor a Retry-After header; the fake
// answers 429 with Fly's error body and a Retry-After in whole seconds (the
// time until the next token). fly-go does not read Retry-After; flyctl
// treats 429 as retryable (internal/flapsutil/retry.go).
const (
	actionRate   = 1.0
	actionBurst  = 3.0
	getRate      = 5.0
	getBurst     = 10.0
	routeGetMach = "GET /apps/{app_name}/machines/{machine_id}"
)

type bucket struct {
	tokens float64
	at     time.Time
}

type rateLimiter struct {
	mu      sync.Mutex
	buckets map[string]*bucket
	limited int
}

func newRateLimiter() *rateLimiter { return &rateLimiter{buckets: map[string]*bucket{}} }

// take spends one token of key's bucket, or says how long until one.
func (l *rateLimiter) take(key string, rate, burst float64, now time.Time) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, found := l.buckets[key]
	if !found {
		b = &bucket{tokens: burst, at: now}
		l.buckets[key] = b
	}
	b.tokens = math.Min(burst, b.tokens+now.Sub(b.at).Seconds()*rate)
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		return 0, true
	}
	l.limited++
	return time.Duration((1 - b.tokens) / rate * float64(time.Second)), false
}

// throttle answers 429 when Options.RateLimits is on and route's bucket for
// its target is empty.
func (s *Server) throttle(route string, params map[string]string) (reply, bool) {
	if !s.opts.RateLimits {
		return reply{}, false
	}
	rate, burst := actionRate, actionBurst
	if route == routeGetMach {
		rate, burst = getRate, getBurst
	}
	target := params["machine_id"]
	if target == "" {
		target = params["app_name"]
	}
	wait, allowed := s.rl.take(route+" "+target, rate, burst, s.opts.RateClock.Now())
	if allowed {
		return reply{}, false
	}
	rep := errorReply(http.StatusTooManyRequests, "rate limit exceeded")
	secs := int(math.Ceil(wait.Seconds()))
	rep.header = http.Header{"Retry-After": []string{strconv.Itoa(max(secs, 1))}}
	return rep, true
}

// RateLimited counts the requests the rate limits answered 429.
func (s *Server) RateLimited() int {
	s.rl.mu.Lock()
	defer s.rl.mu.Unlock()
	return s.rl.limited
}
