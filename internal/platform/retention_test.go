package platform

import (
	"fmt"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

func TestRetentionTable(t *testing.T) {
	row := func(p, key string) retention.Rule {
		return retention.Rule{Key: key, Platform: p, Object: retention.Sandbox, State: retention.StatePaused,
			Since: retention.SinceStateSince, Action: retention.ActionDelete, Source: "test"}
	}
	defs := []Definition{
		{Name: "one", Title: "One", Retention: []retention.Rule{row("one", "paused_sandbox"), row("one", "kept_sandbox")}},
		{Name: "none", Title: "None"},
		{Name: "two", Title: "Two", Retention: []retention.Rule{row("two", "paused_sandbox")}},
	}
	table := RetentionTable(defs)
	if got := fmt.Sprint(table.Platforms()); got != "[one two]" {
		t.Errorf("Platforms() = %s, want [one two]: the definitions' order, platforms without rows left out", got)
	}
	if got := len(table.Rules()); got != 3 {
		t.Errorf("%d rows, want 3", got)
	}
	if got := fmt.Sprint(table.Keys()); got != "[kept_sandbox paused_sandbox]" {
		t.Errorf("Keys() = %s", got)
	}
	if len(RetentionTable(nil).Rules()) != 0 {
		t.Error("no platforms, yet rows")
	}
	if got := fmt.Sprint(RetentionTitles(defs)); got != "map[none:None one:One two:Two]" {
		t.Errorf("RetentionTitles = %s", got)
	}
}
