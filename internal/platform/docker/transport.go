package docker

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"os"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docker/docker/client"
)

// AnswerTimeout is how long the engine has to answer a call that does no
// real work: the ping, an inspect, a list, a pause. It covers the whole
// exchange, from connecting to the last byte of the answer. An engine that
// accepts connections and never answers (hung, or something else listening
// on the port) fails such a call with a NoAnswerError instead of hanging
// plan forever.
//
// A quick call can also wait on the engine's own work: an inspect waits
// for the lock of a container the engine is starting or stopping, and a
// busy engine answers late. So when AnswerTimeout passes, the engine is
// pinged (for up to aliveProbeTimeout); if it answers, the call gets
// another AnswerTimeout, again and again up to busyEngineLimit or the
// caller's deadline. Only an engine that answers neither fails the call.
const AnswerTimeout = 30 * time.Second

// aliveProbeTimeout is how long the ping that tells a busy engine from a
// hung one may take.
const aliveProbeTimeout = 15 * time.Second

// busyEngineLimit bounds how long a quick call waits on an engine that
// answers pings, when the caller's context sets no deadline of its own.
const busyEngineLimit = 10 * time.Minute

// longCallCeiling bounds a call that does real work (a build, a commit, a
// start, a stop, a removal, a copy) made with a context that has no
// deadline. Such calls are normally bounded by the resource's timeouts
// (create, update, delete), which the caller's context carries; no fixed
// per-call limit applies to them, since a big build or commit takes long.
const longCallCeiling = 2 * time.Hour

// NoAnswerError is a call the engine did not answer in time.
type NoAnswerError struct {
	// Host is the engine's address as configured, e.g. tcp://host:2376.
	Host string
	// Method and Path are the call's, without the API version.
	Method, Path string
	// Timeout is the limit that passed.
	Timeout time.Duration
	// Stage is how far the call got.
	Stage CallStage
}

// CallStage is how far a call got before its deadline.
type CallStage int32

// The stages of a call.
const (
	StageConnecting CallStage = iota // no connection yet
	StageWaiting                     // connected (and request sent), no answer yet
	StageReading                     // the answer started and then stopped
)

func (e *NoAnswerError) Error() string {
	what := "its answer stopped half-way"
	switch e.Stage {
	case StageConnecting:
		what = "the connection could not be made"
	case StageWaiting:
		what = "it accepted the connection but sent no answer"
	}
	return fmt.Sprintf("the Docker engine at %s did not answer in %s (%s %s: %s)",
		e.Host, seconds(e.Timeout), e.Method, e.Path, what)
}

// Unwrap makes the error a deadline that passed, for errors.Is; the Docker
// client then passes it on without dressing it up as a connection failure.
func (e *NoAnswerError) Unwrap() error { return context.DeadlineExceeded }

// seconds writes a limit as "30 seconds" (under a second, as "200ms").
func seconds(d time.Duration) string {
	if d < time.Second {
		return d.String()
	}
	s := d.Round(time.Second) / time.Second
	if s == 1 {
		return "1 second"
	}
	return fmt.Sprintf("%d seconds", s)
}

// deadlineTransport gives every engine call a deadline: AnswerTimeout for a
// quick call (renewed while the engine answers pings), the caller's context
// (else longCallCeiling) for a long one.
type deadlineTransport struct {
	next    http.RoundTripper
	host    string
	answer  time.Duration
	ceiling time.Duration
	// probe is how long the alive ping gets; busy bounds a quick call's
	// renewals (see AnswerTimeout). A zero probe renews nothing.
	probe, busy time.Duration
	// last is the latest call that hit its deadline.
	last atomic.Pointer[NoAnswerError]
}

