package platform

import "strings"

// Label keys the provider puts on every object it makes, so objects can be
// recognised as managed and found again after an interrupted create.
// Platforms that have labels (Docker, Fly metadata, E2B metadata) store them
// alongside the user's labels; they are never shown as user labels.
const (
	LabelPrefix  = "sbx.terraform."
	LabelManaged = LabelPrefix + "managed"
	LabelName    = LabelPrefix + "name"
	LabelKind    = LabelPrefix + "kind"
)

// IsReservedLabel reports whether key belongs to the provider, not the user.
func IsReservedLabel(key string) bool { return strings.HasPrefix(key, LabelPrefix) }

// UserLabels returns labels without the provider's reserved keys.
func UserLabels(all map[string]string) map[string]string {
	out := make(map[string]string, len(all))
	for k, v := range all {
		if !IsReservedLabel(k) {
			out[k] = v
		}
	}
	return out
}

// MatchLabels reports whether have holds every key/value in want.
func MatchLabels(have, want map[string]string) bool {
	for k, v := range want {
		if got, ok := have[k]; !ok || got != v {
			return false
		}
	}
	return true
}
