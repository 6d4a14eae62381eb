package daytonafake

import (
	"encoding/base64"
	"encoding/json"
	"sort"
	"strings"
)

// cursor is what a nextCursor encodes, as the typeorm search adapter does
// (sandbox-typeorm-search.adapter.ts:231-262): the sort value and id of the
// last item returned, base64 JSON. The next page starts after it, so boxes
// deleted between pages skip nothing.
type cursor struct {
	SortValue any    `json:"sortValue"`
	ID        string `json:"id"`
}

// sortKey is a box's value for a sort field (default lastActivityAt, as
// DEFAULT_SANDBOX_LIST_SORT_FIELD, list-sandboxes-query.dto.ts:28).
func sortKey(sb *sandbox, field string) any {
	switch field {
	case "name":
		return sb.name
	case "cpu":
		return float64(sb.cpu)
	case "memoryGib":
		return float64(sb.mem)
	case "diskGib":
		return float64(sb.disk)
	case "createdAt":
		return stamp(sb.createdAt)
	default:
		return stamp(sb.lastActivityAt)
	}
}

func compareKeys(a, b any) int {
	switch x := a.(type) {
	case float64:
		y, _ := b.(float64)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	case string:
		y, _ := b.(string)
		return strings.Compare(x, y)
	}
	return 0
}

// cursorPage sorts boxes (descending unless asc, ties by id in the same
// direction), starts after cursor and returns up to limit of them plus the
// cursor of the next page (nil at the end).
func cursorPage(items []*sandbox, field string, asc bool, after string, limit int) ([]*sandbox, *string, error) {
	less := func(ka any, ida string, kb any, idb string) bool {
		c := compareKeys(ka, kb)
		if c == 0 {
			c = strings.Compare(ida, idb)
		}
		if asc {
			return c < 0
		}
		return c > 0
	}
	sort.Slice(items, func(i, j int) bool {
		return less(sortKey(items[i], field), items[i].id, sortKey(items[j], field), items[j].id)
	})
	start := 0
	if after != "" {
		raw, err := base64.StdEncoding.DecodeString(after)
		if err != nil {
			return nil, nil, err
		}
		var cur cursor
		if err := json.Unmarshal(raw, &cur); err != nil {
			return nil, nil, err
		}
		start = len(items)
		for i, sb := range items {
			if less(cur.SortValue, cur.ID, sortKey(sb, field), sb.id) {
				start = i
				break
			}
		}
	}
	end := start + limit
	if end >= len(items) {
		return items[start:], nil, nil
	}
	last := items[end-1]
	data, err := json.Marshal(cursor{SortValue: sortKey(last, field), ID: last.id})
	if err != nil {
		return nil, nil, err
	}
	next := base64.StdEncoding.EncodeToString(data)
	return items[start:end], &next, nil
}
