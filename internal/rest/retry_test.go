package rest

import (
	"context"
	"errors"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

var fixedNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestDoRetries(t *testing.T) {
	const ok = `{"id":"sbx-1"}`
	e503 := respond(503, `{"code":503,"message":"overloaded"}`)
	cases := []struct {
		name       string
		method     string
		idempotent *bool
		maxRetries *int // nil: 4
		steps      []http.HandlerFunc
		wantHits   int
		// wantWaits are the exact waits asked for; nil means "one per retry,
		// each within [MinWait, MaxWait]".
		wantWaits  []time.Duration
		wantStatus int
		wantErr    []string // substrings of the error; none means success
		wantMaybe  bool
	}{
		{
			name: "429 with Retry-After seconds on POST is retried after at least that wait", method: "POST",
			steps:    []http.HandlerFunc{respond(429, `{"code":429,"message":"slow down"}`, "Retry-After", "3"), respond(201, ok)},
			wantHits: 2, wantWaits: []time.Duration{3 * time.Second}, wantStatus: 201,
		},
		{
			name: "429 with an HTTP-date Retry-After waits until that date", method: "POST",
			steps:    []http.HandlerFunc{respond(429, "", "Retry-After", fixedNow.Add(7*time.Second).Format(http.TimeFormat)), respond(201, ok)},
			wantHits: 2, wantWaits: []time.Duration{7 * time.Second}, wantStatus: 201,
		},
		{
			name: "Daytona Retry-After-<throttler> headers: the largest wins", method: "POST",
			steps: []http.HandlerFunc{respond(429, `{"statusCode":429,"message":"Rate limit exceeded","error":"Too Many Requests"}`,
				"Retry-After-Sandbox-Create", "4", "Retry-After-Authenticated", "9", "Retry-After", "2"), respond(201, ok)},
			wantHits: 2, wantWaits: []time.Duration{9 * time.Second}, wantStatus: 201,
		},
		{
			name: "fractional Retry-After is rounded up, never down", method: "GET",
			steps:    []http.HandlerFunc{respond(429, "", "Retry-After", "1.2501"), respond(200, ok)},
			wantHits: 2, wantWaits: []time.Duration{1251 * time.Millisecond}, wantStatus: 200,
		},
		{
			name: "429 without Retry-After backs off from MinWait", method: "POST",
			steps:    []http.HandlerFunc{respond(429, ""), respond(429, ""), respond(201, ok)},
			wantHits: 3, wantStatus: 201,
		},
		{
			name: "503 on GET is retried to success", method: "GET",
			steps:    []http.HandlerFunc{e503, e503, respond(200, ok)},
			wantHits: 3, wantStatus: 200,
		},
		{
			name: "503 on GET honours its Retry-After", method: "GET",
			steps:    []http.HandlerFunc{respond(503, "", "Retry-After", "5"), respond(200, ok)},
			wantHits: 2, wantWaits: []time.Duration{5 * time.Second}, wantStatus: 200,
		},
		{
			name: "500 and 502 and 504 on DELETE are retried", method: "DELETE",
			steps:    []http.HandlerFunc{respond(500, ""), respond(502, ""), respond(504, ""), respond(204, "")},
			wantHits: 4, wantStatus: 204,
		},
		{
			name: "503 on POST is not retried and may have been applied", method: "POST",
			steps:    []http.HandlerFunc{e503, respond(201, ok)},
			wantHits: 1, wantWaits: []time.Duration{}, wantStatus: 503,
			wantErr: []string{"POST /things: 503 Service Unavailable: overloaded"}, wantMaybe: true,
		},
		{
			name: "502 on PATCH is not retried and may have been applied", method: "PATCH",
			steps:    []http.HandlerFunc{respond(502, "<html>bad gateway</html>")},
			wantHits: 1, wantWaits: []time.Duration{}, wantStatus: 502,
			wantErr: []string{"PATCH /things: 502 Bad Gateway: <html>bad gateway</html>"}, wantMaybe: true,
		},
		{
			name: "POST marked idempotent is retried on 503", method: "POST", idempotent: new(true),
			steps:    []http.HandlerFunc{e503, respond(201, ok)},
			wantHits: 2, wantStatus: 201,
		},
		{
			name: "GET marked not idempotent is not retried on 503", method: "GET", idempotent: new(false),
			steps:    []http.HandlerFunc{e503, respond(200, ok)},
			wantHits: 1, wantWaits: []time.Duration{}, wantStatus: 503, wantErr: []string{"503"}, wantMaybe: true,
		},
		{
			name: "501 is final even for GET", method: "GET",
			steps:    []http.HandlerFunc{respond(501, `{"code":501,"message":"no"}`), respond(200, ok)},
			wantHits: 1, wantWaits: []time.Duration{}, wantStatus: 501, wantErr: []string{"GET /things: 501 Not Implemented: no"},
		},
		{
			name: "400 is final and not maybe-applied", method: "POST",
			steps:    []http.HandlerFunc{respond(400, `{"code":400,"message":"bad template"}`), respond(201, ok)},
			wantHits: 1, wantWaits: []time.Duration{}, wantStatus: 400, wantErr: []string{"POST /things: 400 Bad Request: bad template"},
		},
		{
			name: "dropped connection on GET is retried", method: "GET",
			steps:    []http.HandlerFunc{drop, respond(200, ok)},
			wantHits: 2, wantStatus: 200,
		},
		{
			name: "dropped connection on POST may have been applied", method: "POST",
			steps:    []http.HandlerFunc{drop, respond(201, ok)},
			wantHits: 1, wantWaits: []time.Duration{}, wantErr: []string{"POST /things: no response: "}, wantMaybe: true,
		},
		{
			name: "503 retries exhausted: the error names the attempts and the last status", method: "GET", maxRetries: new(2),
			steps:    []http.HandlerFunc{e503},
			wantHits: 3, wantStatus: 503, wantErr: []string{"GET /things: 503 Service Unavailable: overloaded", "gave up after 3 attempts"},
		},
		{
			name: "429 retries exhausted on POST is not maybe-applied", method: "POST", maxRetries: new(1),
			steps:    []http.HandlerFunc{respond(429, `{"code":429,"message":"slow down"}`, "Retry-After", "1")},
			wantHits: 2, wantWaits: []time.Duration{time.Second}, wantStatus: 429,
			wantErr: []string{"POST /things: 429 Too Many Requests: slow down", "gave up after 2 attempts"},
		},
		{
			name: "dropped connections exhaust the retries", method: "GET", maxRetries: new(1),
			steps:    []http.HandlerFunc{drop},
			wantHits: 2, wantErr: []string{"GET /things: no response: ", "gave up after 2 attempts"},
		},
		{
			name: "MaxRetries 0 makes one attempt", method: "GET", maxRetries: new(0),
			steps:    []http.HandlerFunc{e503},
			wantHits: 1, wantWaits: []time.Duration{}, wantStatus: 503, wantErr: []string{"gave up after 1 attempt)"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, srv, rec := restTestServer(t, tc.steps, func(cfg *Config) {
				cfg.MaxRetries = 4
				if tc.maxRetries != nil {
					cfg.MaxRetries = *tc.maxRetries
				}
				cfg.MinWait, cfg.MaxWait = time.Second, 8*time.Second
				cfg.Now = func() time.Time { return fixedNow }
			})
			var out struct{ ID string }
			resp, err := c.Do(context.Background(), Request{Method: tc.method, Path: "/things", Body: map[string]string{"a": "b"}, Idempotent: tc.idempotent}, &out)

			t.Logf("err: %v; waits: %v", err, rec.got())
			if got := srv.hits(); got != tc.wantHits {
				t.Errorf("server saw %d requests, want %d", got, tc.wantHits)
			}
			waits := rec.got()
			if tc.wantWaits != nil {
				if len(waits) != len(tc.wantWaits) {
					t.Fatalf("waits = %v, want %v", waits, tc.wantWaits)
				}
				for i := range waits {
					if waits[i] != tc.wantWaits[i] {
						t.Errorf("wait %d = %s, want %s", i, waits[i], tc.wantWaits[i])
					}
				}
			} else {
				if len(waits) != tc.wantHits-1 {
					t.Fatalf("waits = %v, want one per retry (%d)", waits, tc.wantHits-1)
				}
				for i, w := range waits {
					if w < time.Second || w > 8*time.Second || w > time.Second<<i {
						t.Errorf("wait %d = %s, outside [1s, min(8s, 1s<<%d)]", i, w, i)
					}
				}
			}
			if tc.wantStatus != 0 && (resp == nil || resp.StatusCode != tc.wantStatus) {
				t.Errorf("response = %+v, want status %d", resp, tc.wantStatus)
			}
			if len(tc.wantErr) == 0 {
				if err != nil {
					t.Fatalf("Do: %v", err)
				}
				if out.ID != "sbx-1" && tc.wantStatus != 204 {
					t.Errorf("decoded %+v, want id sbx-1", out)
				}
				return
			}
			if err == nil {
				t.Fatalf("Do succeeded, want an error containing %q", tc.wantErr)
			}
			for _, want := range tc.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
			if got := errors.Is(err, ErrMaybeApplied); got != tc.wantMaybe {
				t.Errorf("errors.Is(ErrMaybeApplied) = %v, want %v (%v)", got, tc.wantMaybe, err)
			}
			if tc.wantStatus != 0 && !IsStatus(err, tc.wantStatus) {
				t.Errorf("IsStatus(%d) = false for %v", tc.wantStatus, err)
			}
		})
	}
}

// A POST that cannot connect never reached the server, so it is retried.
func TestDoRetriesPOSTWhenNothingWasSent(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	rec := &sleeps{}
	c, err := New(Config{BaseURL: "http://" + addr, MaxRetries: 2, Sleep: rec.sleep})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Do(context.Background(), Request{Method: "POST", Path: "/sandboxes", Body: map[string]int{"x": 1}}, nil)
	if err == nil {
		t.Fatal("Do succeeded against a closed port")
	}
	if errors.Is(err, ErrMaybeApplied) {
		t.Errorf("a refused connection is flagged maybe-applied: %v", err)
	}
	if !strings.Contains(err.Error(), "gave up after 3 attempts") || !strings.Contains(err.Error(), "POST /sandboxes") {
		t.Errorf("error %q should name the request and the attempts", err)
	}
	if got := len(rec.got()); got != 2 {
		t.Errorf("waited %d times, want 2", got)
	}
}

func TestDoContext(t *testing.T) {
	e503 := respond(503, `{"message":"busy"}`)

	t.Run("cancelled during an injected wait stops at once", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var waits int
		c, srv, _ := restTestServer(t, []http.HandlerFunc{e503, respond(200, "{}")}, func(cfg *Config) {
			cfg.Sleep = func(ctx context.Context, _ time.Duration) error {
				waits++
				cancel()
				<-ctx.Done()
				return ctx.Err()
			}
		})
		_, err := c.Do(ctx, Request{Method: "GET", Path: "/x"}, nil)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v does not wrap context.Canceled", err)
		}
		if !IsStatus(err, 503) || !strings.Contains(err.Error(), "attempt 1 of 5") {
			t.Errorf("error %q should keep the last failure and the attempt", err)
		}
		if srv.hits() != 1 || waits != 1 {
			t.Errorf("hits %d waits %d, want 1 and 1", srv.hits(), waits)
		}
	})

	t.Run("cancelled during the default timer wait stops at once", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		// The default timer (SleepContext), with an hour to wait; the
		// cancel comes once that wait has begun. Its answer says how it
		// ended: the context's error, not nil after the hour.
		var waited []time.Duration
		var waitErr error
		c, srv, _ := restTestServer(t, []http.HandlerFunc{e503}, func(cfg *Config) {
			cfg.Sleep = func(ctx context.Context, d time.Duration) error {
				waited = append(waited, d)
				go cancel()
				waitErr = SleepContext(ctx, d)
				return waitErr
			}
			cfg.MinWait, cfg.MaxWait = time.Hour, time.Hour
		})
		_, err := c.Do(ctx, Request{Method: "GET", Path: "/x"}, nil)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v does not wrap context.Canceled", err)
		}
		if !slices.Equal(waited, []time.Duration{time.Hour}) || !errors.Is(waitErr, context.Canceled) {
			t.Errorf("the timer waited %v and ended with %v; want one wait of 1h, ended by the cancel", waited, waitErr)
		}
		if srv.hits() != 1 {
			t.Errorf("hits %d, want 1", srv.hits())
		}
	})

	t.Run("a Retry-After past the deadline fails without waiting", func(t *testing.T) {
		// A deadline a minute off that never ends the context by itself:
		// the hour asked for is past it, however slow the call.
		ctx := reportsDeadline{Context: context.Background(), at: time.Now().Add(time.Minute)}
		c, srv, rec := restTestServer(t, []http.HandlerFunc{respond(429, "", "Retry-After", "3600")}, nil)
		_, err := c.Do(ctx, Request{Method: "POST", Path: "/sandboxes"}, nil)
		if !errors.Is(err, context.DeadlineExceeded) || !IsStatus(err, 429) {
			t.Fatalf("error %v should wrap DeadlineExceeded and the 429", err)
		}
		if !strings.Contains(err.Error(), "Retry-After of 1h0m0s") {
			t.Errorf("error %q should say what the server asked", err)
		}
		if len(rec.got()) != 0 || srv.hits() != 1 {
			t.Errorf("waits %v hits %d, want none and 1", rec.got(), srv.hits())
		}
	})

	t.Run("already cancelled: nothing is sent", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		c, srv, _ := restTestServer(t, []http.HandlerFunc{respond(200, "{}")}, nil)
		_, err := c.Do(ctx, Request{Method: "POST", Path: "/x"}, nil)
		if !errors.Is(err, context.Canceled) || errors.Is(err, ErrMaybeApplied) {
			t.Fatalf("error %v: want Canceled without ErrMaybeApplied", err)
		}
		if srv.hits() != 0 {
			t.Errorf("hits %d, want 0", srv.hits())
		}
	})

	t.Run("deadline while a POST is in flight may have been applied", func(t *testing.T) {
		// The deadline passes once the server has the request, never
		// before it is sent, however slow the machine.
		ctx := clock.NewDeadline(context.Background())
		defer ctx.Pass()
		c, _, _ := restTestServer(t, []http.HandlerFunc{func(w http.ResponseWriter, r *http.Request) {
			ctx.Pass()
			<-r.Context().Done()
		}}, nil)
		_, err := c.Do(ctx, Request{Method: "POST", Path: "/x"}, nil)
		if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrMaybeApplied) {
			t.Fatalf("error %v: want DeadlineExceeded and ErrMaybeApplied", err)
		}
	})
}
