package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// pathTemplateStatus is where the activation warning points.
var pathTemplateStatus = path.Root("status")

// templateRetentionRules are the rows of defs' retention tables about
// templates (retention.Template), in table order.
func templateRetentionRules(defs []platform.Definition) []retention.Rule {
	var out []retention.Rule
	for _, r := range platform.RetentionTable(defs).Rules() {
		if r.Object == retention.Template {
			out = append(out, r)
		}
	}
	return out
}

// templateRulesPhrase describes the template rows of defs for the
// schema: "<Title>'s `unused_template` rule (deactivate once no box
// started from it for 14d)"; "" when no platform has one.
func templateRulesPhrase(defs []platform.Definition) string {
	titles := platform.RetentionTitles(defs)
	var parts []string
	for _, r := range templateRetentionRules(defs) {
		window := "no deadline unless overridden"
		switch {
		case r.Window > 0 && r.Since == retention.SinceLastUsed:
			window = fmt.Sprintf("%s once no box started from it for %s", r.Action, retentionHumanDuration(r.Window))
		case r.Window > 0:
			window = fmt.Sprintf("%s %s after %s", r.Action, retentionHumanDuration(r.Window), templateSincePhrase(r.Since))
		}
		title := titles[r.Platform]
		if title == "" {
			title = r.Platform
		}
		parts = append(parts, fmt.Sprintf("%s's `%s` rule (%s)", title, r.Key, window))
	}
	return joinAnd(parts)
}

// templateSincePhrase names the moment a template rule counts from.
func templateSincePhrase(s retention.Since) string {
	switch s {
	case retention.SinceLastUsed:
		return "its last use"
	case retention.SinceCreated:
		return "its creation"
	}
	return string(s)
}

// templateRetentionAttributes are sbx_template's computed retention
// attributes: those of sbx_sandbox and sbx_snapshot (the drift detector
// reads them by these names), documented for templates, plus last_used_at.
// Each keeps its state across plans (UseStateForUnknown); ModifyPlan
// leaves them unknown only when a rebuild or an activation changes them.
func templateRetentionAttributes(defs []platform.Definition) map[string]schema.Attribute {
	rules := templateRulesPhrase(defs)
	where := "Null on platforms with no retention rule for templates (all but those named here)"
	if rules == "" {
		where = "Null on platforms with no retention rule for templates (no registered platform has one yet)"
	} else {
		where += ": " + rules
	}
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, Computed: true, PlanModifiers: keep}
	}
	return map[string]schema.Attribute{
		"platform": computed("The platform the template lives on: " + joinOr(blockNames(defs)) + "."),
		"last_used_at": computed("When a box last started from the template (RFC 3339, UTC), as the platform " +
			"reports it; null where the platform does not report it. Retention rules that count from the last use " +
			"count from `created_at` while it is null. Updated by every refresh, never a change in the plan."),
		"expires_at": computed("When the platform acts on the template by itself (RFC 3339, UTC): the earliest " +
			"retention deadline of the provider's policy table (with the `retention {}` overrides) for the template's " +
			"platform and `status`, counted from `last_used_at` (else `created_at`). " + where + "; null too " +
			"while no rule applies to the template's `status` (an `inactive` template has passed its deadline already). " +
			"`terraform plan` warns when it falls within the provider's `retention.warn_before`, and when it has passed."),
		"retention_rule": computed("The key of the retention rule that sets `expires_at` (e.g. `unused_template`), " +
			"the name to override it with in the provider's `retention {}` block; null when there is no deadline."),
		"retention_action": computed("What happens at `expires_at`: `deactivate` (no box starts from the template " +
			"until it is activated again), or `delete` or `expire`; null when there is no deadline."),
	}
}

// templateHasRules reports whether the policy holds a retention rule for
// templates on the platform: without one, the retention attributes are null.
func templateHasRules(policy retention.Policy, platformName string) bool {
	for _, r := range policy.Table().Rules() {
		if r.Platform == platformName && r.Object == retention.Template {
			return true
		}
	}
	return false
}

// templateRetentionObject describes a template for retention.Policy: its
// state is its status (retention.TemplateReady, "ready", for a usable one),
// its last use the one the platform reports, else its creation.
func templateRetentionObject(platformName, status string, createdAt, lastUsedAt types.String) retention.Object {
	created := timeFromTF(createdAt)
	used := timeFromTF(lastUsedAt)
	if used.IsZero() {
		used = created
	}
	return retention.Object{
		Platform:   platformName,
		Kind:       retention.Template,
		State:      status,
		CreatedAt:  created,
		LastUsedAt: used,
	}
}

// templateRetentionFields computes the retention attributes of a template
// recorded in m (status, created_at, last_used_at): all null where the
// platform has no template rule.
func templateRetentionFields(m templateModel, platformName string, rs retentionSettings) retentionFields {
	if !templateHasRules(rs.policy, platformName) {
		null := types.StringNull()
		return retentionFields{ExpiresAt: null, Status: null, Rule: null, Action: null}
	}
	now := rs.now()
	d, ok := rs.policy.Deadline(templateRetentionObject(platformName, m.Status.ValueString(), m.CreatedAt, m.LastUsedAt), now)
	return retentionFieldsOf(d, ok, now, rs.warnBefore)
}

