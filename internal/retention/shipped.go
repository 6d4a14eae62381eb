package retention

import "slices"

// shipped lists the platforms the provider implements today, in the order
// the documentation shows them. The policy table also holds rows of
// platforms still to come (Daytona, Fly.io, Modal): they are kept as data
// for those platforms, but the retention guide and the provider's
// `retention {}` descriptions show only the rows of shipped platforms. A
// platform joins this list when it ships, and its rows appear then.
var shipped = []string{Docker, E2B}

// Shipped returns the platforms the provider implements, in documentation
// order.
func Shipped() []string {
	return slices.Clone(shipped)
}

// IsShipped reports whether the provider implements platform p.
func IsShipped(p string) bool {
	return slices.Contains(shipped, p)
}

// ShippedRules returns the rows of shipped platforms, in table order.
func ShippedRules() []Rule {
	var out []Rule
	for _, r := range table {
		if IsShipped(r.Platform) {
			out = append(out, r)
		}
	}
	return out
}

// UnshippedKeys returns, sorted, the override keys that no row of a shipped
// platform has: they are valid override names (the rows of coming platforms
// use them) but change no deadline on any platform the provider implements.
func UnshippedKeys() []string {
	used := map[string]bool{}
	for _, r := range ShippedRules() {
		used[r.Key] = true
	}
	var out []string
	for _, k := range Keys() {
		if !used[k] {
			out = append(out, k)
		}
	}
	return out
}
