package provider

import (
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// retentionComputedAttributes are the computed retention attributes shared
// by sbx_sandbox and sbx_snapshot, documented for the platforms defs. The
// drift detector and the sbx_sandboxes data source read them by these
// names. They carry no plan modifiers: each resource's ModifyPlan keeps
// them from state unless an input changes.
func retentionComputedAttributes(defs []platform.Definition, kind string) map[string]schema.Attribute {
	plain := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, Computed: true}
	}
	untracked := ""
	if aside := platformsAside(defs, func(c platform.Capabilities) bool { return !c.EnforcesDeadlines }); aside != "" {
		untracked = " Where the platform enforces no deadlines" + aside + ", it is tracked, not enforced."
	}
	return map[string]schema.Attribute{
		"platform": schema.StringAttribute{
			MarkdownDescription: "The platform the " + kind + " lives on: " + joinOr(blockNames(defs)) + ".",
			Computed:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"expires_at": plain("When the platform acts on the " + kind + " by itself (RFC 3339, UTC): the earliest " +
			"retention deadline of the provider's policy table (with the `retention {}` overrides and the " + kind +
			"'s own settings), or the deadline the platform reports. Null when no rule sets one." + untracked),
		"retention_rule": plain("The key of the retention rule that sets `expires_at` (e.g. `paused_sandbox`), " +
			"the name to override it with in the provider's `retention {}` block; null when there is no deadline."),
		"retention_action": plain("What happens at `expires_at`: `kill`, `pause`, `stop`, `archive`, `delete`, `deactivate` or `expire`; " +
			"null when there is no deadline."),
	}
}

// sandboxStatusSinceAttribute documents status_since.
func sandboxStatusSinceAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: "When the sandbox entered its current `status` (RFC 3339, UTC): as the platform reports " +
			"it, else when the provider made or first saw that status (after an import, where the platform reports none, " +
			"it is the import time). Retention windows such as `paused_sandbox` count from it.",
		Computed: true,
	}
}

// sandboxModelRetentionObject describes a box in state for the retention policy.
func sandboxModelRetentionObject(m sandboxModel, platformName string, platformExpiresAt time.Time) retention.Object {
	lc := sandboxLifecycleFromModel(m)
	return retention.Object{
		Platform:          platformName,
		Kind:              retention.Sandbox,
		State:             m.Status.ValueString(),
		CreatedAt:         timeFromTF(m.CreatedAt),
		StartedAt:         timeFromTF(m.StartedAt),
		StateSince:        timeFromTF(m.StatusSince),
		Timeout:           lc.Timeout,
		OnTimeout:         string(lc.OnTimeout),
		IdleTimeout:       lc.IdleTimeout,
		AutoArchiveAfter:  lc.AutoArchiveAfter,
		AutoDeleteAfter:   lc.AutoDeleteAfter,
		PlatformExpiresAt: platformExpiresAt,
	}
}

// sandboxObserveStatusSince sets status_since after a read: the platform's
// own figure when it has one, else the recorded one while the status is
// unchanged, else now (the provider just made or first saw this status).
func sandboxObserveStatusSince(m *sandboxModel, sb *platform.Sandbox, prevStatus, prevSince types.String, now time.Time) {
	switch {
	case !sb.StatusSince.IsZero():
		m.StatusSince = timeStringOrNull(sb.StatusSince)
	case prevStatus.Equal(m.Status) && !prevSince.IsNull() && !prevSince.IsUnknown():
		m.StatusSince = prevSince
	default:
		m.StatusSince = timeStringOrNull(now)
	}
}

// sandboxRetentionFields computes the retention attributes of a box.
func sandboxRetentionFields(m sandboxModel, platformName string, rs retentionSettings, platformExpiresAt, now time.Time) retentionFields {
	d, ok := rs.policy.Deadline(sandboxModelRetentionObject(m, platformName, platformExpiresAt), now)
	return retentionFieldsOf(d, ok, now, rs.warnBefore)
}

// sandboxSetRetention writes f into m; with keepKnown, values m already
// holds (the plan's) win, since an apply must not contradict its plan.
func sandboxSetRetention(m *sandboxModel, f retentionFields, keepKnown bool) {
	pick := func(cur, computed types.String) types.String {
		if keepKnown && !cur.IsUnknown() {
			return cur
		}
		return computed
	}
	m.ExpiresAt = pick(m.ExpiresAt, f.ExpiresAt)
	m.RetentionRule = pick(m.RetentionRule, f.Rule)
	m.RetentionAction = pick(m.RetentionAction, f.Action)
}

// sandboxRetentionOf returns the retention attributes stored in m.
func sandboxRetentionOf(m sandboxModel) retentionFields {
	return retentionFields{ExpiresAt: m.ExpiresAt, Rule: m.RetentionRule, Action: m.RetentionAction}
}

