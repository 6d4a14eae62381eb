package rest

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// fakeClock is a Now and a Sleep that advances it: waits cost no real time.
type fakeClock struct {
	mu    sync.Mutex
	t     time.Time
	waits []time.Duration
	// onSleep, if set, runs before each wait (e.g. to cancel the context).
	onSleep func()
}

func newFakeClock() *fakeClock { return &fakeClock{t: fixedNow} }

func (f *fakeClock) now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

func (f *fakeClock) advance(d time.Duration) {
	f.mu.Lock()
	f.t = f.t.Add(d)
	f.mu.Unlock()
}

func (f *fakeClock) sleep(ctx context.Context, d time.Duration) error {
	if f.onSleep != nil {
		f.onSleep()
	}
	f.mu.Lock()
	f.waits = append(f.waits, d)
	f.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	f.advance(d)
	return nil
}

func (f *fakeClock) got() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.waits...)
}

// flyPacing is the shape of the Fly policy: per action and app (create), per
// action and machine (start), Get Machine faster; other requests unpaced.
func flyPacing(method, path string) Pace {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case method == "POST" && len(parts) == 3 && parts[2] == "machines":
		return Pace{Key: method + " " + path, Rate: 1, Burst: 3}
	case method == "POST" && len(parts) == 5 && parts[4] == "start":
		return Pace{Key: method + " " + path, Rate: 1, Burst: 3}
	case method == "GET" && len(parts) == 4 && parts[2] == "machines":
		return Pace{Key: method + " " + path, Rate: 5, Burst: 10}
	}
	return Pace{}
}

// pacedClient is a client with flyPacing (unless mutate changes it) on a
// fake clock, against a server answering steps.
func pacedClient(t *testing.T, steps []http.HandlerFunc, mutate func(*Config)) (*Client, *script, *fakeClock) {
	t.Helper()
	clock := newFakeClock()
	c, srv, _ := restTestServer(t, steps, func(cfg *Config) {
		cfg.Pacing = flyPacing
		cfg.Sleep = clock.sleep
		cfg.Now = clock.now
		if mutate != nil {
			mutate(cfg)
		}
	})
	return c, srv, clock
}

func TestDoPacing(t *testing.T) {
	type step struct {
		method, path string
		advance      time.Duration // clock moves this much before the request
	}
	post := func(p string) step { return step{method: "POST", path: p} }
	get := func(p string) step { return step{method: "GET", path: p} }
	repeat := func(s step, n int) []step {
		out := make([]step, n)
		for i := range out {
			out[i] = s
		}
		return out
	}
	const sec = time.Second
	cases := []struct {
		name      string
		steps     []step
		wantWaits []time.Duration // every pacing wait, in order
	}{
		{
			name:      "a burst of 3 creates passes at once, the 4th waits 1/rate",
			steps:     repeat(post("/apps/a/machines"), 4),
			wantWaits: []time.Duration{sec},
		},
		{
			name:      "past the burst, each request waits one step more than the clock gave it",
			steps:     repeat(post("/apps/a/machines"), 6),
			wantWaits: []time.Duration{sec, sec, sec},
		},
		{
			name:      "Get Machine: 10 at once, the 11th waits 200ms",
			steps:     repeat(get("/apps/a/machines/m1"), 11),
			wantWaits: []time.Duration{200 * time.Millisecond},
		},
		{
			name: "separate keys do not wait on each other",
			steps: slices.Concat(repeat(post("/apps/a/machines"), 3), repeat(post("/apps/b/machines"), 3),
				repeat(post("/apps/a/machines/m1/start"), 3), repeat(post("/apps/a/machines/m2/start"), 3)),
			wantWaits: nil,
		},
		{
			name: "a key that waited does not slow another",
			steps: slices.Concat(repeat(post("/apps/a/machines"), 4), repeat(post("/apps/b/machines"), 3),
				[]step{post("/apps/a/machines")}),
			wantWaits: []time.Duration{sec, sec},
		},
		{
			name:      "the bucket refills at rate: one idle second buys one request",
			steps:     slices.Concat(repeat(post("/apps/a/machines"), 3), []step{{method: "POST", path: "/apps/a/machines", advance: sec}, post("/apps/a/machines")}),
			wantWaits: []time.Duration{sec},
		},
		{
			name:      "after a long idle the whole burst is back",
			steps:     slices.Concat(repeat(post("/apps/a/machines"), 3), []step{{method: "POST", path: "/apps/a/machines", advance: time.Hour}}, repeat(post("/apps/a/machines"), 2)),
			wantWaits: nil,
		},
		{
			name:      "unpaced requests never wait",
			steps:     repeat(get("/apps/a/machines"), 20),
			wantWaits: nil,
		},
		{
			name:      "a query does not change the key",
			steps:     slices.Concat(repeat(post("/apps/a/machines?x=1"), 3), []step{post("/apps/a/machines?x=2")}),
			wantWaits: []time.Duration{sec},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, srv, clock := pacedClient(t, []http.HandlerFunc{respond(200, `{}`)}, nil)
			for i, s := range tc.steps {
				clock.advance(s.advance)
				if _, err := c.Do(context.Background(), Request{Method: s.method, Path: s.path}, nil); err != nil {
					t.Fatalf("request %d: %v", i, err)
				}
			}
			if got := clock.got(); !slices.Equal(got, tc.wantWaits) {
				t.Errorf("pacing waits %v, want %v", got, tc.wantWaits)
			}
			if srv.hits() != len(tc.steps) {
				t.Errorf("server saw %d requests, want %d", srv.hits(), len(tc.steps))
			}
		})
	}
}

