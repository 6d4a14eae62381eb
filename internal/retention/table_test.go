package retention

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Two made-up platforms, so this package's tests hold no real platform's
// rows (those are tested where they are declared): "tracked" acts on
// nothing by itself, like a local engine; "enforced" kills, deletes and
// deactivates on its own clock, like a cloud platform.
var (
	testTracked = []Rule{
		{Key: "running_sandbox", Platform: "tracked", Object: Sandbox, State: StateRunning, Since: SinceStarted, Action: ActionKill,
			ActionFromOnTimeout: true, Setting: SettingTimeout, Source: "tracked: no deadline of its own"},
		{Key: "paused_sandbox", Platform: "tracked", Object: Sandbox, State: StatePaused, Since: SinceStateSince, Action: ActionDelete,
			Source: "tracked: no deadline of its own"},
		{Key: "old_template", Platform: "tracked", Object: Template, State: TemplateReady, Since: SinceCreated, Action: ActionDelete,
			Source: "tracked: no deadline of its own"},
	}
	testEnforced = []Rule{
		{Key: "running_sandbox", Platform: "enforced", Object: Sandbox, State: StateRunning, Window: 5 * time.Minute, Since: SinceStarted,
			Action: ActionKill, ActionFromOnTimeout: true, Setting: SettingTimeout, Limits: Limits{Min: time.Second, Max: day},
			Reported: true, Enforced: true, Source: "enforced: timeout"},
		{Key: "max_runtime", Platform: "enforced", Object: Sandbox, State: StateRunning, Window: time.Hour, Since: SinceStarted,
			Action: ActionKill, ActionFromOnTimeout: true, Limits: Limits{Max: day}, Enforced: true, Source: "enforced: runtime cap"},
		{Key: "paused_sandbox", Platform: "enforced", Object: Sandbox, State: StatePaused, Since: SinceCreated, Action: ActionDelete,
			Enforced: true, Source: "enforced: paused kept"},
		{Key: "memory_snapshot", Platform: "enforced", Object: Snapshot, State: KindMemory, Since: SinceCreated, Action: ActionDelete,
			Reported: true, Enforced: true, Source: "enforced: snapshots"},
		{Key: "unused_template", Platform: "enforced", Object: Template, State: TemplateReady, Window: 14 * day, Since: SinceLastUsed,
			Action: ActionDeactivate, Enforced: true, Source: "enforced: unused templates"},
	}
)

func testTable() Table { return NewTable(testTracked, testEnforced) }

func TestNewTable(t *testing.T) {
	tbl := testTable()
	if err := tbl.Check(); err != nil {
		t.Fatal(err)
	}
	rules := tbl.Rules()
	if len(rules) != len(testTracked)+len(testEnforced) || rules[0].Platform != "tracked" || rules[len(rules)-1].Key != "unused_template" {
		t.Errorf("Rules() = %v: want the sets joined in order", rules)
	}
	rules[0].Window = time.Hour
	if tbl.Rules()[0].Window != 0 {
		t.Error("Rules() returned the table's own rows")
	}
	in := []Rule{testTracked[0]}
	own := NewTable(in)
	in[0].Window = time.Hour
	if own.Rules()[0].Window != 0 {
		t.Error("NewTable kept the caller's slice")
	}
	if got := fmt.Sprint(tbl.Platforms()); got != "[tracked enforced]" {
		t.Errorf("Platforms() = %s, want registration order [tracked enforced]", got)
	}
	if got := fmt.Sprint(tbl.Keys()); got != "[max_runtime memory_snapshot old_template paused_sandbox running_sandbox unused_template]" {
		t.Errorf("Keys() = %s", got)
	}
	if got := fmt.Sprint(tbl.Only("tracked").Keys()); got != "[old_template paused_sandbox running_sandbox]" {
		t.Errorf("Only(tracked).Keys() = %s", got)
	}
	if got := tbl.Only("nowhere").Rules(); len(got) != 0 {
		t.Errorf("Only(nowhere) = %v, want no rows", got)
	}
	for _, c := range []struct {
		platform, key string
		want          bool
	}{
		{"enforced", "max_runtime", true}, {"tracked", "running_sandbox", false},
		{"tracked", "max_runtime", false}, {"nowhere", "running_sandbox", false},
	} {
		if got := tbl.Enforced(c.platform, c.key); got != c.want {
			t.Errorf("Enforced(%s, %s) = %v, want %v", c.platform, c.key, got, c.want)
		}
	}
}

