package e2bfake

import (
	"fmt"
	"net/url"
	"sort"
	"strconv"
)

// cursorKey orders list items: a time (as Unix nanoseconds) and the creation
// sequence to break ties. A next token names the first item of the next page
// by its key, so deleting items between pages skips nothing and repeats nothing.
type cursorKey struct {
	at  int64
	seq int64
}

func (k cursorKey) less(o cursorKey) bool {
	if k.at != o.at {
		return k.at < o.at
	}
	return k.seq < o.seq
}

func (k cursorKey) token() string { return fmt.Sprintf("%d.%d", k.at, k.seq) }

func parseToken(tok string) (cursorKey, error) {
	var k cursorKey
	if _, err := fmt.Sscanf(tok, "%d.%d", &k.at, &k.seq); err != nil {
		return k, fmt.Errorf("invalid nextToken %q", tok)
	}
	return k, nil
}

// pageLimit reads the spec's paginationLimit (1–100, default 100); the
// validator has already rejected values outside the range.
func pageLimit(q url.Values) int {
	if v := q.Get("limit"); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			return n
		}
	}
	return 100
}

// paginate sorts items by key (descending when desc), starts at the nextToken
// in q, and returns one page plus the token of the next page ("" at the end).
func paginate[T any](items []T, key func(T) cursorKey, desc bool, q url.Values) ([]T, string, error) {
	sort.Slice(items, func(i, j int) bool {
		if desc {
			return key(items[j]).less(key(items[i]))
		}
		return key(items[i]).less(key(items[j]))
	})
	start := 0
	if tok := q.Get("nextToken"); tok != "" {
		from, err := parseToken(tok)
		if err != nil {
			return nil, "", err
		}
		start = len(items)
		for i, it := range items {
			k := key(it)
			if k == from || (desc && k.less(from)) || (!desc && from.less(k)) {
				start = i
				break
			}
		}
	}
	limit := pageLimit(q)
	end := start + limit
	if end >= len(items) {
		return items[start:], "", nil
	}
	return items[start:end], key(items[end]).token(), nil
}