func TestDoPacingCancelled(t *testing.T) {
	const path = "/apps/a/machines"
	cases := []struct {
		name     string
		ctx      func() (context.Context, context.CancelFunc)
		cancelIn bool // cancel from inside the pacing wait
		want     error
		wantWait bool // the wait was started
		// wantMessage, when set, is in the error: which check refused.
		wantMessage string
	}{
		{
			name:     "cancelled during the pacing wait",
			ctx:      func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) },
			cancelIn: true, want: context.Canceled, wantWait: true,
		},
		{
			// A deadline 100 ms off, before the 1 s wait, that never ends the
			// context by itself: however slowly the call gets to its wait,
			// it is the pacer that refuses it, not a context already done.
			name: "a pacing wait past the deadline is not started",
			ctx: func() (context.Context, context.CancelFunc) {
				return reportsDeadline{Context: context.Background(), at: time.Now().Add(100 * time.Millisecond)}, func() {}
			},
			want: context.DeadlineExceeded, wantMessage: "falls past the operation's deadline",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, srv, clock := pacedClient(t, []http.HandlerFunc{respond(201, `{}`)}, nil)
			for range 3 {
				if _, err := c.Do(context.Background(), Request{Method: "POST", Path: path}, nil); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := tc.ctx()
			defer cancel()
			if tc.cancelIn {
				clock.onSleep = cancel
			}
			_, err := c.Do(ctx, Request{Method: "POST", Path: path}, nil)
			clock.onSleep = nil
			if !errors.Is(err, tc.want) || errors.Is(err, ErrMaybeApplied) {
				t.Fatalf("error %v: want %v without ErrMaybeApplied", err, tc.want)
			}
			if !strings.Contains(err.Error(), "POST "+path+": not sent") || !strings.Contains(err.Error(), tc.wantMessage) {
				t.Errorf("error %q should say the request was not sent, and %q", err, tc.wantMessage)
			}
			if srv.hits() != 3 {
				t.Errorf("server saw %d requests, want 3 (nothing sent after the cancel)", srv.hits())
			}
			if started := len(clock.got()) == 1; started != tc.wantWait {
				t.Errorf("waits %v, want started=%v", clock.got(), tc.wantWait)
			}
			// The abandoned slot was given back: the next request waits one
			// step, not two.
			before := len(clock.got())
			if _, err := c.Do(context.Background(), Request{Method: "POST", Path: path}, nil); err != nil {
				t.Fatal(err)
			}
			if got := clock.got()[before:]; !slices.Equal(got, []time.Duration{time.Second}) {
				t.Errorf("next request waited %v, want [1s]", got)
			}
		})
	}
}

