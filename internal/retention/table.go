package retention

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

const (
	day  = 24 * time.Hour
	week = 7 * day
)

// Table is a policy table: the rules of the platforms a caller registers,
// each platform's rows in the order it declares them. It holds no rows of
// its own; the zero Table has none, so it gives no deadline.
type Table struct {
	rules []Rule
}

// NewTable joins rule sets, typically one per registered platform
// (platform.Definition.Retention) in registration order, into one table.
// It copies the rows; Check reports rows that are not well formed.
func NewTable(sets ...[]Rule) Table {
	var rules []Rule
	for _, s := range sets {
		rules = append(rules, s...)
	}
	return Table{rules: rules}
}

// Rules returns a copy of the table's rows, in order.
func (t Table) Rules() []Rule {
	return slices.Clone(t.rules)
}

// Platforms returns the platforms that have rows, in the order of their
// first row.
func (t Table) Platforms() []string {
	var out []string
	for _, r := range t.rules {
		if !slices.Contains(out, r.Platform) {
			out = append(out, r.Platform)
		}
	}
	return out
}

// Keys returns every rule key, sorted: the valid override names.
func (t Table) Keys() []string {
	var keys []string
	for _, r := range t.rules {
		if !slices.Contains(keys, r.Key) {
			keys = append(keys, r.Key)
		}
	}
	sort.Strings(keys)
	return keys
}

// Only returns the table of platform p's rows.
func (t Table) Only(p string) Table {
	var rules []Rule
	for _, r := range t.rules {
		if r.Platform == p {
			rules = append(rules, r)
		}
	}
	return Table{rules: rules}
}

// Enforced reports whether platform p acts by itself on the deadline of its
// rule key (false when p has no such rule: nobody is known to act on it).
func (t Table) Enforced(p, key string) bool {
	for _, r := range t.rules {
		if r.Platform == p && r.Key == key {
			return r.Enforced
		}
	}
	return false
}

// Check reports every row that is not well formed, joined in one error:
// a row lacks a key, platform, state or source, names an object kind,
// moment, action or setting this package does not know, has a negative
// window or limit, or repeats the key, platform, object and state of an
// earlier row. nil means every row is usable.
func (t Table) Check() error {
	var problems []string
	seen := map[string]bool{}
	for i, r := range t.rules {
		id := fmt.Sprintf("row %d (%s %s %s %s)", i, r.Platform, r.Object, r.State, r.Key)
		bad := func(format string, a ...any) {
			problems = append(problems, id+": "+fmt.Sprintf(format, a...))
		}
		if r.Key == "" || r.Platform == "" || r.State == "" {
			bad("key, platform and state must all be set")
		}
		if r.Source == "" {
			bad("no source: every row cites where its numbers come from")
		}
		if !slices.Contains([]string{Sandbox, Snapshot, Template}, r.Object) {
			bad("unknown object kind %q", r.Object)
		}
		if !slices.Contains([]Since{SinceCreated, SinceStarted, SinceStateSince, SinceLastUsed}, r.Since) {
			bad("unknown moment %q to count from", r.Since)
		}
		if !slices.Contains([]Action{ActionKill, ActionPause, ActionStop, ActionArchive, ActionDelete, ActionDeactivate, ActionExpire}, r.Action) {
			bad("unknown action %q", r.Action)
		}
		if !slices.Contains([]Setting{SettingNone, SettingTimeout, SettingIdleTimeout, SettingAutoArchiveAfter, SettingAutoDeleteAfter, SettingTTL}, r.Setting) {
			bad("unknown setting %q", r.Setting)
		}
		if r.Window < 0 || r.Limits.Min < 0 || r.Limits.Max < 0 || r.Limits.Default < 0 {
			bad("negative window or limit")
		}
		key := strings.Join([]string{r.Key, r.Platform, r.Object, r.State}, "|")
		if seen[key] {
			bad("repeats an earlier row")
		}
		seen[key] = true
	}
	if len(problems) > 0 {
		return fmt.Errorf("retention table: %s", strings.Join(problems, "; "))
	}
	return nil
}
