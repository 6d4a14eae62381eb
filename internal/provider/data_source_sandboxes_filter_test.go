package provider

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// sandboxesFilterBoxes are Docker boxes with known deadlines at
// sandboxesFilterNow: "old" expired an hour ago, "soon" expires in an hour,
// "far" in ten days, "none" has no deadline (paused, no override).
var sandboxesFilterNow = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func sandboxesFilterBoxes() []platform.Sandbox {
	t := sandboxesFilterNow
	return []platform.Sandbox{
		{ID: "b-soon", Status: platform.StateRunning, CreatedAt: t.Add(-2 * time.Hour), StartedAt: t.Add(-2 * time.Hour),
			Lifecycle: platform.Lifecycle{Timeout: 3 * time.Hour, OnTimeout: platform.OnTimeoutStop}, Labels: map[string]string{"team": "a", "env": "ci"}},
		{ID: "b-old", Status: platform.StateRunning, CreatedAt: t.Add(-5 * time.Hour), StartedAt: t.Add(-5 * time.Hour),
			Lifecycle: platform.Lifecycle{Timeout: 4 * time.Hour}, Labels: map[string]string{"team": "a"}},
		{ID: "b-far", Status: platform.StateRunning, CreatedAt: t.Add(-time.Hour), StartedAt: t.Add(-time.Hour),
			Lifecycle: platform.Lifecycle{Timeout: 241 * time.Hour}, Labels: map[string]string{"team": "b"}},
		{ID: "b-none", Status: platform.StatePaused, CreatedAt: t.Add(-3 * time.Hour), StartedAt: t.Add(-3 * time.Hour),
			Labels: map[string]string{"team": "a", platform.LabelManaged: "true"}},
		// Same created_at as b-far: the id decides, whatever the listing order.
		{ID: "a-tie", Status: platform.StateStopped, CreatedAt: t.Add(-time.Hour), Labels: nil},
	}
}

func TestSelectSandboxes(t *testing.T) {
	policy := retentionTestPolicy(t, nil)
	judge := func(sb platform.Sandbox) retentionFields {
		return sandboxesFilterJudge(policy, sb)
	}
	cases := []struct {
		name string
		q    sandboxQuery
		want []string
	}{
		{"no filters: all, newest first, ties by id", sandboxQuery{}, []string{"a-tie", "b-far", "b-soon", "b-none", "b-old"}},
		{"one label", sandboxQuery{Labels: map[string]string{"team": "a"}}, []string{"b-soon", "b-none", "b-old"}},
		{"all labels must match", sandboxQuery{Labels: map[string]string{"team": "a", "env": "ci"}}, []string{"b-soon"}},
		{"label value must match", sandboxQuery{Labels: map[string]string{"team": "c"}}, []string{}},
		{"status", sandboxQuery{Status: platform.StatePaused}, []string{"b-none"}},
		{"expired", sandboxQuery{RetentionStatus: retention.StatusExpired}, []string{"b-old"}},
		{"expiring", sandboxQuery{RetentionStatus: retention.StatusExpiring}, []string{"b-soon"}},
		{"ok includes boxes without a deadline", sandboxQuery{RetentionStatus: retention.StatusOK}, []string{"a-tie", "b-far", "b-none"}},
		{"filters combine", sandboxQuery{Labels: map[string]string{"team": "a"}, Status: platform.StateRunning, RetentionStatus: retention.StatusExpired}, []string{"b-old"}},
		{"status and retention exclude each other", sandboxQuery{Status: platform.StatePaused, RetentionStatus: retention.StatusExpired}, []string{}},
		{"stopped, pause kind reported", sandboxQuery{Status: platform.StateStopped}, []string{"a-tie"}},
		{"paused, pause kind unreported: every paused or stopped box", sandboxQuery{Status: platform.StatePaused, PauseKindUnreported: true}, []string{"a-tie", "b-none"}},
		{"stopped, pause kind unreported: every paused or stopped box", sandboxQuery{Status: platform.StateStopped, PauseKindUnreported: true}, []string{"a-tie", "b-none"}},
		{"running, pause kind unreported: unchanged", sandboxQuery{Status: platform.StateRunning, PauseKindUnreported: true}, []string{"b-far", "b-soon", "b-old"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := sandboxesFilterBoxes()
			before := slices.Clone(in)
			got := selectSandboxes(in, c.q, judge)
			ids := make([]string, 0, len(got))
			for _, m := range got {
				ids = append(ids, m.Sandbox.ID)
			}
			if !slices.Equal(ids, c.want) {
				t.Errorf("ids = %v, want %v", ids, c.want)
			}
			// The listing order must not matter.
			rev := slices.Clone(in)
			slices.Reverse(rev)
			ids2 := []string{}
			for _, m := range selectSandboxes(rev, c.q, judge) {
				ids2 = append(ids2, m.Sandbox.ID)
			}
			if !slices.Equal(ids2, c.want) {
				t.Errorf("reversed input: ids = %v, want %v", ids2, c.want)
			}
			for i := range in {
				if in[i].ID != before[i].ID {
					t.Fatal("selectSandboxes reordered its input")
				}
			}
		})
	}
}

