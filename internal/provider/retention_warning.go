package provider

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// pathExpiresAt is where retention warnings point, so Terraform prints the
// resource address with them.
var pathExpiresAt = path.Root("expires_at")

// retentionFields are an object's retention deadline, the rule behind it
// and its action, as the resources store them, and the judgement of the
// deadline at some moment (Status: ok, expiring, expired), which only the
// sbx_sandboxes data source and list resource report: no resource stores
// it (state_upgrade.go), and one read from state leaves it null.
type retentionFields struct {
	ExpiresAt types.String
	Status    types.String
	Rule      types.String
	Action    types.String
}

// retentionFieldsOf renders a deadline (or its absence) judged at now.
func retentionFieldsOf(d retention.Deadline, ok bool, now time.Time, warnBefore time.Duration) retentionFields {
	f := retentionFields{
		ExpiresAt: types.StringNull(),
		Status:    types.StringValue(retention.Status(d, ok, now, warnBefore)),
		Rule:      types.StringNull(),
		Action:    types.StringNull(),
	}
	if ok {
		f.ExpiresAt = types.StringValue(d.At.UTC().Format(time.RFC3339))
		f.Rule = stringOrNull(d.Rule)
		f.Action = stringOrNull(string(d.Action))
	}
	return f
}

// retentionDeadlineFromState rebuilds the deadline recorded in state
// (expires_at, retention_rule, retention_action); false when there is none
// or it is not known.
func retentionDeadlineFromState(platformName string, f retentionFields) (retention.Deadline, bool) {
	if f.ExpiresAt.IsNull() || f.ExpiresAt.IsUnknown() || f.Rule.IsUnknown() || f.Action.IsUnknown() {
		return retention.Deadline{}, false
	}
	at, err := time.Parse(time.RFC3339, f.ExpiresAt.ValueString())
	if err != nil {
		return retention.Deadline{}, false
	}
	return retention.Deadline{
		At:       at,
		Rule:     f.Rule.ValueString(),
		Action:   retention.Action(f.Action.ValueString()),
		Enforced: retentionRuleEnforced(platformName, f.Rule.ValueString()),
	}, true
}

// retentionRuleEnforced says whether the platform itself acts on a rule,
// by the rows of the registered platforms (Platforms).
func retentionRuleEnforced(platformName, key string) bool {
	return registeredRetentionTable().Enforced(platformName, key)
}

// registeredRetentionTable is the registered platforms' retention table,
// built once: the definitions never change while the provider runs, and
// building them for every box's plan was a share of a no-op plan's CPU.
var registeredRetentionTable = sync.OnceValue(func() retention.Table {
	return platform.RetentionTable(platforms.All())
})

// retentionWarning is the plan warning for a deadline within warnBefore of
// now or past it, naming platform, rule, action and date; ok is false when
// the deadline is far enough away. planned marks a deadline the plan would
// set (a create, a state or lifecycle change) rather than one in state.
func retentionWarning(kind, platformName string, d retention.Deadline, now time.Time, warnBefore time.Duration, planned bool) (summary, detail string, ok bool) {
	at := d.At.UTC().Format(time.RFC3339)
	when := ""
	if planned {
		when = "once applied, "
	}
	switch retention.Status(d, true, now, warnBefore) {
	case retention.StatusExpiring:
		summary = fmt.Sprintf("%s retention deadline in %s", retentionTitle(kind), retentionHumanDuration(d.At.Sub(now)))
		detail = fmt.Sprintf("%sthis %s expires in %s: on %s the %s rule will %s it at %s.",
			when, kind, retentionHumanDuration(d.At.Sub(now)), platformName, d.Rule, d.Action, at)
	case retention.StatusExpired:
		summary = fmt.Sprintf("%s past its retention deadline", retentionTitle(kind))
		detail = fmt.Sprintf("%sthis %s expired %s ago: on %s the %s rule was to %s it at %s.",
			when, kind, retentionHumanDuration(now.Sub(d.At)), platformName, d.Rule, d.Action, at)
	default:
		return "", "", false
	}
	detail = strings.ToUpper(detail[:1]) + detail[1:]
	detail += " " + retentionEnforcementNote(platformName, d) +
		fmt.Sprintf(" Move the deadline with the %s's lifecycle settings or the provider's retention.%s override; "+
			"warnings start retention.warn_before (%s) ahead.", kind, d.Rule, retentionHumanDuration(warnBefore))
	return summary, detail, true
}

// retentionEnforcementNote says who acts at the deadline.
func retentionEnforcementNote(platformName string, d retention.Deadline) string {
	if d.Enforced {
		return fmt.Sprintf("%s acts on this deadline by itself.", platformName)
	}
	return fmt.Sprintf("%s does not enforce this deadline: the provider tracks it (plan warnings, the sbx_sandboxes data source, the drift detector).", platformName)
}

// addRetentionWarning adds the plan warning for d, if any.
func addRetentionWarning(diags *diag.Diagnostics, kind, platformName string, d retention.Deadline, now time.Time, warnBefore time.Duration, planned bool) {
	if summary, detail, ok := retentionWarning(kind, platformName, d, now, warnBefore, planned); ok {
		diags.AddAttributeWarning(pathExpiresAt, summary, detail)
	}
}

// addGoneOrExpiredWarning reports an object gone from the platform. When
// its recorded deadline has passed, the warning says the platform removed
// it at that deadline; otherwise it is the plain "gone" warning. Either
// carries reason, why the platform says it is gone, when it says
// (goneReason).
func addGoneOrExpiredWarning(diags *diag.Diagnostics, kind, id, platformName string, f retentionFields, now time.Time, reason string) {
	d, ok := retentionDeadlineFromState(platformName, f)
	if !ok || now.Before(d.At) {
		addGoneWarning(diags, kind, id, reason)
		return
	}
	diags.AddWarning(fmt.Sprintf("%s removed at its retention deadline", retentionTitle(kind)),
		fmt.Sprintf("The %s %q is no longer on %s. Its retention deadline passed at %s: the %s rule was to %s it then, "+
			"so it was removed at its retention deadline%s.%s It has been removed from the state, and the plan will create it again.",
			kind, id, platformName, d.At.UTC().Format(time.RFC3339), d.Rule, d.Action, retentionRemovedBy(platformName, d),
			goneReasonSentence(reason)))
}

// retentionRemovedBy says who removes an object at an unenforced deadline.
func retentionRemovedBy(platformName string, d retention.Deadline) string {
	if d.Enforced {
		return ""
	}
	return fmt.Sprintf(" (%s does not enforce it; whoever acts on the tracked deadline did)", platformName)
}

// retentionTitle capitalizes an object kind for a warning summary.
func retentionTitle(kind string) string {
	if kind == "" {
		return kind
	}
	return string(kind[0]-'a'+'A') + kind[1:]
}
