// Package duration parses the durations users write (the provider's
// duration attributes, its retention overrides, the drift and orphans
// commands' flags): a Go duration that may start with days, since
// retention windows are usually spoken of in days.
package duration

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// maxDays keeps day counts well inside time.Duration's ~292 years.
const maxDays = 100000

// Parse parses a Go duration ("90m", "72h") that may start with a whole
// or fractional number of days ("30d", "1d12h", "1.5d"), with one sign at
// the start ("-2d"); the caller judges whether a negative one is allowed.
func Parse(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("empty duration")
	}
	negative := false
	body := t
	if body[0] == '-' || body[0] == '+' {
		negative = body[0] == '-'
		body = body[1:]
	}
	signed := func(d time.Duration) time.Duration {
		if negative {
			return -d
		}
		return d
	}
	var days time.Duration
	if i := strings.IndexByte(body, 'd'); i >= 0 {
		num := body[:i]
		n, err := strconv.ParseFloat(num, 64)
		if err != nil || num == "" || strings.Trim(num, "0123456789.") != "" {
			return 0, fmt.Errorf("invalid duration %q: %q before \"d\" is not a number of days", s, num)
		}
		if n > maxDays {
			return 0, fmt.Errorf("invalid duration %q: more than %d days", s, maxDays)
		}
		days = time.Duration(n * float64(24*time.Hour))
		body = body[i+1:]
		if body == "" {
			return signed(days), nil
		}
	}
	rest, err := time.ParseDuration(body)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q: use a Go duration such as \"72h\" or \"90m\", optionally starting with days such as \"30d\" or \"1d12h\"", s)
	}
	if rest < 0 {
		return 0, fmt.Errorf("invalid duration %q: only one sign, at the start", s)
	}
	return signed(days + rest), nil
}

// Format writes d as people write a duration: Go's form without its zero
// units ("1h", "1h30m", "10m", "1m30s"), never in days (a day is not
// always how a duration was meant: "24h" is the usual timeout). Parse
// reads it back as d. A value read back from a platform into an attribute
// the configuration compares as a string reads as it was most likely
// written: "1h", not Go's "1h0m0s", which would plan a change of the same
// duration.
func Format(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
