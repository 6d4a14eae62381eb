package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sbxhq/terraform-provider-sbx/internal/redact"
)

// Do sends one logical request, retrying as the package doc describes. body
// (req.Body, if non-nil) is JSON-encoded; out (if non-nil) is JSON-decoded
// from a 2xx body. A non-2xx final response is an *APIError (wrapped; use
// errors.As or IsStatus), returned together with its Response. Errors and
// log lines never contain the credential, nor the request body's values
// under the client's sensitive keys (a server may echo the request it
// refuses, env values and all).
func (c *Client) Do(ctx context.Context, req Request, out any) (*Response, error) {
	secrets := &redact.Secrets{}
	secrets.Credential(c.auth.Secret)
	resp, err := c.do(ctx, req, out, secrets)
	return resp, secrets.Error(err)
}

func (c *Client) do(ctx context.Context, req Request, out any, secrets *redact.Secrets) (*Response, error) {
	method := strings.ToUpper(req.Method)
	if method == "" {
		method = http.MethodGet
	}
	k := &call{
		c:           c,
		method:      method,
		path:        pathOnly(req.Path),
		idempotent:  req.idempotent(),
		maxAttempts: 1 + c.maxRetries,
		secrets:     secrets,
	}
	var body []byte
	if req.Body != nil {
		b, err := json.Marshal(req.Body)
		if err != nil {
			return nil, fmt.Errorf("%s %s: encoding the request body: %w", k.method, k.path, err)
		}
		body = b
		c.addSensitiveValues(secrets, b)
	}
	k.ctx = logContext(ctx, secrets)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s %s: not sent: %w", k.method, k.path, err)
	}
	hreq, err := c.newRequest(k, req, body)
	if err != nil {
		return nil, err
	}
	if err := k.pace(); err != nil {
		return nil, fmt.Errorf("%s %s: not sent: %w", k.method, k.path, err)
	}

	// retryablehttp drives the attempts and rewinds the body; call supplies
	// the policy (which failures to retry), the wait (Retry-After aware,
	// through the injectable Sleep) and the per-attempt log line.
	rc := &retryablehttp.Client{
		HTTPClient:     c.http,
		Logger:         nil,
		RetryWaitMin:   c.minWait,
		RetryWaitMax:   c.maxWait,
		RetryMax:       c.maxRetries,
		RequestLogHook: k.attemptStarted,
		CheckRetry:     k.checkRetry,
		Backoff:        k.backoff,
		PrepareRetry:   k.prepareRetry,
		ErrorHandler:   retryablehttp.PassthroughErrorHandler,
	}
	hresp, err := rc.Do(hreq)
	k.logAttempt() // the final attempt; earlier ones logged with their wait
	if k.waitErr == nil && err != nil && !k.ctxMidAttempt && k.ctx.Err() != nil && k.last != nil {
		// The context ended between our wait and the next attempt.
		k.waitErr = k.ctx.Err()
	}
	if k.waitErr != nil {
		closeBody(hresp)
		return k.lastResp, fmt.Errorf("%w (attempt %d of %d; not retried: %w)", k.last, k.attempt, k.maxAttempts, k.waitErr)
	}
	if err != nil {
		closeBody(hresp)
		return k.lastResp, k.transportFailure(err)
	}
	defer closeBody(hresp)
	return k.finish(hresp, out)
}

// newRequest builds the first attempt's request: URL, JSON body (encoded
// already; nil for none), headers.
func (c *Client) newRequest(k *call, req Request, b []byte) (*retryablehttp.Request, error) {
	u, err := c.url(req)
	if err != nil {
		return nil, err
	}
	var body any // stays an untyped nil without a body, so no empty body is sent
	if b != nil {
		body = b
		tflog.Trace(k.ctx, "REST request body", map[string]any{
			"http_method": k.method, "http_path": k.path, "http_body": k.c.logBody(b),
		})
	}
	hreq, err := retryablehttp.NewRequestWithContext(k.ctx, k.method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", k.method, k.path, err)
	}
	for name, values := range req.Header {
		for _, v := range values {
			hreq.Header.Add(name, v)
		}
	}
	if hreq.Header.Get("Accept") == "" {
		hreq.Header.Set("Accept", "application/json")
	}
	if body != nil && hreq.Header.Get("Content-Type") == "" {
		hreq.Header.Set("Content-Type", "application/json")
	}
	if c.userAgent != "" {
		hreq.Header.Set("User-Agent", c.userAgent)
	}
	if c.auth.Header != "" {
		hreq.Header.Set(c.auth.Header, c.auth.value())
	}
	return hreq, nil
}

// finish turns the final response into the caller's result.
func (k *call) finish(hresp *http.Response, out any) (*Response, error) {
	resp := &Response{StatusCode: hresp.StatusCode, Header: hresp.Header}
	if hresp.StatusCode < 200 || hresp.StatusCode > 299 {
		// checkRetry buffered the body and built the APIError.
		apiErr := k.last
		switch {
		case k.retrying:
			return resp, fmt.Errorf("%w (gave up after %s)", apiErr, attempts(k.attempt))
		case retryableStatus(hresp.StatusCode) && !k.idempotent:
			return resp, fmt.Errorf("%w: %w", apiErr, ErrMaybeApplied)
		}
		return resp, apiErr
	}
	body, err := io.ReadAll(hresp.Body)
	if err != nil {
		// The server answered 2xx, so a non-idempotent request did happen; we
		// just lost the answer.
		err = fmt.Errorf("%s %s: %d: reading the response body: %w", k.method, k.path, hresp.StatusCode, err)
		if !k.idempotent {
			err = fmt.Errorf("%w: %w", err, ErrMaybeApplied)
		}
		return resp, err
	}
	if len(body) > 0 {
		tflog.Trace(k.ctx, "REST response body", map[string]any{
			"http_method": k.method, "http_path": k.path, "http_status": hresp.StatusCode, "http_body": k.c.logBody(body),
		})
	}
	if out != nil && len(bytes.TrimSpace(body)) > 0 {
		if err := json.Unmarshal(body, out); err != nil {
			return resp, fmt.Errorf("%s %s: %d: decoding the response body: %w", k.method, k.path, hresp.StatusCode, err)
		}
	}
	return resp, nil
}

// transportFailure explains an attempt that got no response.
func (k *call) transportFailure(err error) error {
	if k.ctxMidAttempt {
		err = fmt.Errorf("%s %s: attempt %d of %d: %w", k.method, k.path, k.attempt, k.maxAttempts, err)
		if !k.idempotent {
			// Cancelled while the request was in flight: it may have landed.
			err = fmt.Errorf("%w: %w", err, ErrMaybeApplied)
		}
		return err
	}
	last := k.last
	if last == nil {
		last = fmt.Errorf("%s %s: no response: %w", k.method, k.path, err)
	}
	switch {
	case k.retrying:
		return fmt.Errorf("%w (gave up after %s)", last, attempts(k.attempt))
	case k.maybeSent && !k.idempotent:
		return fmt.Errorf("%w: %w", last, ErrMaybeApplied)
	}
	return last
}

func closeBody(r *http.Response) {
	if r != nil && r.Body != nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 64<<10))
		_ = r.Body.Close()
	}
}

func attempts(n int) string {
	if n == 1 {
		return "1 attempt"
	}
	return fmt.Sprintf("%d attempts", n)
}