// sandboxAfterRead fills status_since and the retention attributes after a
// refresh, from the state's previous status and the platform's answer.
func sandboxAfterRead(m *sandboxModel, sb *platform.Sandbox, prevStatus, prevSince types.String, platformName string, rs retentionSettings) {
	now := rs.now()
	m.Platform = types.StringValue(platformName)
	sandboxObserveStatusSince(m, sb, prevStatus, prevSince, now)
	sandboxSetRetention(m, sandboxRetentionFields(*m, platformName, rs, sb.ExpiresAt, now), false)
}

// sandboxAfterApply fills what the plan left unknown after a create or an
// update, keeping every value the plan knew.
func sandboxAfterApply(m *sandboxModel, sb *platform.Sandbox, platformName string, rs retentionSettings) {
	now := rs.now()
	if m.Platform.IsUnknown() || m.Platform.IsNull() {
		m.Platform = types.StringValue(platformName)
	}
	if m.StatusSince.IsUnknown() || m.StatusSince.IsNull() {
		sandboxObserveStatusSince(m, sb, types.StringNull(), types.StringNull(), now)
	}
	sandboxSetRetention(m, sandboxRetentionFields(*m, platformName, rs, sb.ExpiresAt, now), true)
}

// sandboxPlanRetention plans status_since and the retention attributes and
// adds the plan warnings. state is nil for a create. While nothing that
// moves the deadline changes (not replaced, same state, same lifecycle
// settings) everything is kept from state, so a no-op plan stays empty;
// otherwise the values are left for the apply to fill in, and the warning
// is judged on the deadline the change would set, counted from now.
func sandboxPlanRetention(plan *sandboxModel, state *sandboxModel, replacing bool, platformName string, rs retentionSettings, diags *diag.Diagnostics) {
	now := rs.now()
	if state != nil && !replacing && plan.State.Equal(state.State) && len(sandboxLifecycleChanges(*plan, *state)) == 0 {
		plan.StatusSince = state.StatusSince
		sandboxSetRetention(plan, sandboxRetentionOf(*state), false)
		if d, ok := retentionDeadlineFromState(platformName, sandboxRetentionOf(*state)); ok {
			addRetentionWarning(diags, retention.Sandbox, platformName, d, now, rs.warnBefore, false)
		}
		return
	}

	predicted := *plan
	predicted.Status = plan.State
	nowTF := timeStringOrNull(now)
	switch {
	case state == nil || replacing:
		predicted.CreatedAt, predicted.StartedAt, predicted.StatusSince = nowTF, nowTF, nowTF
		plan.StatusSince = types.StringUnknown()
	case !plan.State.Equal(state.State):
		// The plan leaves started_at unknown across a state change; only a
		// start from stopped restarts it (an unpause keeps it).
		predicted.StatusSince, predicted.StartedAt, predicted.CreatedAt = nowTF, state.StartedAt, state.CreatedAt
		if from := state.Status.ValueString(); plan.State.ValueString() == string(platform.StateRunning) &&
			(from == string(platform.StateStopped) || from == string(platform.StateArchived)) {
			predicted.StartedAt = nowTF
		}
		plan.StatusSince = types.StringUnknown()
	default: // only the lifecycle settings change: the box stays in its status
		plan.StatusSince = state.StatusSince
	}
	unknown := types.StringUnknown()
	sandboxSetRetention(plan, retentionFields{ExpiresAt: unknown, Status: unknown, Rule: unknown, Action: unknown}, false)
	if plan.State.IsUnknown() || sandboxLifecycleUnknown(*plan) {
		// An unknown setting would be read as unset, and the warning would
		// be about a default deadline the configured value may well replace.
		return
	}
	if d, ok := rs.policy.Deadline(sandboxModelRetentionObject(predicted, platformName, time.Time{}), now); ok {
		addRetentionWarning(diags, retention.Sandbox, platformName, d, now, rs.warnBefore, true)
	}
}

// sandboxReplacing reports whether the plan replaces the box for a change
// of an attribute whose schema requires it (ModifyPlan does not see those).
func sandboxReplacing(plan, state sandboxModel) bool {
	_, ok := sandboxReplacedBy(plan, state)
	return ok
}

// sandboxReplacedBy names the attribute whose change replaces the box by
// the schema (RequiresReplace), if one does.
func sandboxReplacedBy(plan, state sandboxModel) (path.Path, bool) {
	switch {
	case !plan.Name.IsUnknown() && !plan.Name.Equal(state.Name):
		return path.Root("name"), true
	case !plan.TemplateID.Equal(state.TemplateID):
		return path.Root("template_id"), true
	case !plan.FromSnapshotID.Equal(state.FromSnapshotID):
		return path.Root("from_snapshot_id"), true
	case !plan.VolumeMounts.Equal(state.VolumeMounts):
		return path.Root("volume_mount"), true
	}
	return path.Empty(), false
}