func (d *deadlineTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	limit := d.answer
	quick := quickCall(req.Method, req.URL.Path, req.URL.Query())
	if !quick {
		if _, ok := req.Context().Deadline(); ok {
			return d.next.RoundTrip(req)
		}
		limit = d.ceiling
	}
	var stage atomic.Int32 // a CallStage
	var expired atomic.Bool
	ctx, cancel := context.WithCancel(req.Context())
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn:              func(httptrace.GotConnInfo) { stage.Store(int32(StageWaiting)) },
		GotFirstResponseByte: func() { stage.Store(int32(StageReading)) },
	})
	// A quick call's deadline renews while the engine answers pings, up to
	// d.busy in all; a ping, and a long call, never renew.
	maxRenewals := int64(0)
	if quick && d.probe > 0 && apiPath(req.URL.Path) != "/_ping" {
		maxRenewals = int64(d.busy/limit) - 1
	}
	var renewals atomic.Int64
	stopWatch := make(chan struct{})
	var stopOnce sync.Once
	stopTimer := func() { stopOnce.Do(func() { close(stopWatch) }) }
	go func() {
		timer := time.NewTimer(limit)
		defer timer.Stop()
		for {
			select {
			case <-stopWatch:
				return
			case <-ctx.Done():
				return
			case <-timer.C:
			}
			if renewals.Load() < maxRenewals && d.engineAnswers(req) {
				renewals.Add(1)
				timer.Reset(limit)
				continue
			}
			expired.Store(true)
			cancel()
			return
		}
	}()
	noAnswer := func() error {
		e := &NoAnswerError{Host: d.host, Method: req.Method, Path: apiPath(req.URL.Path),
			Timeout: limit * time.Duration(1+renewals.Load()), Stage: CallStage(stage.Load())}
		d.last.Store(e)
		return e
	}
	resp, err := d.next.RoundTrip(req.WithContext(ctx))
	if err != nil {
		stopTimer()
		cancel()
		if expired.Load() {
			return nil, noAnswer()
		}
		return nil, err
	}
	resp.Body = &deadlineBody{
		ReadCloser: resp.Body,
		expired:    &expired,
		noAnswer:   noAnswer,
		done: func() {
			stopTimer()
			cancel()
		},
	}
	return resp, nil
}

// engineAnswers pings the engine that req was sent to: whether it answers
// at all within the probe's timeout, whatever it says.
func (d *deadlineTransport) engineAnswers(req *http.Request) bool {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(req.Context()), d.probe)
	defer cancel()
	// The URL is copied, never written out and parsed again: over a unix
	// socket its host is the socket's path, which no URL parser takes back.
	u := *req.URL
	u.Path, u.RawPath, u.RawQuery = "/_ping", "", ""
	ping := (&http.Request{Method: http.MethodGet, URL: &u, Host: req.Host, Header: http.Header{},
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}).WithContext(ctx)
	resp, err := d.next.RoundTrip(ping)
	if err != nil {
		return false
	}
	_ = resp.Body.Close() // only that an answer came counts
	return true
}

// deadlineBody is an answer still under its call's deadline: reading it
// past the deadline fails with a NoAnswerError, closing it ends the
// deadline.
type deadlineBody struct {
	io.ReadCloser
	expired  *atomic.Bool
	noAnswer func() error
	done     func()
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF && b.expired.Load() {
		return n, b.noAnswer()
	}
	return n, err
}

func (b *deadlineBody) Close() error {
	err := b.ReadCloser.Close()
	b.done()
	return err
}

// apiVersionPrefix is the /v1.41 that starts a versioned API path.
var apiVersionPrefix = regexp.MustCompile(`^/v[0-9]+\.[0-9]+/`)

// apiPath is an engine path without its API version.
func apiPath(p string) string {
	if loc := apiVersionPrefix.FindStringIndex(p); loc != nil {
		return p[loc[1]-1:]
	}
	return p
}