// templateSetRetentionFields writes f into m.
func templateSetRetentionFields(m *templateModel, f retentionFields) {
	m.ExpiresAt, m.RetentionRule, m.RetentionAction = f.ExpiresAt, f.Rule, f.Action
}

// templateRetentionOf returns the retention attributes stored in m.
func templateRetentionOf(m templateModel) retentionFields {
	return retentionFields{ExpiresAt: m.ExpiresAt, Rule: m.RetentionRule, Action: m.RetentionAction}
}

// templateAfterPlatform fills platform, last_used_at and the retention
// attributes from what the platform reported (after a create, rebuild,
// activation or read). m's status and created_at must be set already.
func templateAfterPlatform(m *templateModel, t *platform.Template, platformName string, rs retentionSettings) {
	rs = rs.orDefault()
	m.Platform = types.StringValue(platformName)
	m.LastUsedAt = timeStringOrNull(t.LastUsedAt)
	templateSetRetentionFields(m, templateRetentionFields(*m, platformName, rs))
}

// templateActivationPlanned reports whether the plan activates a template
// the platform deactivated: it reads as inactive, the platform offers
// activation, and nothing rebuilds or replaces it.
func templateActivationPlanned(plat platform.Platform, state templateModel) bool {
	return plat != nil && plat.Extensions().TemplateActivation != nil &&
		state.Status.ValueString() == platform.TemplateInactive
}

// templatePlanRetention plans the retention attributes of a template and
// adds the plan warnings; state is nil for a create. rebuilding: an
// in-place rebuild is planned (the new build's last use and deadline are
// known after apply).
func templatePlanRetention(plan *templateModel, state *templateModel, rebuilding bool, plat platform.Platform, defs []platform.Definition, rs retentionSettings, diags *diag.Diagnostics) {
	rs = rs.orDefault()
	name := plat.Name()
	hasRules := templateHasRules(rs.policy, name)
	unknown := types.StringUnknown()
	unknownFields := retentionFields{ExpiresAt: unknown, Status: unknown, Rule: unknown, Action: unknown}
	now := rs.now()

	if state == nil {
		plan.Platform = types.StringValue(name)
		if !hasRules {
			templateSetRetentionFields(plan, templateRetentionFields(*plan, name, rs))
			return
		}
		templateSetRetentionFields(plan, unknownFields)
		// A new template counts from now (its creation, no use yet).
		nowTF := timeStringOrNull(now)
		if d, ok := rs.policy.Deadline(templateRetentionObject(name, retention.TemplateReady, nowTF, types.StringNull()), now); ok {
			templateAddRetentionWarning(diags, name, d, now, rs.warnBefore, true)
		}
		return
	}

	plan.Platform = state.Platform
	if plan.Platform.IsNull() || plan.Platform.IsUnknown() {
		plan.Platform = types.StringValue(name)
	}
	switch {
	case rebuilding:
		plan.LastUsedAt = unknown
		templateSetRetentionFields(plan, unknownFields)
		if !hasRules {
			templateSetRetentionFields(plan, templateRetentionFields(*plan, name, rs))
		}
		return
	case templateActivationPlanned(plat, *state):
		plan.Status = types.StringValue(retention.TemplateReady)
		plan.LastUsedAt = unknown
		templateSetRetentionFields(plan, unknownFields)
		if !hasRules {
			templateSetRetentionFields(plan, templateRetentionFields(*plan, name, rs))
		}
		templateActivationWarning(diags, plat, defs, *state, rs)
		return
	}
	plan.LastUsedAt = state.LastUsedAt
	templateSetRetentionFields(plan, templateRetentionOf(*state))
	if state.Status.ValueString() == platform.TemplateInactive {
		templateInactiveWarning(diags, plat, defs, *state)
		return
	}
	if d, ok := retentionDeadlineFromState(name, templateRetentionOf(*state)); ok {
		d.Enforced = rs.policy.Table().Enforced(name, d.Rule)
		templateAddRetentionWarning(diags, name, d, now, rs.warnBefore, false)
	}
}

// templateAddRetentionWarning is addRetentionWarning for a template, which
// has no lifecycle settings: its deadline moves when a box starts from it.
func templateAddRetentionWarning(diags *diag.Diagnostics, platformName string, d retention.Deadline, now time.Time, warnBefore time.Duration, planned bool) {
	summary, detail, ok := retentionWarning("template", platformName, d, now, warnBefore, planned)
	if !ok {
		return
	}
	detail = strings.Replace(detail, "Move the deadline with the template's lifecycle settings or the provider's",
		"A box started from the template moves the deadline (where the rule counts from the last use); so does the provider's", 1)
	diags.AddAttributeWarning(pathExpiresAt, summary, detail)
}

// templatePlatformTitle is the title of the platform named name among defs
// (its name when none has it).
func templatePlatformTitle(defs []platform.Definition, name string) string {
	for _, d := range definitionsOr(defs) {
		if d.Name == name && d.Title != "" {
			return d.Title
		}
	}
	return name
}