// TestZeroTable: a table of no platforms has no rows, gives no deadline,
// and accepts no override.
func TestZeroTable(t *testing.T) {
	var tbl Table
	if len(tbl.Rules()) != 0 || len(tbl.Keys()) != 0 || len(tbl.Platforms()) != 0 || tbl.Check() != nil {
		t.Errorf("zero table: rules %v keys %v platforms %v check %v", tbl.Rules(), tbl.Keys(), tbl.Platforms(), tbl.Check())
	}
	if _, ok := (Policy{}).Deadline(Object{Platform: "enforced", Kind: Sandbox, State: StateRunning, StartedAt: t0}, t0); ok {
		t.Error("the zero policy gave a deadline")
	}
	_, err := tbl.NewPolicy(map[string]time.Duration{"paused_sandbox": time.Hour})
	if err == nil || !strings.Contains(err.Error(), `"paused_sandbox"`) || !strings.Contains(err.Error(), "no rule has a key") {
		t.Errorf("err = %v, want one naming the key and saying no rule has one", err)
	}
	if _, err := tbl.NewPolicy(nil); err != nil {
		t.Errorf("no overrides: %v", err)
	}
}

func TestTableCheck(t *testing.T) {
	good := testEnforced[0]
	bad := func(f func(r *Rule)) Rule {
		r := good
		f(&r)
		return r
	}
	cases := []struct {
		name string
		row  Rule
		want string
	}{
		{"no key", bad(func(r *Rule) { r.Key = "" }), "key, platform and state must all be set"},
		{"no platform", bad(func(r *Rule) { r.Platform = "" }), "key, platform and state must all be set"},
		{"no state", bad(func(r *Rule) { r.State = "" }), "key, platform and state must all be set"},
		{"no source", bad(func(r *Rule) { r.Source = "" }), "no source"},
		{"object", bad(func(r *Rule) { r.Object = "volume" }), `unknown object kind "volume"`},
		{"since", bad(func(r *Rule) { r.Since = "yesterday" }), `unknown moment "yesterday"`},
		{"action", bad(func(r *Rule) { r.Action = "explode" }), `unknown action "explode"`},
		{"setting", bad(func(r *Rule) { r.Setting = "lifetime" }), `unknown setting "lifetime"`},
		{"negative window", bad(func(r *Rule) { r.Window = -time.Hour }), "negative window or limit"},
		{"negative limit", bad(func(r *Rule) { r.Limits.Max = -time.Hour }), "negative window or limit"},
		{"repeated row", good, "repeats an earlier row"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := NewTable([]Rule{good}, []Rule{c.row}).Check()
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "row 1 (") {
				t.Errorf("err = %v, want one naming row 1 and %q", err, c.want)
			}
		})
	}
	// Rows that differ only in state are two rows, not one repeated.
	other := good
	other.State = StatePaused
	if err := NewTable([]Rule{good, other}).Check(); err != nil {
		t.Errorf("two states of one key: %v", err)
	}
}

// TestTemplateKind: a template's rules count from its creation or its last
// use, like a snapshot's, and match only templates.
func TestTemplateKind(t *testing.T) {
	if Template != "template" || TemplateReady != "ready" {
		t.Fatalf("Template = %q, TemplateReady = %q: the names are user-facing", Template, TemplateReady)
	}
	p, err := testTable().NewPolicy(map[string]time.Duration{"old_template": 30 * day})
	if err != nil {
		t.Fatal(err)
	}
	tpl := Object{Platform: "enforced", Kind: Template, State: TemplateReady, CreatedAt: t0, LastUsedAt: t0.Add(2 * day)}
	d, ok := p.Deadline(tpl, t0)
	if !ok || !d.At.Equal(t0.Add(16*day)) || d.Rule != "unused_template" || d.Action != ActionDeactivate || !d.Enforced {
		t.Errorf("unused template: got %+v %v, want deactivate 14 days after last use", d, ok)
	}
	tpl.Platform = "tracked"
	d, ok = p.Deadline(tpl, t0)
	if !ok || !d.At.Equal(t0.Add(30*day)) || d.Rule != "old_template" || d.Action != ActionDelete || d.Enforced {
		t.Errorf("tracked template with an override: got %+v %v, want delete 30 days after creation, tracked only", d, ok)
	}
	// A template is not a snapshot, nor a sandbox, whatever its state says.
	for _, kind := range []string{Snapshot, Sandbox} {
		o := tpl
		o.Platform, o.Kind = "enforced", kind
		if d, ok := p.Deadline(o, t0); ok {
			t.Errorf("%s in state %s got a template's deadline %+v", kind, o.State, d)
		}
	}
	// A template never used has no last use to count from.
	if d, ok := p.Deadline(Object{Platform: "enforced", Kind: Template, State: TemplateReady, CreatedAt: t0}, t0); ok {
		t.Errorf("never-used template: got %+v, want none", d)
	}
}