// reportsDeadline is a context that reports a deadline at but never ends
// by itself: what the pacer makes of a deadline, apart from the time a
// slow machine takes to reach it.
type reportsDeadline struct {
	context.Context
	at time.Time
}

func (c reportsDeadline) Deadline() (time.Time, bool) { return c.at, true }

// Retries take a pacing token too: after a short backoff the retry still
// waits out the rest of its key's step.
func TestDoPacingRetries(t *testing.T) {
	e429 := respond(429, `{"error":"rate limited"}`, "Retry-After", "0")
	cases := []struct {
		name      string
		steps     []http.HandlerFunc
		retryWait time.Duration // Retry-After, or MinWait = MaxWait
		wantWaits []time.Duration
		wantHits  int
	}{
		{
			name:      "backoff 100ms, then the pacing rest of 900ms",
			steps:     []http.HandlerFunc{e429, e429, respond(201, `{}`)},
			wantWaits: []time.Duration{100 * time.Millisecond, 900 * time.Millisecond, 100 * time.Millisecond, 900 * time.Millisecond},
			wantHits:  3,
		},
		{
			name:      "a Retry-After longer than the step leaves no pacing wait",
			steps:     []http.HandlerFunc{respond(429, "", "Retry-After", "2"), respond(201, `{}`)},
			wantWaits: []time.Duration{2 * time.Second},
			wantHits:  2,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, srv, clock := pacedClient(t, tc.steps, func(cfg *Config) {
				cfg.MinWait, cfg.MaxWait = 100*time.Millisecond, 100*time.Millisecond
				cfg.Pacing = func(string, string) Pace { return Pace{Key: "k", Rate: 1, Burst: 1} }
			})
			if _, err := c.Do(context.Background(), Request{Method: "POST", Path: "/apps/a/machines"}, nil); err != nil {
				t.Fatal(err)
			}
			if got := clock.got(); !slices.Equal(got, tc.wantWaits) {
				t.Errorf("waits %v, want %v", got, tc.wantWaits)
			}
			if srv.hits() != tc.wantHits {
				t.Errorf("hits %d, want %d", srv.hits(), tc.wantHits)
			}
		})
	}

	t.Run("cancelled during a retry's pacing wait keeps the 429", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		c, srv, clock := pacedClient(t, []http.HandlerFunc{e429, respond(201, `{}`)}, func(cfg *Config) {
			cfg.MinWait, cfg.MaxWait = 100*time.Millisecond, 100*time.Millisecond
			cfg.Pacing = func(string, string) Pace { return Pace{Key: "k", Rate: 1, Burst: 1} }
		})
		clock.onSleep = func() {
			if len(clock.got()) == 1 { // the second wait: the pacing one
				cancel()
			}
		}
		_, err := c.Do(ctx, Request{Method: "POST", Path: "/apps/a/machines"}, nil)
		if !errors.Is(err, context.Canceled) || !IsStatus(err, 429) || errors.Is(err, ErrMaybeApplied) {
			t.Fatalf("error %v: want Canceled and the 429, not maybe-applied", err)
		}
		if !strings.Contains(err.Error(), "attempt 1 of 5") {
			t.Errorf("error %q should name the attempt", err)
		}
		if srv.hits() != 1 {
			t.Errorf("hits %d, want 1", srv.hits())
		}
	})
}

