package crashtest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"
)

// answerDelay stands between the provider and a REST fake and holds back
// the answers to creates: the fake acts on the request at once (even when
// the client has gone meanwhile, as a server does), and the answer reaches
// the client only after the delay. An interrupt then lands while objects
// exist on the platform that Terraform has not heard of yet: the window
// the crash tests are about. The fakes' own latency faults wait before
// handling, so an interrupted request never acts there.
type answerDelay struct {
	upstream *url.URL
	delay    atomic.Int64 // nanoseconds; 0 turns the delay off
	isCreate func(method, path string) bool
	client   *http.Client
	srv      *httptest.Server
}

// newAnswerDelay starts the proxy in front of the fake at upstream (its base
// URL) and returns it; the provider's api_url is proxy.url(). isCreate says
// which requests are creates.
func newAnswerDelay(t *testing.T, upstream string, isCreate func(method, path string) bool) *answerDelay {
	t.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	p := &answerDelay{upstream: u, isCreate: isCreate, client: &http.Client{}}
	p.srv = httptest.NewServer(p)
	t.Cleanup(p.srv.Close)
	return p
}

// url is the fake's base URL, through the proxy.
func (p *answerDelay) url() string { return p.srv.URL + p.upstream.Path }

func (p *answerDelay) set(d time.Duration) { p.delay.Store(int64(d)) }

func (p *answerDelay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "reading the request", http.StatusBadRequest)
		return
	}
	target := *p.upstream
	target.Path, target.RawPath, target.RawQuery = r.URL.Path, r.URL.RawPath, r.URL.RawQuery
	// The fake finishes the request whatever the client does meanwhile.
	out, err := http.NewRequestWithContext(context.WithoutCancel(r.Context()), r.Method, target.String(), bytes.NewReader(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	out.Header = r.Header.Clone()
	resp, err := p.client.Do(out)
	if err != nil {
		// The fake dropped the connection (an injected fault): so does the proxy.
		dropConnection(w)
		return
	}
	answer, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		dropConnection(w)
		return
	}
	if d := time.Duration(p.delay.Load()); d > 0 && p.isCreate(r.Method, r.URL.Path) {
		timer := time.NewTimer(d)
		select {
		case <-timer.C:
		case <-r.Context().Done():
			timer.Stop()
			return // the client gave up: the answer is lost, the object made
		}
	}
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(answer)
}

func dropConnection(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		return
	}
	if conn, _, err := hj.Hijack(); err == nil {
		_ = conn.Close()
	}
}
