// Package rest is the one HTTP client every REST platform (E2B, Daytona, Fly)
// talks through. It is built on go-retryablehttp and adds what those APIs need:
// 429s retried for any method honouring Retry-After (and Daytona's
// Retry-After-<throttler>), 5xx and transport errors retried only when the
// request is safe to repeat, ErrMaybeApplied when a non-idempotent request may
// have taken effect, parsed upstream error bodies, tflog lines with the
// credential masked, and optional client-side pacing (a token bucket per key,
// see Config.Pacing) that keeps a large apply within published rate limits.
package rest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Defaults applied by New when the Config leaves a field at its zero value.
const (
	// DefaultMaxRetries is the provider's max_retries default. Config.MaxRetries
	// is taken literally (0 means a single attempt), so callers pass the
	// provider's value; this constant is what that value defaults to.
	DefaultMaxRetries = 4
	DefaultMinWait    = time.Second
	DefaultMaxWait    = 30 * time.Second
)

// Config describes one platform endpoint and how to talk to it.
type Config struct {
	// BaseURL is the API root, e.g. https://api.e2b.app or
	// https://app.daytona.io/api; request paths are appended to it.
	BaseURL string
	// Auth says how the credential is sent.
	Auth Auth
	// MaxRetries is the number of retries after the first attempt; 0 means no
	// retry. The provider passes its max_retries (DefaultMaxRetries unless set).
	MaxRetries int
	// UserAgent is sent on every request:
	// "terraform-provider-sbx/<version> (+platform)".
	UserAgent string
	// MinWait and MaxWait bound the exponential backoff; defaults 1s / 30s.
	// A Retry-After the server sends is honoured even when it exceeds MaxWait.
	MinWait, MaxWait time.Duration
	// HTTPClient is optional (tests); the default is a pooled client that
	// keeps enough idle connections for Terraform's parallel calls (pool.go).
	HTTPClient *http.Client
	// Sleep waits between attempts and must return ctx's error as soon as ctx
	// is done. Optional: tests inject one to record the waits without sleeping.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now reads the clock when an HTTP-date Retry-After is turned into a wait.
	// Optional: defaults to time.Now; tests inject a fixed clock.
	Now func() time.Time
	// SensitiveKeys names JSON object keys whose values are secrets (E2B's
	// envVars, volume and envd tokens): request and response bodies are
	// logged with those values masked, at any depth.
	SensitiveKeys []string
	// Pacing, if set, paces requests on the client side so a burst of
	// resources (an apply of 30 machines) stays within the platform's
	// published rate limits instead of provoking a storm of 429s. Before each
	// attempt, retries included, Do waits for a token of the request's
	// Pace.Key, through Sleep and Now, and gives up as soon as ctx ends. A
	// 429 is still retried after its Retry-After. Optional: nil paces nothing.
	Pacing PacingPolicy
}

// Auth is how the credential travels: {"X-API-Key", "", key} sends
// "X-API-Key: key"; {"Authorization", "Bearer", token} sends
// "Authorization: Bearer token". A zero Auth sends no credential.
type Auth struct {
	Header, Scheme, Secret string
}

func (a Auth) value() string {
	if a.Scheme == "" {
		return a.Secret
	}
	return a.Scheme + " " + a.Secret
}

// Client sends requests to one platform. One Client serves any number of
// goroutines: its only mutable state, the pacing buckets, is locked.
type Client struct {
	base       *url.URL
	auth       Auth
	maxRetries int
	userAgent  string
	minWait    time.Duration
	maxWait    time.Duration
	http       *http.Client
	sleep      func(ctx context.Context, d time.Duration) error
	now        func() time.Time
	sensitive  map[string]bool
	pacer      *pacer // nil without a PacingPolicy
}

