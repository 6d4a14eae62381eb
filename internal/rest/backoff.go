package rest

import (
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxRetryAfter bounds a server-sent wait so a bogus header cannot overflow a
// Duration; the operation's deadline still cuts any wait short.
const maxRetryAfter = 24 * time.Hour

// backoff is the wait before retry number retry (0-based): full jitter between
// MinWait and min(MaxWait, MinWait·2^retry). Jitter keeps many resources
// retrying together from hitting the API in lockstep.
func (c *Client) backoff(retry int) time.Duration {
	ceiling := c.maxWait
	if retry < 32 {
		if d := c.minWait << retry; d > 0 && d < ceiling {
			ceiling = d
		}
	}
	if ceiling <= c.minWait {
		return c.minWait
	}
	return c.minWait + rand.N(ceiling-c.minWait+1)
}

// retryAfter reads how long the server asks us to wait: Retry-After (seconds
// or an HTTP-date) and Daytona's Retry-After-<throttler> headers, taking the
// largest since every throttler must have recovered. ok is false when no
// header parses.
func retryAfter(h http.Header, now time.Time) (wait time.Duration, ok bool) {
	for name, values := range h {
		if !strings.EqualFold(name, "Retry-After") && !hasFoldPrefix(name, "Retry-After-") {
			continue
		}
		for _, v := range values {
			d, good := parseRetryAfter(strings.TrimSpace(v), now)
			if good && (!ok || d > wait) {
				wait, ok = d, true
			}
		}
	}
	return wait, ok
}

func hasFoldPrefix(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// parseRetryAfter accepts delay-seconds (fractions rounded up, so we never
// wait less than asked) or an HTTP-date; a date in the past means no wait.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs < 0 || secs != secs { // negative or NaN
			return 0, false
		}
		if secs >= maxRetryAfter.Seconds() {
			return maxRetryAfter, true
		}
		return time.Duration(math.Ceil(secs*1e3)) * time.Millisecond, true
	}
	if t, err := http.ParseTime(v); err == nil {
		d := t.Sub(now)
		if d < 0 {
			d = 0
		}
		return min(d, maxRetryAfter), true
	}
	return 0, false
}

// waitFor picks the wait after a failed attempt: what the server asks when it
// says, otherwise the jittered backoff.
func (c *Client) waitFor(retry int, resp *http.Response) (wait time.Duration, asked bool) {
	if resp != nil {
		if d, ok := retryAfter(resp.Header, c.now()); ok && d > 0 {
			return d, true
		}
	}
	return c.backoff(retry), false
}