func TestDoPacingLogLine(t *testing.T) {
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	c, _, _ := pacedClient(t, []http.HandlerFunc{respond(201, `{}`)}, nil)
	for range 4 {
		if _, err := c.Do(ctx, Request{Method: "POST", Path: "/apps/a/machines/m1/start"}, nil); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := tflogtest.MultilineJSONDecode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var lines []map[string]any
	for _, e := range entries {
		if e["@message"] == "REST pacing wait" {
			lines = append(lines, e)
		}
	}
	if len(lines) != 1 {
		t.Fatalf("%d pacing lines, want 1 (only the 4th request waits):\n%s", len(lines), buf.String())
	}
	e := lines[0]
	want := map[string]any{
		"@level": "debug", "pacing_key": "POST /apps/a/machines/m1/start", "wait": "1s",
		"http_method": "POST", "http_path": "/apps/a/machines/m1/start", "attempt": float64(1),
	}
	for k, v := range want {
		if e[k] != v {
			t.Errorf("pacing line %s = %v, want %v (line %v)", k, e[k], v, e)
		}
	}
}

func TestDoPacingInvalidPace(t *testing.T) {
	for _, p := range []Pace{{Key: "k", Rate: 0, Burst: 1}, {Key: "k", Rate: -1, Burst: 1}, {Key: "k", Rate: 1, Burst: 0}} {
		c, srv, _ := pacedClient(t, []http.HandlerFunc{respond(200, `{}`)}, func(cfg *Config) {
			cfg.Pacing = func(string, string) Pace { return p }
		})
		_, err := c.Do(context.Background(), Request{Method: "GET", Path: "/x"}, nil)
		if err == nil || !strings.Contains(err.Error(), `pacing key "k"`) || srv.hits() != 0 {
			t.Errorf("%+v: error %v, hits %d; want a pacing error and nothing sent", p, err, srv.hits())
		}
	}
}

// Many goroutines on one key get distinct slots: exactly Burst go at once,
// then one per step.
func TestPacerConcurrentReservations(t *testing.T) {
	const n, burst = 200, 5
	p := newPacer(func(string, string) Pace { return Pace{} })
	waits := make([]time.Duration, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r, err := p.reserve(Pace{Key: "k", Rate: 10, Burst: burst}, fixedNow)
			if err != nil {
				t.Error(err)
			}
			waits[i] = r.wait
		})
	}
	wg.Wait()
	slices.Sort(waits)
	for i, w := range waits {
		want := time.Duration(max(0, i-burst+1)) * 100 * time.Millisecond
		if w != want {
			t.Fatalf("sorted wait %d = %s, want %s", i, w, want)
		}
	}
}

// Concurrent Do calls on the real timer: all get through, race-free, each
// key's requests paced as its schedule says. The clock stands still, so
// the waits do not depend on how fast the calls come: per key, the burst
// goes at once and each later request waits one step (2 ms) more than the
// one before, whichever order the calls take; the real timer waits them.
func TestDoPacingConcurrent(t *testing.T) {
	var mu sync.Mutex
	var waits []time.Duration
	c, srv, _ := restTestServer(t, []http.HandlerFunc{respond(200, `{}`)}, func(cfg *Config) {
		cfg.Now = func() time.Time { return fixedNow }
		cfg.Sleep = func(ctx context.Context, d time.Duration) error {
			mu.Lock()
			waits = append(waits, d)
			mu.Unlock()
			return SleepContext(ctx, d) // the real timer
		}
		cfg.Pacing = func(_, path string) Pace { return Pace{Key: path, Rate: 500, Burst: 5} }
	})
	const perKey, keys, burst = 25, 4, 5
	var wg sync.WaitGroup
	for k := range keys {
		for range perKey {
			wg.Go(func() {
				if _, err := c.Do(context.Background(), Request{Method: "GET", Path: "/k" + string(rune('a'+k))}, nil); err != nil {
					t.Error(err)
				}
			})
		}
	}
	wg.Wait()
	if srv.hits() != perKey*keys {
		t.Errorf("hits %d, want %d", srv.hits(), perKey*keys)
	}
	// Each key: 5 at once, then 20 more waiting 2 ms, 4 ms, ... 40 ms.
	var want []time.Duration
	for i := burst; i < perKey; i++ {
		for range keys {
			want = append(want, time.Duration(i-burst+1)*2*time.Millisecond)
		}
	}
	slices.Sort(waits)
	if !slices.Equal(waits, want) {
		t.Errorf("pacing waits %v, want %v: %d per key at 500/s past a burst of %d", waits, want, perKey-burst, burst)
	}
	if got := c.pacer.keys(); got > keys {
		t.Errorf("%d buckets for %d keys", got, keys)
	}
}

