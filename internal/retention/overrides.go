package retention

import (
	"fmt"
	"sort"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/duration"
)

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
		d, err := duration.Parse(v)
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
