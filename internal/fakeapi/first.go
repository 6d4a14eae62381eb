package fakeapi

// First is the first item that matches, as a fake's one-object view
// (Sandbox, Volume, ...) picks it from the list view: the zero value and
// false when none does.
func First[T any](items []T, match func(T) bool) (T, bool) {
	for _, it := range items {
		if match(it) {
			return it, true
		}
	}
	var zero T
	return zero, false
}
