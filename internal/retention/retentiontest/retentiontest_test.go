package retentiontest

import (
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

var (
	testRule = retention.Rule{Key: "paused_sandbox", Platform: "p", Object: retention.Sandbox, State: retention.StatePaused,
		Window: time.Hour, Since: retention.SinceStateSince, Action: retention.ActionDelete, Enforced: true, Source: "s"}
	testCase = Case{Key: "paused_sandbox", Platform: "p", Object: retention.Sandbox, State: retention.StatePaused,
		Window: time.Hour, Since: retention.SinceStateSince, Action: retention.ActionDelete, Enforced: true}
)

func TestCheckRules(t *testing.T) {
	CheckRules(t, []retention.Rule{testRule}, []Case{testCase})
}

func TestMismatches(t *testing.T) {
	if m := Mismatches([]retention.Rule{testRule}, []Case{testCase}); len(m) != 0 {
		t.Errorf("a matching row and case: %v", m)
	}
	otherState := testCase
	otherState.State = retention.StateStopped
	changed := testCase
	changed.Window = 2 * time.Hour
	sourceless := testRule
	sourceless.Source = ""
	for _, c := range []struct {
		name  string
		rules []retention.Rule
		cases []Case
		want  string
	}{
		{"a row without a case", []retention.Rule{testRule}, nil, "row paused_sandbox|p|sandbox|paused has no case"},
		{"a case without a row", nil, []Case{testCase}, "case paused_sandbox|p|sandbox|paused has no row"},
		{"a case of another state", []retention.Rule{testRule}, []Case{otherState}, "case paused_sandbox|p|sandbox|stopped has no row"},
		{"a case twice", []retention.Rule{testRule}, []Case{testCase, testCase}, "duplicate case"},
		{"a row saying otherwise", []retention.Rule{testRule}, []Case{changed}, "its case says"},
		{"a malformed row", []retention.Rule{sourceless}, []Case{testCase}, "no source"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := Mismatches(c.rules, c.cases)
			if !strings.Contains(strings.Join(m, "\n"), c.want) {
				t.Errorf("mismatches %q lack %q", m, c.want)
			}
		})
	}
}

func TestSinceAndSetSetting(t *testing.T) {
	o := anchors(testRule)
	for s, want := range map[retention.Since]time.Time{
		retention.SinceCreated: o.CreatedAt, retention.SinceStarted: o.StartedAt,
		retention.SinceStateSince: o.StateSince, retention.SinceLastUsed: o.LastUsedAt, "other": {},
	} {
		if got := Since(s, o); !got.Equal(want) {
			t.Errorf("Since(%s) = %s, want %s", s, got, want)
		}
	}
	for i, s := range []retention.Setting{retention.SettingTimeout, retention.SettingIdleTimeout, retention.SettingAutoArchiveAfter,
		retention.SettingAutoDeleteAfter, retention.SettingTTL} {
		SetSetting(&o, s, time.Duration(i+1))
	}
	if o.Timeout != 1 || o.IdleTimeout != 2 || o.AutoArchiveAfter != 3 || o.AutoDeleteAfter != 4 || o.TTL != 5 {
		t.Errorf("SetSetting: %+v", o)
	}
}
