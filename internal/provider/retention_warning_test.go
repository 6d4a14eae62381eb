package provider

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

var retentionTestNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestRetentionWarning(t *testing.T) {
	docker := retention.Deadline{At: retentionTestNow.Add(5 * time.Hour), Rule: "paused_sandbox", Action: retention.ActionDelete}
	enforced := retention.Deadline{At: retentionTestNow.Add(-2 * time.Hour), Rule: "running_sandbox", Action: retention.ActionKill, Enforced: true}
	tests := []struct {
		name     string
		platform string
		d        retention.Deadline
		warn     time.Duration
		planned  bool
		want     []string // substrings of summary + detail; nil = no warning
	}{
		{name: "far away: no warning", platform: "docker", d: docker, warn: time.Hour},
		{name: "expiring", platform: "docker", d: docker, warn: 72 * time.Hour, want: []string{
			"Sandbox retention deadline in 5h",
			"This sandbox expires in 5h: on docker the paused_sandbox rule will delete it at 2026-03-01T17:00:00Z.",
			"docker does not enforce this deadline", "retention.paused_sandbox", "retention.warn_before (3d)"}},
		{name: "expired", platform: testplatName, d: enforced, warn: time.Hour, want: []string{
			"Sandbox past its retention deadline",
			"This sandbox expired 2h ago: on testplat the running_sandbox rule was to kill it at 2026-03-01T10:00:00Z.",
			"testplat acts on this deadline by itself."}},
		{name: "planned", platform: "docker", d: docker, warn: 6 * time.Hour, planned: true, want: []string{
			"Once applied, this sandbox expires in 5h"}},
		{name: "at the deadline is expired", platform: "docker", d: retention.Deadline{At: retentionTestNow, Rule: "r", Action: retention.ActionStop},
			warn: 0, want: []string{"expired 0s ago", "the r rule was to stop it"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			summary, detail, ok := retentionWarning("sandbox", tt.platform, tt.d, retentionTestNow, tt.warn, tt.planned)
			if tt.want == nil {
				if ok {
					t.Fatalf("want no warning, got %q: %q", summary, detail)
				}
				return
			}
			if !ok {
				t.Fatal("want a warning, got none")
			}
			for _, w := range tt.want {
				if !strings.Contains(summary+"\n"+detail, w) {
					t.Errorf("warning %q: %q lacks %q", summary, detail, w)
				}
			}
		})
	}
}

// TestAddRetentionWarningPointsAtExpiresAt: the warning is attached to
// expires_at, so Terraform prints the resource address with it.
func TestAddRetentionWarningPointsAtExpiresAt(t *testing.T) {
	var diags diag.Diagnostics
	d := retention.Deadline{At: retentionTestNow.Add(time.Hour), Rule: "volume_snapshot", Action: retention.ActionExpire, Enforced: true}
	addRetentionWarning(&diags, "snapshot", "fly", d, retentionTestNow, 2*time.Hour, false)
	if diags.WarningsCount() != 1 {
		t.Fatalf("want one warning, got %v", diags)
	}
	w, ok := diags.Warnings()[0].(diag.DiagnosticWithPath)
	if !ok || !w.Path().Equal(pathExpiresAt) {
		t.Fatalf("warning not attached to expires_at: %#v", diags.Warnings()[0])
	}
	if !strings.Contains(w.Summary(), "Snapshot retention deadline in 1h") {
		t.Errorf("summary %q", w.Summary())
	}
}

