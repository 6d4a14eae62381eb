package retention

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// maxDays keeps day counts well inside time.Duration's ~292 years.
const maxDays = 100000

// ParseDuration parses a Go duration ("90m", "72h") that may start with a
// whole or fractional number of days ("30d", "1d12h", "1.5d"), since
// retention windows are usually spoken of in days.
func ParseDuration(s string) (time.Duration, error) {
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

// ParseOverrides parses the provider's `retention {}` overrides (rule key →
// duration string). Negative values are rejected, naming the key and value;
// keys are checked by NewPolicy.
func ParseOverrides(in map[string]string) (map[string]time.Duration, error) {
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys) // the first error reported is the same every run
	out := make(map[string]time.Duration, len(in))
	for _, k := range keys {
		v := in[k]
		d, err := ParseDuration(v)
		if err != nil {
			return nil, fmt.Errorf("retention override %s = %q: %w", k, v, err)
		}
		if d < 0 {
			return nil, fmt.Errorf("retention override %s = %q: must not be negative", k, v)
		}
		out[k] = d
	}
	return out, nil
}
