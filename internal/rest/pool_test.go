package rest

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// Terraform calls a platform from up to -parallelism operations at once,
// round after round. The default client must keep the connections of one
// round for the next, not close all but a few and dial them again: a new
// connection is a TCP and TLS handshake per call.
func TestDefaultClientReusesConnectionsAcrossParallelRounds(t *testing.T) {
	const parallel, rounds = 12, 6
	var dialled atomic.Int64
	// Each round's calls are answered together, once all have arrived, so a
	// round holds `parallel` connections at once.
	var mu sync.Mutex
	arrived, release := 0, make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		arrived++
		wait := release
		if arrived == parallel {
			arrived, release = 0, make(chan struct{})
			close(wait)
		}
		mu.Unlock()
		<-wait
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			dialled.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()

	c, err := New(Config{BaseURL: srv.URL}) // no HTTPClient: the one users get
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	for range rounds {
		var wg sync.WaitGroup
		for range parallel {
			wg.Go(func() {
				var out struct{ OK bool }
				if _, err := c.Do(context.Background(), Request{Method: http.MethodGet, Path: "/x"}, &out); err != nil || !out.OK {
					t.Errorf("Do: %v, ok=%v", err, out.OK)
				}
			})
		}
		wg.Wait()
	}
	// The first round dials one connection per call; later rounds find them
	// idle (a call may still dial while the connection it will get is on its
	// way back to the pool, hence the margin). Keeping 3, as cleanhttp does
	// on 2 CPUs, dials parallel-3 more every round: 57 here.
	if got, most := dialled.Load(), int64(2*parallel); got > most {
		t.Errorf("%d connections dialled for %d rounds of %d parallel calls, want at most %d: idle connections are not kept between rounds",
			got, rounds, parallel, most)
	}
}