// templateDeactivationRule describes the rule that deactivates templates
// on the platform, for the warnings: " (its unused_template rule: 14d after
// the last use)", or "" when the table has none.
func templateDeactivationRule(rs retentionSettings, name string) string {
	for _, r := range rs.policy.Table().Rules() {
		if r.Platform != name || r.Object != retention.Template || r.Action != retention.ActionDeactivate {
			continue
		}
		w := rs.policy.Window(r)
		switch {
		case w > 0 && r.Since == retention.SinceLastUsed:
			return fmt.Sprintf(" (its %s rule deactivates a template no box started from for %s)", r.Key, retentionHumanDuration(w))
		case w > 0:
			return fmt.Sprintf(" (its %s rule deactivates a template %s after %s)", r.Key, retentionHumanDuration(w), templateSincePhrase(r.Since))
		}
		return fmt.Sprintf(" (its %s rule)", r.Key)
	}
	return ""
}

// templateLastUsePhrase says when the template was last used, as recorded.
func templateLastUsePhrase(m templateModel) string {
	switch {
	case isSet(m.LastUsedAt) && !m.LastUsedAt.IsUnknown():
		return " A box last started from it at " + m.LastUsedAt.ValueString() + "."
	case isSet(m.CreatedAt) && !m.CreatedAt.IsUnknown():
		return " It was built at " + m.CreatedAt.ValueString() + " and the platform reports no use since."
	}
	return ""
}

// templateActivationWarning is the plan warning of an inactive template
// the apply activates again.
func templateActivationWarning(diags *diag.Diagnostics, plat platform.Platform, defs []platform.Definition, state templateModel, rs retentionSettings) {
	title := templatePlatformTitle(defs, plat.Name())
	diags.AddAttributeWarning(pathTemplateStatus, "Template deactivated by "+title,
		fmt.Sprintf("%s deactivated the template %q because no box started from it for a while%s: its status is %q, "+
			"and no box starts from it until it is activated again.%s Apply activates it again in place "+
			"(status %q → %q); its retention deadline then counts again from its last use.",
			title, state.ID.ValueString(), templateDeactivationRule(rs.orDefault(), plat.Name()), platform.TemplateInactive,
			templateLastUsePhrase(state), platform.TemplateInactive, retention.TemplateReady))
}

// templateInactiveWarning is the plan warning of an inactive template on a
// platform that does not offer activation through the provider: the plan
// changes nothing.
func templateInactiveWarning(diags *diag.Diagnostics, plat platform.Platform, defs []platform.Definition, state templateModel) {
	title := templatePlatformTitle(defs, plat.Name())
	diags.AddAttributeWarning(pathTemplateStatus, "Template inactive on "+title,
		fmt.Sprintf("%s reports the template %q as %q: no box starts from it. The provider cannot activate templates "+
			"on %s, so the plan changes nothing; activate it on %s, or replace it (terraform apply -replace=<address>).",
			title, state.ID.ValueString(), platform.TemplateInactive, title, title))
}

// templateActivate activates the template in state on the platform
// (Extensions.TemplateActivation) and records the answer in plan, which
// planned status "ready".
func templateActivate(ctx context.Context, plat platform.Platform, defs []platform.Definition, plan *templateModel, state templateModel, rs retentionSettings, diags *diag.Diagnostics) {
	id := state.ID.ValueString()
	tpl, err := plat.Extensions().TemplateActivation.Activate(ctx, id)
	if err != nil {
		addPlatformError(diags, "activate", "template", id, err)
		return
	}
	if tpl == nil || tpl.Status != retention.TemplateReady {
		got := "nothing"
		if tpl != nil {
			got = fmt.Sprintf("status %q", tpl.Status)
		}
		diags.AddError("Template not ready after activation",
			fmt.Sprintf("%s activated the template %q but reports %s, want %q. Run terraform apply again once "+
				"the platform reports it ready.", templatePlatformTitle(defs, plat.Name()), id, got, retention.TemplateReady))
		return
	}
	plan.Status = types.StringValue(tpl.Status)
	templateAfterPlatform(plan, tpl, plat.Name(), rs)
}

// templateStatusDescription documents sbx_template.status for defs: the
// build words, and inactive with the platforms that deactivate templates.
func templateStatusDescription(defs []platform.Definition) string {
	var b strings.Builder
	b.WriteString("Status as the platform reports it: `ready` (boxes start from it), or a build state such as " +
		"`building` or `error`. Unknown in a plan that rebuilds. `inactive`: the platform deactivated the template " +
		"because no box started from it for a while")
	if rules := templateRulesPhrase(defs); rules != "" {
		b.WriteString(" (" + rules + ")")
	}
	b.WriteString("; no box starts from it until it is activated. Where the platform can activate templates, a " +
		"refresh that reads `inactive` plans an in-place update with `status` planned `ready`, and the apply activates " +
		"the template (same id, same build), with a plan warning saying so; elsewhere the plan changes nothing and " +
		"warns that the template is inactive.")
	return b.String()
}