// New checks cfg and returns a Client. Errors name the field and the value.
func New(cfg Config) (*Client, error) {
	base, err := url.Parse(strings.TrimSpace(cfg.BaseURL))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("rest: BaseURL %q is not an absolute http(s) URL", cfg.BaseURL)
	}
	if base.RawQuery != "" || base.Fragment != "" {
		return nil, fmt.Errorf("rest: BaseURL %q must not carry a query or fragment", cfg.BaseURL)
	}
	base.Path = strings.TrimRight(base.Path, "/")
	base.RawPath = ""
	switch {
	case cfg.Auth.Header == "" && (cfg.Auth.Secret != "" || cfg.Auth.Scheme != ""):
		return nil, errors.New("rest: Auth has a secret or scheme but no header to send it in")
	case cfg.Auth.Header != "" && cfg.Auth.Secret == "":
		return nil, fmt.Errorf("rest: Auth.Secret is empty (header %q)", cfg.Auth.Header)
	}
	if cfg.MaxRetries < 0 {
		return nil, fmt.Errorf("rest: MaxRetries %d is negative; 0 or more is allowed", cfg.MaxRetries)
	}
	minWait, maxWait := cfg.MinWait, cfg.MaxWait
	if minWait == 0 {
		minWait = DefaultMinWait
	}
	if maxWait == 0 {
		maxWait = DefaultMaxWait
	}
	if minWait < 0 || maxWait < minWait {
		return nil, fmt.Errorf("rest: MinWait %s and MaxWait %s must satisfy 0 < MinWait <= MaxWait", minWait, maxWait)
	}
	c := &Client{
		base:       base,
		auth:       cfg.Auth,
		maxRetries: cfg.MaxRetries,
		userAgent:  cfg.UserAgent,
		minWait:    minWait,
		maxWait:    maxWait,
		http:       sameHostRedirects(cfg.HTTPClient, base.Host),
		sleep:      cfg.Sleep,
		now:        cfg.Now,
		pacer:      newPacer(cfg.Pacing),
	}
	if len(cfg.SensitiveKeys) > 0 {
		c.sensitive = make(map[string]bool, len(cfg.SensitiveKeys))
		for _, k := range cfg.SensitiveKeys {
			c.sensitive[k] = true
		}
	}
	if c.sleep == nil {
		c.sleep = SleepContext
	}
	if c.now == nil {
		c.now = time.Now
	}
	return c, nil
}

// CloseIdleConnections closes the connections the client keeps open for
// the next request; the client still works after it (it dials anew).
func (c *Client) CloseIdleConnections() { c.http.CloseIdleConnections() }

// sameHostRedirects returns a copy of hc (or of pooledClient) that stops at a
// redirect to another host: net/http forwards custom headers such as X-API-Key
// across hosts, so following one would hand the credential to a third party.
// The 3xx then surfaces as an APIError.
func sameHostRedirects(hc *http.Client, host string) *http.Client {
	var cp http.Client
	if hc == nil {
		cp = *pooledClient()
	} else {
		cp = *hc
	}
	next := cp.CheckRedirect
	cp.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Host != host {
			return http.ErrUseLastResponse
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &cp
}

// Request is one logical call; Do may send it several times.
type Request struct {
	// Method is the HTTP method (GET, POST, ...).
	Method string
	// Path is appended to BaseURL as is: escape IDs with url.PathEscape.
	Path string
	// Query is encoded onto the URL.
	Query url.Values
	// Body, if non-nil, is JSON-encoded (json.RawMessage passes through).
	Body any
	// Header adds headers; User-Agent and the credential header are always the
	// client's own.
	Header http.Header
	// Idempotent overrides the method default (GET, HEAD, PUT, DELETE, OPTIONS
	// and TRACE are safe to repeat; POST and PATCH are not).
	Idempotent *bool
}

// Response is what the caller may need from the final HTTP response besides
// the decoded body, e.g. the X-Next-Token pagination header.
type Response struct {
	StatusCode int
	Header     http.Header
}

// idempotent reports whether sending r twice has the same effect as once.
func (r Request) idempotent() bool {
	if r.Idempotent != nil {
		return *r.Idempotent
	}
	switch strings.ToUpper(r.Method) {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete, http.MethodOptions, http.MethodTrace:
		return true
	}
	return false
}

// url joins BaseURL, Path and Query.
func (c *Client) url(r Request) (*url.URL, error) {
	p := r.Path
	if p != "" && !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	u, err := url.Parse(c.base.String() + p)
	if err != nil {
		return nil, fmt.Errorf("rest: path %q: %w", r.Path, err)
	}
	if len(r.Query) > 0 {
		q := u.Query()
		for k, vs := range r.Query {
			q[k] = append(q[k], vs...)
		}
		u.RawQuery = q.Encode()
	}
	return u, nil
}

// pathOnly strips a query the caller may have left in Path, so errors and log
// lines name the endpoint.
func pathOnly(p string) string {
	if i := strings.IndexByte(p, '?'); i >= 0 {
		return p[:i]
	}
	return p
}
