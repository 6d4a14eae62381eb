package provider

import (
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// snapshotDeadline is a snapshot's retention deadline: the expiry the
// platform reports wins; else the policy table with the snapshot's ttl.
// A reported expiry no rule explains still counts, as an expiry.
func snapshotDeadline(m snapshotModel, platformName string, reportedExpiry time.Time, rs retentionSettings, now time.Time) (retention.Deadline, bool) {
	obj := retention.Object{
		Platform:          platformName,
		Kind:              retention.Snapshot,
		State:             m.Kind.ValueString(),
		CreatedAt:         timeFromTF(m.CreatedAt),
		TTL:               durationFromTF(m.TTL),
		PlatformExpiresAt: reportedExpiry,
	}
	d, ok := rs.policy.Deadline(obj, now)
	if !reportedExpiry.IsZero() && (!ok || !d.At.Equal(reportedExpiry)) {
		rule, action := "", retention.ActionExpire
		if ok {
			rule, action = d.Rule, d.Action
		}
		return retention.Deadline{At: reportedExpiry, Rule: rule, Action: action, Enforced: true}, true
	}
	return d, ok
}

// snapshotSetRetention fills the computed retention attributes after a
// create or a read.
func snapshotSetRetention(m *snapshotModel, s *platform.Snapshot, platformName string, rs retentionSettings) {
	now := rs.now()
	d, ok := snapshotDeadline(*m, platformName, s.ExpiresAt, rs, now)
	f := retentionFieldsOf(d, ok, now, rs.warnBefore)
	m.Platform = types.StringValue(platformName)
	m.ExpiresAt, m.RetentionRule, m.RetentionAction = f.ExpiresAt, f.Rule, f.Action
}

// snapshotRetentionOf returns the retention attributes stored in m.
func snapshotRetentionOf(m snapshotModel) retentionFields {
	return retentionFields{ExpiresAt: m.ExpiresAt, Rule: m.RetentionRule, Action: m.RetentionAction}
}

// snapshotPlanRetention plans the retention attributes and adds the plan
// warning. A snapshot never changes in place, so an existing one keeps what
// state says; a new one is judged on the deadline its ttl would set from now.
func snapshotPlanRetention(plan *snapshotModel, state *snapshotModel, platformName string, rs retentionSettings, diags *diag.Diagnostics) {
	now := rs.now()
	if state != nil {
		plan.Platform = state.Platform
		plan.ExpiresAt, plan.RetentionRule, plan.RetentionAction = state.ExpiresAt, state.RetentionRule, state.RetentionAction
		if d, ok := retentionDeadlineFromState(platformName, snapshotRetentionOf(*state)); ok {
			addRetentionWarning(diags, retention.Snapshot, platformName, d, now, rs.warnBefore, false)
		}
		return
	}
	plan.Platform = types.StringValue(platformName)
	if plan.Kind.IsUnknown() || plan.TTL.IsUnknown() {
		// An unknown ttl would be read as unset: the warning would be about
		// a default deadline the ttl may well replace.
		return
	}
	predicted := *plan
	predicted.CreatedAt = timeStringOrNull(now)
	if d, ok := snapshotDeadline(predicted, platformName, time.Time{}, rs, now); ok {
		addRetentionWarning(diags, retention.Snapshot, platformName, d, now, rs.warnBefore, true)
	}
}