func TestAddGoneOrExpiredWarning(t *testing.T) {
	past := retentionFields{ExpiresAt: types.StringValue("2026-03-01T10:00:00Z"), Status: types.StringValue("expired"),
		Rule: types.StringValue("paused_sandbox"), Action: types.StringValue("delete")}
	future := past
	future.ExpiresAt = types.StringValue("2026-03-02T10:00:00Z")
	none := retentionFields{ExpiresAt: types.StringNull(), Status: types.StringValue("ok"), Rule: types.StringNull(), Action: types.StringNull()}
	const reason = "finished: timed out (exit code 124)"
	tests := []struct {
		name   string
		f      retentionFields
		reason string
		want   []string
		reject []string // substrings the warning must not hold
	}{
		{name: "past its deadline", f: past, want: []string{"Sandbox removed at its retention deadline",
			`The sandbox "box1" is no longer on docker. Its retention deadline passed at 2026-03-01T10:00:00Z: the paused_sandbox rule was to delete it then`,
			"removed from the state, and the plan will create it again"}, reject: []string{"says why"}},
		{name: "past its deadline, with the platform's reason", f: past, reason: reason, want: []string{
			"removed at its retention deadline", "The platform says why it is gone: " + reason + ". It has been removed"}},
		{name: "deadline not reached: plain gone warning", f: future, want: []string{"sandbox no longer exists", "deleted outside Terraform"},
			reject: []string{"says why"}},
		{name: "deadline not reached, with the platform's reason", f: future, reason: reason + ".", want: []string{
			"sandbox no longer exists", "The platform says why it is gone: " + reason + ". It has been removed"},
			reject: []string{".."}},
		{name: "no deadline: plain gone warning", f: none, want: []string{"sandbox no longer exists"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var diags diag.Diagnostics
			addGoneOrExpiredWarning(&diags, "sandbox", "box1", "docker", tt.f, retentionTestNow, tt.reason)
			if diags.WarningsCount() != 1 || diags.HasError() {
				t.Fatalf("want exactly one warning, got %v", diags)
			}
			text := diags[0].Summary() + "\n" + diags[0].Detail()
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("%q lacks %q", text, w)
				}
			}
			for _, w := range tt.reject {
				if strings.Contains(text, w) {
					t.Errorf("%q holds %q", text, w)
				}
			}
		})
	}
}

// TestRetentionRuleEnforced: whether a recorded rule is enforced comes from
// the registered platform's row: every registered platform's rule keys say
// what their rows say, a key the platform has no row for and a platform not
// registered are not enforced, and a deadline read back from state carries
// it.
func TestRetentionRuleEnforced(t *testing.T) {
	seen := map[bool]bool{}
	for _, def := range platforms.All() {
		keys := map[string]bool{}
		for _, r := range def.Retention {
			keys[r.Key] = true
			seen[r.Enforced] = true
			if got := retentionRuleEnforced(def.Name, r.Key); got != r.Enforced {
				t.Errorf("retentionRuleEnforced(%q, %q) = %v, want %v (its row)", def.Name, r.Key, got, r.Enforced)
			}
		}
		for _, r := range platform.RetentionTable(platforms.All()).Rules() {
			if !keys[r.Key] && retentionRuleEnforced(def.Name, r.Key) {
				t.Errorf("retentionRuleEnforced(%q, %q) = true, but %s has no %s row", def.Name, r.Key, def.Name, r.Key)
			}
		}
		for _, r := range def.Retention {
			d, ok := retentionDeadlineFromState(def.Name, retentionFields{ExpiresAt: types.StringValue("2026-03-01T10:00:00Z"),
				Rule: types.StringValue(r.Key), Action: types.StringValue(string(r.Action))})
			if !ok || d.Enforced != r.Enforced || d.Rule != r.Key || d.Action != r.Action {
				t.Errorf("%s: deadline from state: %+v %v, want rule %s, action %s, enforced %v", def.Name, d, ok, r.Key, r.Action, r.Enforced)
			}
		}
	}
	for _, c := range []struct{ platform, key string }{
		{testplatName, "running_sandbox"}, {"nowhere", "memory_snapshot"}, {"", ""},
	} {
		if retentionRuleEnforced(c.platform, c.key) {
			t.Errorf("retentionRuleEnforced(%q, %q) = true for a platform not registered", c.platform, c.key)
		}
	}
	if !seen[true] || !seen[false] {
		t.Logf("the registered platforms' rows are all enforced = %v: only that case is checked", seen[true])
	}
}
