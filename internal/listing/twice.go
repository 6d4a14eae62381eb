// Package listing reads lists that may lag: a platform's list may leave
// out an object made a moment before.
package listing

import "context"

// Twice calls list twice and takes every object either answer shows,
// once (by id), in the second answer's order with what only the first
// showed after it. A query usually follows the apply that made what it
// looks for, and a platform's list may be eventually consistent (one
// platform documents its sandbox list so, and the fakes of others leave
// out an object made a moment before, as their services may): an object
// missing from one list is shown by the next; a query that missed it would
// offer nothing to import, and its import block would never be written.
// The snapshot data sources list through the same path: a snapshot looked
// up right after the action that took it is found.
func Twice[T any](ctx context.Context, list func(context.Context) ([]T, error), id func(T) string) ([]T, error) {
	first, err := list(ctx)
	if err != nil {
		return nil, err
	}
	second, err := list(ctx)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(second))
	for _, x := range second {
		seen[id(x)] = true
	}
	for _, x := range first {
		if !seen[id(x)] {
			seen[id(x)] = true
			second = append(second, x)
		}
	}
	return second, nil
}
