package retention

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"
)

// Object is what Deadline needs to know about a sandbox, snapshot or
// template: all of it recorded facts (timestamps the platform reported,
// settings the user made). Zero times and durations mean unknown / unset.
type Object struct {
	Platform string
	// Kind is Sandbox, Snapshot or Template; State is the sandbox state,
	// the snapshot kind or the template state.
	Kind  string
	State string

	CreatedAt  time.Time
	StartedAt  time.Time // the last start or resume
	StateSince time.Time // when the object entered State
	LastUsedAt time.Time // the last activity the platform counts (a template: the last box started from it)

	Timeout          time.Duration
	OnTimeout        string // kill | pause | stop; empty = the rule's own action
	IdleTimeout      time.Duration
	AutoArchiveAfter time.Duration
	AutoDeleteAfter  time.Duration
	TTL              time.Duration

	// PlatformExpiresAt is a deadline the platform reports itself (E2B endAt,
	// a snapshot's expiry). It replaces the computed deadline of the rule
	// marked Reported.
	PlatformExpiresAt time.Time
}

// Deadline is the earliest moment a platform acts on an object.
type Deadline struct {
	At     time.Time
	Rule   string // the rule key
	Action Action
	Source string
	// Enforced is false for deadlines nobody enforces (Docker): tracked only.
	Enforced bool
}

// Policy is a Table with the user's overrides applied. The zero Policy has
// no rows and gives no deadline.
type Policy struct {
	table     Table
	overrides map[string]time.Duration
}

// NewPolicy checks the overrides (keys must be keys of the table's rules,
// windows must not be negative) and returns a policy using them. An
// override replaces the window of every row with that key, including rows
// where the platform sets no deadline (Window 0), which is how users track
// a deadline the table does not know. A key no row has would change
// nothing, so it is an error naming it and the valid keys.
func (t Table) NewPolicy(overrides map[string]time.Duration) (Policy, error) {
	keys := t.Keys()
	var unknown []string
	for k, v := range overrides {
		if !slices.Contains(keys, k) {
			unknown = append(unknown, k)
			continue
		}
		if v < 0 {
			return Policy{}, fmt.Errorf("retention override %s = %s: must not be negative", k, v)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		valid := "there are none: no rule has a key"
		if len(keys) > 0 {
			valid = "valid keys are " + strings.Join(keys, ", ")
		}
		return Policy{}, fmt.Errorf("unknown retention override %s: %s", strings.Join(quoteAll(unknown), ", "), valid)
	}
	return Policy{table: t, overrides: maps.Clone(overrides)}, nil
}

// Table returns the table the policy applies.
func (p Policy) Table() Table { return p.table }

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// Window returns the window a rule has under this policy before any
// per-object setting: the override if one is set, else the table's.
func (p Policy) Window(r Rule) time.Duration {
	if w, ok := p.overrides[r.Key]; ok {
		return w
	}
	return r.Window
}

// Deadline returns the earliest deadline among the rules that apply to o, or
// false when none does.
//
// A rule applies when it matches o's platform, kind and state, has a window
// (from the object's setting, else an override, else the table) or a
// platform-reported deadline, and the moment it counts from is known. A
// per-object setting is cut to the rule's Max (the platform clamps or
// rejects anything longer); an override larger than Max lifts that cap,
// since overrides exist to follow platform changes.
//
// Every window counts from a recorded timestamp, never from `now`; `now` is
// accepted so callers have one signature, and is currently unused.
func (p Policy) Deadline(o Object, now time.Time) (Deadline, bool) {
	_ = now
	var best Deadline
	found := false
	for _, r := range p.table.rules {
		if r.Platform != o.Platform || r.Object != o.Kind || r.State != o.State {
			continue
		}
		at, ok := p.ruleDeadline(r, o)
		if !ok {
			continue
		}
		if !found || at.Before(best.At) {
			best = Deadline{At: at, Rule: r.Key, Action: action(r, o), Source: r.Source, Enforced: r.Enforced}
			found = true
		}
	}
	return best, found
}

func (p Policy) ruleDeadline(r Rule, o Object) (time.Time, bool) {
	if r.Reported && !o.PlatformExpiresAt.IsZero() {
		return o.PlatformExpiresAt, true
	}
	window := p.Window(r)
	if s := setting(r.Setting, o); s > 0 {
		maxW := r.Limits.Max
		if ov, ok := p.overrides[r.Key]; ok && ov > maxW {
			maxW = ov
		}
		if maxW > 0 && s > maxW {
			s = maxW
		}
		window = s
	}
	if window <= 0 {
		return time.Time{}, false
	}
	from := since(r.Since, o)
	if from.IsZero() {
		return time.Time{}, false
	}
	return from.Add(window), true
}

func setting(s Setting, o Object) time.Duration {
	switch s {
	case SettingTimeout:
		return o.Timeout
	case SettingIdleTimeout:
		return o.IdleTimeout
	case SettingAutoArchiveAfter:
		return o.AutoArchiveAfter
	case SettingAutoDeleteAfter:
		return o.AutoDeleteAfter
	case SettingTTL:
		return o.TTL
	}
	return 0
}

func since(s Since, o Object) time.Time {
	switch s {
	case SinceCreated:
		return o.CreatedAt
	case SinceStarted:
		return o.StartedAt
	case SinceStateSince:
		return o.StateSince
	case SinceLastUsed:
		return o.LastUsedAt
	}
	return time.Time{}
}

func action(r Rule, o Object) Action {
	if r.ActionFromOnTimeout {
		switch a := Action(o.OnTimeout); a {
		case ActionKill, ActionPause, ActionStop:
			return a
		}
	}
	return r.Action
}

// Status judges a deadline at `now`: "expired" once it has passed,
// "expiring" when it falls within warnBefore, "ok" otherwise or when there
// is no deadline.
func Status(d Deadline, ok bool, now time.Time, warnBefore time.Duration) string {
	switch {
	case !ok:
		return StatusOK
	case !now.Before(d.At):
		return StatusExpired
	case d.At.Sub(now) <= warnBefore:
		return StatusExpiring
	}
	return StatusOK
}

// Retention statuses, as the sbx_sandboxes data source and the drift
// command spell them.
const (
	StatusOK       = "ok"
	StatusExpiring = "expiring"
	StatusExpired  = "expired"
)
