package provider

import (
	"fmt"
	"strings"
)

// pickByName returns the one item named exactly name. Platforms may match
// names loosely (prefixes, substrings) when listing, so the exact match is
// decided here. None or several is an error that says what was looked for.
func pickByName[T any](kind, name string, items []T, nameOf, idOf func(T) string) (T, error) {
	var found []T
	for _, it := range items {
		if nameOf(it) == name {
			found = append(found, it)
		}
	}
	var zero T
	switch len(found) {
	case 0:
		return zero, fmt.Errorf("no %s named %q was found on the platform", kind, name)
	case 1:
		return found[0], nil
	}
	ids := make([]string, len(found))
	for i, it := range found {
		ids[i] = idOf(it)
	}
	return zero, fmt.Errorf("%d %ss are named %q (ids %s); look the one you mean up by id instead",
		len(found), kind, name, strings.Join(ids, ", "))
}