func TestPacerEvictsIdleKeys(t *testing.T) {
	pace := func(k string) Pace { return Pace{Key: k, Rate: 1, Burst: 3} }
	p := newPacer(func(string, string) Pace { return Pace{} })
	t0 := fixedNow
	for i := range 100 {
		if _, err := p.reserve(pace("idle-"+string(rune('A'+i%26))+string(rune('a'+i/26))), t0); err != nil {
			t.Fatal(err)
		}
	}
	// One key with a long schedule ahead of it: still owed waits later.
	for range 200 {
		if _, err := p.reserve(pace("busy"), t0); err != nil {
			t.Fatal(err)
		}
	}
	if got := p.keys(); got != 101 {
		t.Fatalf("%d keys, want 101", got)
	}
	// Within the sweep interval nothing is dropped.
	if _, err := p.reserve(pace("new"), t0.Add(30*time.Second)); err != nil {
		t.Fatal(err)
	}
	if got := p.keys(); got != 102 {
		t.Errorf("%d keys after 30s, want 102", got)
	}
	// Two minutes on, the idle keys have refilled and go; "busy" still has
	// requests scheduled ahead and stays, with its schedule.
	r, err := p.reserve(pace("busy"), t0.Add(2*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if got := p.keys(); got != 1 {
		t.Errorf("%d keys after 2 idle minutes, want 1 (busy)", got)
	}
	if want := 200*time.Second - 2*time.Minute - 2*time.Second; r.wait != want {
		t.Errorf("busy's next wait %s, want %s: its schedule must survive the sweep", r.wait, want)
	}
}

func TestAuthByTokenPrefix(t *testing.T) {
	fly := []TokenScheme{{Prefix: "fm1r_", Scheme: "FlyV1"}, {Prefix: "fm2_", Scheme: "FlyV1"}}
	cases := []struct {
		name, token  string
		rules        []TokenScheme
		scheme, sent string
	}{
		{"fm2 macaroon", "fm2_abc", fly, "FlyV1", "fm2_abc"},
		{"fm1r macaroon", "fm1r_abc", fly, "FlyV1", "fm1r_abc"},
		{"bundle with a macaroon second", "xyz,fm2_abc", fly, "FlyV1", "xyz,fm2_abc"},
		{"fm1a is not a listed prefix", "fm1a_abc", fly, "Bearer", "fm1a_abc"},
		{"personal access token", "FlyV1abc", fly, "Bearer", "FlyV1abc"},
		{"prefix only in the middle", "abc_fm2_x", fly, "Bearer", "abc_fm2_x"},
		{"no rules", "fm2_abc", nil, "Bearer", "fm2_abc"},
		{"pasted with its scheme", "FlyV1 fm2_abc", fly, "FlyV1", "fm2_abc"},
		{"pasted with a scheme in another case", "flyv1  fm2_abc", fly, "FlyV1", "fm2_abc"},
		{"pasted as Bearer", "Bearer tok", fly, "Bearer", "tok"},
		{"empty prefix rule is ignored", "tok", []TokenScheme{{Prefix: "", Scheme: "X"}}, "Bearer", "tok"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := AuthByTokenPrefix(tc.token, tc.rules...)
			want := Auth{Header: "Authorization", Scheme: tc.scheme, Secret: tc.sent}
			if got != want {
				t.Errorf("AuthByTokenPrefix(%q) = %+v, want %+v", tc.token, got, want)
			}
		})
	}

	t.Run("the header on the wire", func(t *testing.T) {
		c, srv, _ := restTestServer(t, []http.HandlerFunc{respond(200, `{}`)}, func(cfg *Config) {
			cfg.Auth = AuthByTokenPrefix("fm2_"+testSecret, fly...)
		})
		if _, err := c.Do(context.Background(), Request{Path: "/apps"}, nil); err != nil {
			t.Fatal(err)
		}
		if got := srv.seen()[0].Header.Get("Authorization"); got != "FlyV1 fm2_"+testSecret {
			t.Errorf("Authorization %q", got)
		}
	})
}
