// Package retentiontest checks a platform's retention rows against a list
// of expected cases, one per row: the numbers come from the platform's
// research notes, so a row changed or added without its case fails the
// test of the package that declares it.
package retentiontest

import (
	"fmt"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// Case pins one row: its identity (key, platform, object, state) and what
// it says.
type Case struct {
	Key, Platform, Object, State string
	Window                       time.Duration
	Since                        retention.Since
	Action                       retention.Action
	Setting                      retention.Setting
	Max                          time.Duration
	Reported, Enforced           bool
}

// ID names a row or case in messages and subtests.
func ID(key, platform, object, state string) string {
	return key + "|" + platform + "|" + object + "|" + state
}

func (c Case) id() string { return ID(c.Key, c.Platform, c.Object, c.State) }

func ruleID(r retention.Rule) string { return ID(r.Key, r.Platform, r.Object, r.State) }

// CheckRules fails t unless rules match cases (Mismatches) and every rule
// behaves as its case says: its default window (or no deadline), an
// override replacing it, the object's own setting replacing both and cut
// to the maximum, a reported deadline winning only where the row says so,
// no deadline without the moment it counts from, and on_timeout replacing
// the action only where the row lets it.
func CheckRules(t *testing.T, rules []retention.Rule, cases []Case) {
	t.Helper()
	for _, m := range Mismatches(rules, cases) {
		t.Error(m)
	}
	byID := map[string]Case{}
	for _, c := range cases {
		byID[c.id()] = c
	}
	for _, r := range rules {
		if c, ok := byID[ruleID(r)]; ok && sameFields(r, c) {
			t.Run(ruleID(r), func(t *testing.T) { checkRule(t, r, c) })
		}
	}
}

// Mismatches lists what keeps rules and cases from matching one to one:
// malformed rows (Table.Check), a rule without a case, a case without a
// rule, a case given twice, and a rule that says other than its case.
func Mismatches(rules []retention.Rule, cases []Case) []string {
	var out []string
	if err := retention.NewTable(rules).Check(); err != nil {
		out = append(out, err.Error())
	}
	byID := map[string]Case{}
	for _, c := range cases {
		if _, dup := byID[c.id()]; dup {
			out = append(out, "duplicate case "+c.id())
		}
		byID[c.id()] = c
	}
	seen := map[string]bool{}
	for _, r := range rules {
		id := ruleID(r)
		seen[id] = true
		c, ok := byID[id]
		switch {
		case !ok:
			out = append(out, "row "+id+" has no case")
		case !sameFields(r, c):
			out = append(out, fmt.Sprintf("row %s = %+v, its case says %+v", id, r, c))
		}
	}
	for _, c := range cases {
		if !seen[c.id()] {
			out = append(out, "case "+c.id()+" has no row")
		}
	}
	return out
}

func sameFields(r retention.Rule, c Case) bool {
	return r.Object == c.Object && r.Window == c.Window && r.Since == c.Since && r.Action == c.Action &&
		r.Setting == c.Setting && r.Limits.Max == c.Max && r.Reported == c.Reported && r.Enforced == c.Enforced
}

// anchors sets every moment to a distinct time, so a rule counting from the
// wrong one is caught.
func anchors(r retention.Rule) retention.Object {
	base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	return retention.Object{
		Platform: r.Platform, Kind: r.Object, State: r.State,
		CreatedAt:  base,
		StartedAt:  base.Add(1 * time.Hour),
		StateSince: base.Add(2 * time.Hour),
		LastUsedAt: base.Add(3 * time.Hour),
	}
}

// Since returns the moment of o a window counting from s starts at.
func Since(s retention.Since, o retention.Object) time.Time {
	switch s {
	case retention.SinceCreated:
		return o.CreatedAt
	case retention.SinceStarted:
		return o.StartedAt
	case retention.SinceStateSince:
		return o.StateSince
	case retention.SinceLastUsed:
		return o.LastUsedAt
	}
	return time.Time{}
}

// SetSetting sets the object's setting s to d.
func SetSetting(o *retention.Object, s retention.Setting, d time.Duration) {
	switch s {
	case retention.SettingTimeout:
		o.Timeout = d
	case retention.SettingIdleTimeout:
		o.IdleTimeout = d
	case retention.SettingAutoArchiveAfter:
		o.AutoArchiveAfter = d
	case retention.SettingAutoDeleteAfter:
		o.AutoDeleteAfter = d
	case retention.SettingTTL:
		o.TTL = d
	}
}

func checkRule(t *testing.T, r retention.Rule, c Case) {
	// The row alone, so every deadline below is this row's.
	table := retention.NewTable([]retention.Rule{r})
	policy := func(overrides map[string]time.Duration) retention.Policy {
		p, err := table.NewPolicy(overrides)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	deadline := func(p retention.Policy, o retention.Object) (time.Time, bool) {
		d, ok := p.Deadline(o, time.Time{})
		if ok && (d.Rule != r.Key || d.Source != r.Source || d.Enforced != r.Enforced) {
			t.Errorf("deadline %+v does not carry the row's key, source and enforcement", d)
		}
		return d.At, ok
	}
	o := anchors(r)
	anchor := Since(r.Since, o)
	p, po := policy(nil), policy(map[string]time.Duration{r.Key: 48 * time.Hour})

	// The table's own window, or no deadline.
	at, ok := deadline(p, o)
	if c.Window == 0 {
		if ok {
			t.Errorf("default: got deadline %s, want none", at)
		}
	} else if !ok || !at.Equal(anchor.Add(c.Window)) {
		t.Errorf("default: got %s %v, want %s", at, ok, anchor.Add(c.Window))
	}

	// An override replaces the window, even where the platform sets none.
	if at, ok := deadline(po, o); !ok || !at.Equal(anchor.Add(48*time.Hour)) {
		t.Errorf("override 48h: got %s %v, want %s", at, ok, anchor.Add(48*time.Hour))
	}

	// The object's own setting replaces both, cut to the platform's max.
	if c.Setting != retention.SettingNone {
		os := o
		SetSetting(&os, c.Setting, 3*time.Hour)
		if at, ok := deadline(po, os); !ok || !at.Equal(anchor.Add(3*time.Hour)) {
			t.Errorf("setting 3h: got %s %v, want %s", at, ok, anchor.Add(3*time.Hour))
		}
		if c.Max > 0 {
			SetSetting(&os, c.Setting, c.Max+time.Hour)
			if at, ok := deadline(p, os); !ok || !at.Equal(anchor.Add(c.Max)) {
				t.Errorf("setting over max: got %s %v, want clamped to %s", at, ok, anchor.Add(c.Max))
			}
		}
	}

	// A deadline the platform reports wins for reported rows only.
	reported := anchor.Add(5 * time.Minute)
	or := o
	or.PlatformExpiresAt = reported
	at, ok = deadline(po, or)
	if c.Reported && (!ok || !at.Equal(reported)) {
		t.Errorf("reported: got %s %v, want %s", at, ok, reported)
	}
	if !c.Reported && at.Equal(reported) {
		t.Errorf("reported deadline used by a row the platform does not report")
	}

	// Without the moment it counts from, the row cannot apply.
	oz := o
	switch r.Since {
	case retention.SinceCreated:
		oz.CreatedAt = time.Time{}
	case retention.SinceStarted:
		oz.StartedAt = time.Time{}
	case retention.SinceStateSince:
		oz.StateSince = time.Time{}
	case retention.SinceLastUsed:
		oz.LastUsedAt = time.Time{}
	}
	if at, ok := deadline(po, oz); ok {
		t.Errorf("unknown %s: got deadline %s, want none", r.Since, at)
	}

	// on_timeout replaces the action only where the platform lets it.
	for _, onTimeout := range []string{"", string(retention.ActionPause)} {
		want := c.Action
		if onTimeout != "" && r.ActionFromOnTimeout {
			want = retention.Action(onTimeout)
		}
		oa := o
		oa.OnTimeout = onTimeout
		if d, ok := po.Deadline(oa, time.Time{}); !ok || d.Action != want {
			t.Errorf("action with on_timeout=%q = %s (deadline %v), want %s", onTimeout, d.Action, ok, want)
		}
	}
}

// DeadlineCase is one expectation of how a platform's rows combine: the
// deadline Obj gets under Overrides (WantOK false: none).
type DeadlineCase struct {
	Name       string
	Overrides  map[string]time.Duration
	Obj        retention.Object
	WantOK     bool
	WantAt     time.Time
	WantRule   string
	WantAction retention.Action
}

// CheckDeadlines runs the cases against table at now, each as a subtest.
// enforced is what every deadline must say of itself: whether the platform
// acts on it (and then cites its source) or the provider only tracks it.
func CheckDeadlines(t *testing.T, table retention.Table, now time.Time, enforced bool, cases []DeadlineCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			p, err := table.NewPolicy(c.Overrides)
			if err != nil {
				t.Fatal(err)
			}
			d, ok := p.Deadline(c.Obj, now)
			if ok != c.WantOK {
				t.Fatalf("ok = %v, want %v (%+v)", ok, c.WantOK, d)
			}
			if !ok {
				return
			}
			if !d.At.Equal(c.WantAt) || d.Rule != c.WantRule || d.Action != c.WantAction || d.Enforced != enforced ||
				(enforced && d.Source == "") {
				t.Fatalf("got %+v, want at=%s rule=%s action=%s enforced=%v", d, c.WantAt, c.WantRule, c.WantAction, enforced)
			}
		})
	}
}
