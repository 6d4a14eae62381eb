package flyfake

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

const createRoute = "POST /apps/{app_name}/machines"

func TestFaults(t *testing.T) {
	cases := []struct {
		name      string
		fault     Fault
		transport bool // the client sees no answer
		status    int
		machines  int
	}{
		{"408 after the machine was made", Fault{Status: http.StatusRequestTimeout, AfterHandling: true}, false, 408, 1},
		{"503 instead of handling", Fault{Status: http.StatusServiceUnavailable}, false, 503, 0},
		{"dropped before handling", Fault{DropBeforeHandling: true}, true, 0, 0},
		{"dropped after handling", Fault{DropAfterHandling: true}, true, 0, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, nil)
			e.s.Inject(createRoute, tc.fault)
			body := `{"config":{"image":"alpine","metadata":{"sbx_create_token":"tok"}}}`
			req, _ := http.NewRequest("POST", e.s.URL()+machines, strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+testToken)
			req.Header.Set("Content-Type", "application/json")
			res, err := http.DefaultClient.Do(req)
			if tc.transport {
				if err == nil {
					_ = res.Body.Close()
					t.Fatal("the connection was not dropped")
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				_ = res.Body.Close()
				if res.StatusCode != tc.status {
					t.Fatalf("status %d, want %d", res.StatusCode, tc.status)
				}
			}
			if got := e.s.MachineCreates(); got != tc.machines {
				t.Fatalf("MachineCreates = %d, want %d", got, tc.machines)
			}
			// A client finds a create that happened by its token, though
			// not on the first list: it lags the create.
			if got := e.must(200, "GET", machines+"?metadata.sbx_create_token=tok", nil).list(t); len(got) != 0 {
				t.Fatalf("first lookup by create token: %d, want 0 (the list lags)", len(got))
			}
			if got := e.must(200, "GET", machines+"?metadata.sbx_create_token=tok", nil).list(t); len(got) != tc.machines {
				t.Fatalf("lookup by create token: %d", len(got))
			}
			if e.s.Requests(createRoute) != 1 {
				t.Fatalf("Requests = %d", e.s.Requests(createRoute))
			}
		})
	}
}

func TestFaultOnOffSpecRoute(t *testing.T) {
	e := newEnv(t, nil)
	id := e.started(map[string]any{})
	e.s.Inject(RouteSuspend, Fault{Status: http.StatusTooManyRequests, RetryAfter: "2"})
	r := e.do("POST", machines+"/"+id+"/suspend", nil)
	if r.status != 429 || r.header.Get("Retry-After") != "2" || e.state(id) != StateStarted {
		t.Fatalf("%d %v %s", r.status, r.header, e.state(id))
	}
	e.must(200, "POST", machines+"/"+id+"/suspend", nil)
}

func TestRateLimits(t *testing.T) {
	// The limits run on a clock of the test's own, stopped: every request
	// below counts as sent within the same instant however slowly the
	// machine sends it, until the test moves the clock on.
	rateClock := clock.NewFake(epoch)
	e := newEnv(t, func(o *Options) { o.RateLimits = true; o.RateClock = rateClock })
	a := e.createMachine(map[string]any{"skip_launch": true})
	b := e.createMachine(map[string]any{"skip_launch": true})
	e.createMachine(map[string]any{"skip_launch": true})
	// The 4th create within the second exceeds the burst of 3.
	r := e.do("POST", machines, map[string]any{"config": testConfig(nil)})
	if r.status != http.StatusTooManyRequests {
		t.Fatalf("4th create: %d %s", r.status, r.raw)
	}
	if secs, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || secs < 1 {
		t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
	}
	// Per machine: starting b is not limited by a's starts.
	for range 3 {
		e.do("POST", machines+"/"+a+"/start", nil)
	}
	if r := e.do("POST", machines+"/"+a+"/start", nil); r.status != http.StatusTooManyRequests {
		t.Fatalf("4th start of a: %d", r.status)
	}
	e.must(200, "POST", machines+"/"+b+"/start", nil)
	// Get Machine: burst of 10.
	for i := range 10 {
		e.must(200, "GET", machines+"/"+b, nil)
		_ = i
	}
	if r := e.do("GET", machines+"/"+b, nil); r.status != http.StatusTooManyRequests {
		t.Fatalf("11th get: %d", r.status)
	}
	// A second later (on the rate clock) the bucket holds a token again:
	// one create passes, the next is limited once more.
	rateClock.Advance(1100 * time.Millisecond)
	e.must(200, "POST", machines, map[string]any{"config": testConfig(nil)})
	if r := e.do("POST", machines, map[string]any{"config": testConfig(nil)}); r.status != http.StatusTooManyRequests {
		t.Fatalf("2nd create after a second: %d %s", r.status, r.raw)
	}
	if e.s.RateLimited() != 4 {
		t.Fatalf("RateLimited = %d", e.s.RateLimited())
	}
}