// TestSandboxResultObject checks the rendered retention fields: the deadline
// the policy gives, its rule and action, and nulls without a deadline.
func TestSandboxResultObject(t *testing.T) {
	policy := retentionTestPolicy(t, nil)
	byID := map[string]platform.Sandbox{}
	for _, sb := range sandboxesFilterBoxes() {
		byID[sb.ID] = sb
	}
	cases := []struct {
		id                            string
		status, expires, rule, action string
	}{
		{"b-soon", "expiring", "2026-05-01T13:00:00Z", "running_sandbox", "stop"},
		{"b-old", "expired", "2026-05-01T11:00:00Z", "running_sandbox", "kill"},
		{"b-far", "ok", "2026-05-11T12:00:00Z", "running_sandbox", "kill"},
		{"b-none", "ok", "", "", ""},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			sb := byID[c.id]
			obj, diags := sandboxResultObject(sandboxMatch{Sandbox: sb, Retention: sandboxesFilterJudge(policy, sb)})
			if diags.HasError() {
				t.Fatal(diags)
			}
			attrs := obj.Attributes()
			str := func(k string) string {
				s := attrs[k].String()
				if attrs[k].IsNull() {
					return ""
				}
				return s[1 : len(s)-1] // unquote the rendered string
			}
			if got := str("retention_status"); got != c.status {
				t.Errorf("retention_status = %q, want %q", got, c.status)
			}
			if got := str("expires_at"); got != c.expires {
				t.Errorf("expires_at = %q, want %q", got, c.expires)
			}
			if got := str("retention_rule"); got != c.rule {
				t.Errorf("retention_rule = %q, want %q", got, c.rule)
			}
			if got := str("retention_action"); got != c.action {
				t.Errorf("retention_action = %q, want %q", got, c.action)
			}
			if got := str("template_id"); got != "" {
				t.Errorf("template_id = %q, want null", got)
			}
			if labels := attrs["labels"].String(); c.id == "b-none" && labels != `{"team":"a"}` {
				t.Errorf("labels = %s, want the reserved label dropped", labels)
			}
		})
	}
}

func TestSandboxesMDList(t *testing.T) {
	for in, want := range map[string]string{
		"":      "",
		"a":     "`a`",
		"a,b":   "`a` or `b`",
		"a,b,c": "`a`, `b` or `c`",
	} {
		var vals []string
		if in != "" {
			vals = strings.Split(in, ",")
		}
		if got := sandboxesMDList(vals); got != want {
			t.Errorf("sandboxesMDList(%q) = %q, want %q", in, got, want)
		}
	}
}

// sandboxesFilterJudge judges a Docker box at sandboxesFilterNow with a 72h
// warning, as the data source does.
func sandboxesFilterJudge(policy retention.Policy, sb platform.Sandbox) retentionFields {
	d, ok := policy.Deadline(sandboxRetentionObject("docker", sb), sandboxesFilterNow)
	return retentionFieldsOf(d, ok, sandboxesFilterNow, 72*time.Hour)
}
