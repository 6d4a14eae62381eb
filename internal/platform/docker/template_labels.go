package docker

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// withUserLabelKeys records which keys of labels are the user's, so they can
// be told apart from labels inherited from a base image (see
// labelUserLabelKeys). It always sets the key, even to "[]", so an object
// never inherits its parent's list.
func withUserLabelKeys(labels, user map[string]string) map[string]string {
	keys, _ := json.Marshal(slices.Sorted(maps.Keys(platform.UserLabels(user))))
	labels[labelUserLabelKeys] = string(keys)
	return labels
}

// userLabelsOf returns the user's labels among all of an object's labels:
// the keys recorded by withUserLabelKeys when present, else (an object the
// provider did not make) every label that is not reserved.
func userLabelsOf(all map[string]string) map[string]string {
	raw, ok := all[labelUserLabelKeys]
	var keys []string
	if !ok || json.Unmarshal([]byte(raw), &keys) != nil {
		return platform.UserLabels(all)
	}
	out := make(map[string]string, len(keys))
	for _, k := range keys {
		if v, ok := all[k]; ok {
			out[k] = v
		}
	}
	return out
}

// labelInt reads a numeric label; missing or malformed reads as 0 ("not set").
func labelInt(labels map[string]string, key string) int64 {
	n, err := strconv.ParseInt(labels[key], 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// formatInt writes a numeric label; 0 ("not set") is the empty string.
func formatInt(n int64) string {
	if n <= 0 {
		return ""
	}
	return strconv.FormatInt(n, 10)
}
