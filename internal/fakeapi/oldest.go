package fakeapi

import (
	"cmp"
	"maps"
	"slices"
)

// Oldest lists a fake's objects in creation order: the order its views and
// unsorted lists show them in, since a map has none. seq is an object's
// creation sequence number, unique per fake.
func Oldest[T any](objects map[string]T, seq func(T) int64) []T {
	all := slices.Collect(maps.Values(objects))
	slices.SortFunc(all, func(a, b T) int { return cmp.Compare(seq(a), seq(b)) })
	return all
}
