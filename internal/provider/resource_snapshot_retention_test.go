package provider

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

func TestSnapshotSetRetention(t *testing.T) {
	created := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	clock := clock.NewFake(created.Add(6 * 24 * time.Hour))
	tests := []struct {
		name     string
		platform string
		kind     platform.SnapshotKind
		ttl      string
		reported time.Time
		// overrides of the policy of the registered platforms.
		overrides map[string]time.Duration
		want      [4]string // expires_at, the judgement a plan warns on, rule, action ("" = null)
	}{
		{name: "docker: no deadline", platform: "docker", kind: platform.SnapshotFilesystem,
			want: [4]string{"", "ok", "", ""}},
		{name: "docker with an override", platform: "docker", kind: platform.SnapshotFilesystem, overrides: map[string]time.Duration{"filesystem_snapshot": 7 * 24 * time.Hour},
			want: [4]string{"2026-05-08T00:00:00Z", "expiring", "filesystem_snapshot", "expire"}},
		{name: "fly: table default 5 days, expired", platform: "fly", kind: platform.SnapshotVolume,
			want: [4]string{"2026-05-06T00:00:00Z", "expired", "volume_snapshot", "expire"}},
		{name: "ttl replaces the window", platform: "modal", kind: platform.SnapshotFilesystem, ttl: "240h",
			want: [4]string{"2026-05-11T00:00:00Z", "ok", "filesystem_snapshot", "expire"}},
		{name: "the platform's expiry wins", platform: "modal", kind: platform.SnapshotMemory, reported: created.Add(time.Hour),
			want: [4]string{"2026-05-01T01:00:00Z", "expired", "memory_snapshot", "expire"}},
		{name: "a reported expiry the rule marks as reported", platform: "docker", kind: platform.SnapshotVolume, reported: created.Add(8 * 24 * time.Hour),
			want: [4]string{"2026-05-09T00:00:00Z", "expiring", "volume_snapshot", "expire"}},
		{name: "a reported expiry no rule explains", platform: "daytona", kind: platform.SnapshotVolume, reported: created.Add(10 * 24 * time.Hour),
			want: [4]string{"2026-05-11T00:00:00Z", "ok", "", "expire"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := snapshotModel{CreatedAt: types.StringValue(created.Format(time.RFC3339)), Kind: types.StringValue(string(tt.kind)),
				TTL: types.StringNull()}
			if tt.ttl != "" {
				m.TTL = types.StringValue(tt.ttl)
			}
			rs := retentionSettings{policy: retentionTestPolicy(t, tt.overrides), warnBefore: 72 * time.Hour, clock: clock}
			snapshotSetRetention(&m, &platform.Snapshot{ExpiresAt: tt.reported}, tt.platform, rs)
			// The judgement is not stored: it is what a plan warns on, for
			// the deadline recorded.
			d, ok := snapshotDeadline(m, tt.platform, tt.reported, rs, rs.now())
			judged := types.StringValue(retention.Status(d, ok, rs.now(), rs.warnBefore))
			for i, v := range []types.String{m.ExpiresAt, judged, m.RetentionRule, m.RetentionAction} {
				if (tt.want[i] == "" && !v.IsNull()) || (tt.want[i] != "" && v.ValueString() != tt.want[i]) {
					t.Errorf("field %d = %s, want %q", i, v, tt.want[i])
				}
			}
			if m.Platform.ValueString() != tt.platform {
				t.Errorf("platform = %s", m.Platform)
			}
		})
	}
}

// TestSnapshotPlanRetention: an existing snapshot keeps its state values and
// warns near its deadline; a new one with a short ttl warns up front.
func TestSnapshotPlanRetention(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	rs := retentionSettings{policy: retentionTestPolicy(t, nil), warnBefore: 72 * time.Hour, clock: clock.NewFake(now)}
	// A snapshot in state under each registered platform's snapshot rules,
	// the warning saying who acts on the deadline by that platform's row.
	rules := 0
	for _, def := range platforms.All() {
		for _, r := range def.Retention {
			if r.Object != retention.Snapshot {
				continue
			}
			rules++
			state := snapshotModel{Platform: types.StringValue(def.Name), ExpiresAt: types.StringValue("2026-05-02T12:00:00Z"),
				RetentionRule:   types.StringValue(r.Key),
				RetentionAction: types.StringValue(string(r.Action))}
			plan := snapshotModel{ExpiresAt: types.StringUnknown(), RetentionRule: types.StringUnknown()}
			var diags diag.Diagnostics
			snapshotPlanRetention(&plan, &state, def.Name, rs, &diags)
			if !plan.ExpiresAt.Equal(state.ExpiresAt) || !plan.RetentionRule.Equal(state.RetentionRule) || !plan.Platform.Equal(state.Platform) {
				t.Errorf("%s %s: plan did not keep state: %+v", def.Name, r.Key, plan)
			}
			want := fmt.Sprintf("This snapshot expires in 1d: on %s the %s rule will %s it at 2026-05-02T12:00:00Z. ", def.Name, r.Key, r.Action)
			if r.Enforced {
				want += def.Name + " acts on this deadline by itself."
			} else {
				want += def.Name + " does not enforce this deadline"
			}
			if diags.WarningsCount() != 1 || !strings.Contains(diags.Warnings()[0].Detail(), want) {
				t.Errorf("%s %s: want the expiring warning %q, got %v", def.Name, r.Key, want, diags)
			}
		}
	}
	if rules == 0 {
		t.Fatal("no registered platform has a snapshot rule: nothing checked")
	}

	created := snapshotModel{Kind: types.StringValue("filesystem"), TTL: types.StringValue("24h")}
	var diags diag.Diagnostics
	snapshotPlanRetention(&created, nil, "modal", rs, &diags)
	if created.Platform.ValueString() != "modal" || diags.WarningsCount() != 1 ||
		!strings.Contains(diags.Warnings()[0].Detail(), "Once applied, this snapshot expires in 1d: on modal the filesystem_snapshot rule") {
		t.Errorf("new snapshot: platform %s, warnings %v", created.Platform, diags)
	}
}
