package rest

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// Pace is how one request is paced on the client side.
type Pace struct {
	// Key names the budget the request draws on: requests with the same Key
	// share one token bucket, requests with different Keys never wait on each
	// other. "" means the request is not paced.
	Key string
	// Rate is the sustained number of requests per second Key allows (e.g. 1
	// for Fly's per-action limits, 5 for Get Machine). It must be positive;
	// +Inf means no pacing.
	Rate float64
	// Burst is how many requests Key lets through at once after it has been
	// idle (3 for Fly's actions, 10 for Get Machine). It must be 1 or more.
	Burst int
}

// PacingPolicy maps a request to its Pace. method is upper-case ("GET" when
// the Request left it empty) and path is Request.Path as the caller gave it,
// without BaseURL and without any query, e.g. "/apps/a/machines/m1/start".
// It is called once per attempt, from any goroutine, and must not block.
type PacingPolicy func(method, path string) Pace

// pacingSweepEvery is how often, at most, the pacer drops the buckets that
// have refilled. A refilled bucket behaves exactly like a new one, so
// dropping it changes nothing but memory.
const pacingSweepEvery = time.Minute

// pacer holds one bucket per pacing key. It is a GCRA (the virtual-scheduling
// form of a token bucket): a key's whole state is the time its next request
// would be due if requests came at exactly Rate, so a bucket whose time has
// passed is full and need not be kept.
type pacer struct {
	policy PacingPolicy

	mu        sync.Mutex
	due       map[string]time.Time // per key: the theoretical arrival time
	lastSweep time.Time
}

func newPacer(policy PacingPolicy) *pacer {
	if policy == nil {
		return nil
	}
	return &pacer{policy: policy, due: make(map[string]time.Time)}
}

// reservation is one request's place in its key's schedule.
type reservation struct {
	key  string
	wait time.Duration // how long the request must wait from now
	next time.Time     // the key's due time this reservation left behind
	step time.Duration // one request's share of the schedule (1/Rate)
}

// reserve takes a place for one request at now and says how long it must
// wait. A Pace that asks for no pacing returns a zero reservation.
func (p *pacer) reserve(pace Pace, now time.Time) (reservation, error) {
	if pace.Key == "" || math.IsInf(pace.Rate, 1) {
		return reservation{}, nil
	}
	if !(pace.Rate > 0) || pace.Burst < 1 {
		return reservation{}, fmt.Errorf("rest: pacing key %q: rate %g and burst %d must be positive", pace.Key, pace.Rate, pace.Burst)
	}
	step := time.Duration(float64(time.Second) / pace.Rate)
	if step <= 0 {
		return reservation{}, nil // faster than the clock can tell
	}
	// A burst of Burst requests may start together: the request due at
	// `due` may go Burst-1 steps early.
	tolerance := time.Duration(pace.Burst-1) * step
	if pace.Burst-1 != 0 && tolerance/time.Duration(pace.Burst-1) != step {
		tolerance = time.Duration(math.MaxInt64) // overflow: effectively unpaced bursts
	}

	p.mu.Lock()
	defer p.mu.Unlock()
	p.sweep(now)
	due, ok := p.due[pace.Key]
	if !ok || due.Before(now) {
		due = now
	}
	r := reservation{key: pace.Key, step: step, next: due.Add(step)}
	if start := due.Add(-tolerance); start.After(now) {
		r.wait = start.Sub(now)
	}
	p.due[pace.Key] = r.next
	return r, nil
}

// cancel gives back a reservation whose request will not be sent, when no
// later request has been scheduled behind it; otherwise the slot is lost,
// which only ever slows the key down, never speeds it up.
func (p *pacer) cancel(r reservation) {
	if r.key == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if due, ok := p.due[r.key]; ok && due.Equal(r.next) {
		p.due[r.key] = r.next.Add(-r.step)
	}
}

// sweep drops the keys whose bucket is full again, at most once per
// pacingSweepEvery; the caller holds mu.
func (p *pacer) sweep(now time.Time) {
	if now.Sub(p.lastSweep) < pacingSweepEvery && !now.Before(p.lastSweep) {
		return
	}
	p.lastSweep = now
	for k, due := range p.due {
		if !due.After(now) {
			delete(p.due, k)
		}
	}
}

// keys is how many buckets the pacer holds (tests).
func (p *pacer) keys() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.due)
}

// pace waits, through the Client's Sleep, until the attempt k is about to
// make may go under the Config's PacingPolicy. It returns ctx's error (or
// DeadlineExceeded when the wait would outlast ctx's deadline) without
// waiting further, and then the attempt must not be sent.
func (k *call) pace() error {
	p := k.c.pacer
	if p == nil {
		return nil
	}
	pace := p.policy(k.method, k.path)
	r, err := p.reserve(pace, k.c.now())
	if err != nil || r.wait <= 0 {
		return err
	}
	if dl, ok := k.ctx.Deadline(); ok && time.Until(dl) < r.wait {
		p.cancel(r)
		return fmt.Errorf("the pacing wait of %s for %q falls past the operation's deadline: %w", r.wait, r.key, context.DeadlineExceeded)
	}
	tflog.Debug(k.ctx, "REST pacing wait", map[string]any{
		"http_method": k.method,
		"http_path":   k.path,
		"pacing_key":  r.key,
		"wait":        r.wait.String(),
		"attempt":     k.attempt + 1,
	})
	if err := k.c.sleep(k.ctx, r.wait); err != nil {
		p.cancel(r)
		return err
	}
	return nil
}
