package rest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sbxhq/terraform-provider-sbx/internal/redact"
)

// maxReadErrorBody is how much of an error response is read for parsing.
const maxReadErrorBody = 64 << 10

// call is the state of one Do: retryablehttp runs the attempts and calls back
// into it, always from the goroutine that called Do.
type call struct {
	c           *Client
	ctx         context.Context // the caller's ctx with the credential masked in logs
	method      string
	path        string
	idempotent  bool
	maxAttempts int

	attempt       int             // attempts started so far
	loggedAttempt int             // the last attempt that has its debug line
	started       time.Time       // when the current attempt started
	status        int             // the current attempt's status, 0 without a response
	errText       string          // the current attempt's failure, for its log line
	last          error           // the last attempt's failure: *APIError or a transport error
	lastResp      *Response       // the last response received, if any
	retrying      bool            // the policy wants the last attempt retried
	maybeSent     bool            // the last transport error may have come after the request reached the server
	ctxMidAttempt bool            // the context ended while an attempt was in flight
	waitErr       error           // why the wait before a retry was abandoned
	waited        time.Duration   // the wait announced for the current attempt
	secrets       *redact.Secrets // what no error or log line of this call may show
}

// attemptStarted is retryablehttp's RequestLogHook, called before each send.
func (k *call) attemptStarted(_ retryablehttp.Logger, _ *http.Request, retry int) {
	k.attempt = retry + 1
	k.started = time.Now()
	k.status, k.errText, k.waited = 0, "", 0
}

// checkRetry is the retry policy. 429 means the server did not act, so any
// method is retried; 5xx and lost connections are retried only when repeating
// is safe. A context that ends stops everything.
func (k *call) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	k.retrying, k.maybeSent = false, false
	if err != nil {
		k.errText = err.Error()
		if ctx.Err() != nil {
			k.ctxMidAttempt = true
			return false, ctx.Err()
		}
		k.last = fmt.Errorf("%s %s: no response: %w", k.method, k.path, unwrapURLError(err))
		k.lastResp = nil
		if retry, _ := retryablehttp.ErrorPropagatedRetryPolicy(ctx, nil, err); !retry {
			return false, nil // permanent: certificate, scheme, header, redirect loop
		}
		if notSent(err) {
			// Nothing reached the server, so even a POST may go again.
			k.retrying = true
			return true, nil
		}
		k.maybeSent = true
		k.retrying = k.idempotent
		return k.retrying, nil
	}

	k.status = resp.StatusCode
	k.lastResp = &Response{StatusCode: resp.StatusCode, Header: resp.Header}
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		k.last = nil
		return false, nil
	}
	// Buffer the error body: retryablehttp drains it before a retry, and the
	// caller's error needs it after the last attempt.
	body, readErr := io.ReadAll(io.LimitReader(resp.Body, maxReadErrorBody))
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	// A refusal may quote the request: mask its secrets before anything
	// parses, truncates or logs the body.
	body = []byte(k.secrets.String(string(body)))
	apiErr := newAPIError(k.method, k.path, resp.StatusCode, body, k.secrets)
	if readErr != nil && len(body) == 0 {
		apiErr.Body = "(body unreadable: " + readErr.Error() + ")"
	}
	k.last = apiErr
	k.errText = apiErr.Error()
	if len(body) > 0 {
		tflog.Trace(k.ctx, "REST error response body", map[string]any{
			"http_method": k.method, "http_path": k.path, "http_status": resp.StatusCode, "http_body": k.c.logBody(body),
		})
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		k.retrying = true
	case retryableStatus(resp.StatusCode):
		k.retrying = k.idempotent
	}
	return k.retrying, nil
}

// backoff is retryablehttp's Backoff. It waits here, through the injectable
// Sleep, and hands retryablehttp a zero wait; a wait that fails is reported by
// prepareRetry, which retryablehttp calls before the next attempt.
func (k *call) backoff(_, _ time.Duration, retry int, resp *http.Response) time.Duration {
	wait, asked := k.c.waitFor(retry, resp)
	k.waited = wait
	k.logAttempt()
	if dl, ok := k.ctx.Deadline(); ok && time.Until(dl) < wait {
		// Sleeping into the deadline only to fail later helps nobody.
		what := "the next retry (in " + wait.String() + ")"
		if asked {
			what = "the server's Retry-After of " + wait.String()
		}
		k.waitErr = fmt.Errorf("%s falls past the operation's deadline: %w", what, context.DeadlineExceeded)
		return 0
	}
	if err := k.c.sleep(k.ctx, wait); err != nil {
		k.waitErr = err
	}
	return 0
}

// prepareRetry is retryablehttp's PrepareRetry, called before each retry: it
// stops the loop when the wait was abandoned, and otherwise waits for the
// retry's pacing token.
func (k *call) prepareRetry(*http.Request) error {
	if k.waitErr == nil {
		k.waitErr = k.pace()
	}
	return k.waitErr
}

// logAttempt writes the attempt's one debug line.
func (k *call) logAttempt() {
	if k.attempt == 0 || k.loggedAttempt == k.attempt {
		return
	}
	k.loggedAttempt = k.attempt
	fields := map[string]any{
		"http_method":  k.method,
		"http_path":    k.path,
		"http_status":  k.status,
		"attempt":      k.attempt,
		"max_attempts": k.maxAttempts,
		"wait":         k.waited.String(),
		"duration":     time.Since(k.started).Round(time.Millisecond).String(),
	}
	if k.errText != "" {
		fields["error"] = k.errText
	}
	tflog.Debug(k.ctx, "REST attempt", fields)
}

// retryableStatus lists the 5xx answers that are usually transient. 501 and
// 505 say the server will never do it, so they are final.
func retryableStatus(code int) bool {
	switch code {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// notSent reports a failure to connect: the request never left, so repeating
// it cannot apply it twice.
func notSent(err error) bool {
	var oe *net.OpError
	return errors.As(err, &oe) && (oe.Op == "dial" || oe.Op == "proxyconnect")
}

// unwrapURLError drops url.Error's `Post "https://host/path?query":` prefix;
// our errors name method and path themselves.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err
	}
	return err
}
