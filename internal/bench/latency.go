package bench

import (
	"encoding/json"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
	"time"
)

// CountsPath is where a Delayed front answers with its request counts
// (GET) or sets them back to zero (DELETE); it is never forwarded.
const CountsPath = "/_bench/counts"

// Counts is what the front has forwarded since its last reset.
type Counts struct {
	// Requests counts every forwarded request.
	Requests int `json:"requests"`
	// ByRoute counts them by method and path, ids left in: the bench
	// reads only the total, the routes say where a surprise came from.
	ByRoute map[string]int `json:"by_route"`
}

// Delayed forwards every request to target after waiting latency, so each
// answer comes latency later than the fake alone would give it.
type Delayed struct {
	latency time.Duration
	proxy   *httputil.ReverseProxy

	mu     sync.Mutex
	counts Counts
}

// NewDelayed builds the front of target.
func NewDelayed(target *url.URL, latency time.Duration) *Delayed {
	proxy := httputil.NewSingleHostReverseProxy(target)
	// The provider keeps connections alive; so does the front toward the
	// fake, with room for Terraform's parallelism and more.
	proxy.Transport = &http.Transport{MaxIdleConnsPerHost: 256}
	return &Delayed{latency: latency, proxy: proxy, counts: Counts{ByRoute: map[string]int{}}}
}

func (d *Delayed) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == CountsPath {
		d.serveCounts(w, r)
		return
	}
	d.count(r.Method + " " + routeOf(r.URL.Path))
	timer := time.NewTimer(d.latency)
	select {
	case <-timer.C:
	case <-r.Context().Done():
		timer.Stop()
		return
	}
	d.proxy.ServeHTTP(w, r)
}

func (d *Delayed) count(route string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.counts.Requests++
	d.counts.ByRoute[route]++
}

func (d *Delayed) serveCounts(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch r.Method {
	case http.MethodGet:
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(d.counts)
	case http.MethodDelete:
		d.counts = Counts{ByRoute: map[string]int{}}
		w.WriteHeader(http.StatusNoContent)
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}