// quickCall reports whether an engine call answers at once however big the
// objects involved: reads of metadata and the few state changes that only
// flip a flag. Anything that builds, commits, copies, imports, starts,
// stops or removes is long; so is any stream (events, logs that follow,
// attach) and anything this list does not know.
func quickCall(method, rawPath string, q url.Values) bool {
	p := apiPath(rawPath)
	switch method {
	case http.MethodGet, http.MethodHead:
		switch {
		case p == "/events", p == "/system/df", p == "/images/get",
			strings.HasSuffix(p, "/export"), strings.HasSuffix(p, "/archive"),
			strings.HasSuffix(p, "/attach/ws"), strings.HasSuffix(p, "/stats"),
			strings.HasPrefix(p, "/images/") && strings.HasSuffix(p, "/get"),
			strings.HasSuffix(p, "/logs") && isTrue(q.Get("follow")),
			strings.HasSuffix(p, "/json") && isTrue(q.Get("size")):
			return false
		}
		return true
	case http.MethodPost:
		if !strings.HasPrefix(p, "/containers/") {
			return false
		}
		for _, op := range []string{"/pause", "/unpause", "/update", "/rename", "/resize", "/exec"} {
			if strings.HasSuffix(p, op) {
				return true
			}
		}
	}
	return false
}

func isTrue(v string) bool { return v == "1" || strings.EqualFold(v, "true") }

// HostSchemes is what CheckHost accepts, for messages.
func HostSchemes() string {
	s := "unix:// (a local socket, e.g. unix:///var/run/docker.sock), tcp:// " +
		"(host and port, e.g. tcp://build-host:2376; TLS from DOCKER_TLS_VERIFY and DOCKER_CERT_PATH) " +
		"or ssh:// (e.g. ssh://user@build-host; needs an ssh client that logs in without a prompt, " +
		"and the docker command line on that host)"
	if runtime.GOOS == "windows" {
		s = "npipe:// (a named pipe, e.g. npipe:////./pipe/docker_engine), " + s
	}
	return s
}

// CheckHost says what is wrong with an engine address, or nil. The Docker
// client library connects over unix sockets and TCP (and named pipes on
// Windows), and the provider adds ssh:// as the docker command line does it
// (ssh.go); anything else the library would dial as TCP and fail with "Is
// the docker daemon running?".
func CheckHost(host string) error {
	scheme, addr, ok := strings.Cut(host, "://")
	if !ok || addr == "" {
		return fmt.Errorf("is not an engine address; write scheme://address: %s", HostSchemes())
	}
	if u, err := url.Parse(host); err == nil && u.User != nil {
		if _, ok := u.User.Password(); ok {
			return fmt.Errorf("holds a password; an engine address takes none (TLS certificates or ssh keys authenticate)")
		}
	}
	switch scheme {
	case "unix":
		return nil
	case "tcp":
		u, err := url.Parse(host)
		if err != nil {
			return fmt.Errorf("is not a valid tcp:// address: %v", err)
		}
		if _, port, err := net.SplitHostPort(u.Host); err != nil || port == "" {
			return fmt.Errorf("needs a port, e.g. tcp://%s:2376 (TLS) or tcp://%s:2375", u.Hostname(), u.Hostname())
		}
		return nil
	case "npipe":
		if runtime.GOOS == "windows" {
			return nil
		}
		return fmt.Errorf("is a Windows named pipe, which works only when Terraform runs on Windows; use %s", HostSchemes())
	case "ssh":
		_, err := parseSSHHost(host)
		return err
	case "http", "https":
		return fmt.Errorf("uses %s://, which the Docker client does not take for an engine address; write tcp:// instead "+
			"(TLS comes from DOCKER_TLS_VERIFY and DOCKER_CERT_PATH)", scheme)
	}
	return fmt.Errorf("uses the scheme %q, which is not supported: use %s", scheme+"://", HostSchemes())
}

// ShownHost is host as messages show it: a password in it (which no
// scheme takes; CheckHost refuses it) is masked.
func ShownHost(host string) string {
	if u, err := url.Parse(host); err == nil && u.User != nil {
		if _, ok := u.User.Password(); ok {
			return u.Redacted()
		}
	}
	return host
}

// defaultHost is the engine address when none is configured: DOCKER_HOST,
// else the platform's local socket.
func defaultHost() string {
	if h := os.Getenv(client.EnvOverrideHost); h != "" {
		return h
	}
	return client.DefaultDockerHost
}
