package provider

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// plannedAttribute is one configurable attribute as the attribute table
// judges it: its table key, where diagnostics point, and its planned and
// prior values (prior is nil on create).
type plannedAttribute struct {
	key   string // platform.Attr* key
	path  path.Path
	plan  attr.Value
	prior attr.Value
	// shown replaces the planned value in messages ("(a Dockerfile)").
	shown string
	// duration: the value is a duration string, bounded by MaxDuration.
	duration bool
	// normalize, when set, maps a value before plan and prior are compared
	// (an on_timeout left out is "kill").
	normalize func(types.String) types.String
	// nullIs, when set, is what a null value is compared as (an
	// auto_resume left out is false).
	nullIs attr.Value
}

// attributeDecision is what the table makes of a plan.
type attributeDecision struct {
	// replace lists the changed attributes the platform cannot change in
	// place; any of them replaces the object.
	replace path.Paths
	// inPlace lists the changed attributes the platform changes in place.
	inPlace []string
}

// planAttributes is the one place plan-time decisions are derived from a
// platform's attribute table: a refused attribute or value is an error
// naming the attribute, the value and what is allowed; a required one left
// out is an error; a number or duration out of bounds is an error; a
// changed attribute replaces the object or is changed in place, as the
// table says. Resources add only what no table can say (a volume cannot
// shrink, a mounted volume cannot be relabelled).
func planAttributes(table platform.Attributes, platformName string, attrs []plannedAttribute, diags *diag.Diagnostics) attributeDecision {
	var out attributeDecision
	for _, a := range attrs {
		row := table.Get(a.key)
		name := a.path.String()
		shown := a.shown
		if shown == "" {
			shown = attributeShown(a.plan)
		}
		if attributeSet(a.plan) {
			if row.Support == platform.Refused {
				why := row.Why
				if why == "" {
					why = "remove " + platform.AttrName(a.key)
				}
				addUnsupportedError(diags, a.path, shown, platformName, why)
				continue
			}
			if row.UpdateOnly && a.prior == nil {
				addCreateRefusedError(diags, a.path, name, shown, platformName, row.Why)
				continue
			}
			checkAttributeValue(row, a, name, shown, platformName, diags)
			checkAttributeGrowth(row, a, name, platformName, diags)
		} else if row.Required && a.plan.IsNull() {
			detail := fmt.Sprintf("%s needs %s.", platformName, name)
			if row.Why != "" {
				detail = fmt.Sprintf("%s needs %s: %s", platformName, name, row.Why)
			}
			diags.AddAttributeError(a.path, fmt.Sprintf("%s is required on %s", name, platformName), detail)
		}
		if a.prior == nil || attributeSame(a.compared(a.plan), a.compared(a.prior)) {
			continue
		}
		switch row.Support {
		case platform.InPlace:
			out.inPlace = append(out.inPlace, a.key)
		case platform.Replace:
			out.replace = append(out.replace, a.path)
		}
	}
	if len(out.replace) > 0 {
		refuseUpdateOnlyOnReplace(table, platformName, attrs, out.replace, diags)
	}
	return out
}

// refuseUpdateOnlyOnReplace: a replacement makes a new object, which an
// UpdateOnly attribute cannot be set on either.
func refuseUpdateOnlyOnReplace(table platform.Attributes, platformName string, attrs []plannedAttribute, replace path.Paths, diags *diag.Diagnostics) {
	for _, a := range attrs {
		row := table.Get(a.key)
		if !row.UpdateOnly || a.prior == nil || !attributeSet(a.plan) || row.Support == platform.Refused {
			continue
		}
		name := a.path.String()
		detail := fmt.Sprintf("The plan replaces the object (%s changed), and %s cannot be set when %s makes one",
			replace[0].String(), name, platformName)
		if row.Why != "" {
			detail += ": " + row.Why
		}
		diags.AddAttributeError(a.path, name+" cannot be set at create on "+platformName,
			detail+". Remove "+name+" for this apply and set it again afterwards, or change only attributes changed in place.")
	}
}

// compared is v as plan and prior are compared.
func (a plannedAttribute) compared(v attr.Value) attr.Value {
	if a.nullIs != nil && v != nil && v.IsNull() {
		return a.nullIs
	}
	if s, ok := v.(types.String); ok && a.normalize != nil {
		return a.normalize(s)
	}
	return v
}

// checkAttributeValue checks a known value against the row's accepted
// values and bounds.
func checkAttributeValue(row platform.Attribute, a plannedAttribute, name, shown, platformName string, diags *diag.Diagnostics) {
	if a.plan.IsUnknown() {
		return
	}
	if raw, ok := attributeRaw(a.plan); ok && !row.Accepts(raw) {
		allowed := make([]string, 0, len(row.Values))
		for _, v := range row.Values {
			allowed = append(allowed, attributeQuote(a.plan, v))
		}
		msg := name + " must be one of " + strings.Join(allowed, ", ")
		if row.Why != "" {
			msg += "; " + row.Why
		}
		addUnsupportedError(diags, a.path, shown, platformName, msg)
		return
	}
	switch v := a.plan.(type) {
	case types.List:
		if n := len(v.Elements()); row.Max > 0 && int64(n) > row.Max {
			detail := fmt.Sprintf("%s: %d blocks are above the maximum of %d on %s. Keep %d or fewer.",
				name, n, row.Max, platformName, row.Max)
			if row.Why != "" {
				detail += " " + upperFirst(row.Why) + "."
			}
			diags.AddAttributeError(a.path, name+" above the platform maximum", detail)
		}
	case types.Int64:
		n := v.ValueInt64()
		if row.Min > 0 && n < row.Min {
			diags.AddAttributeError(a.path, name+" below the platform minimum",
				fmt.Sprintf("%s = %d is below the minimum of %d on %s. Set %s to %d or more, or leave it out for the platform default.",
					name, n, row.Min, platformName, name, row.Min))
		}
		if row.Max > 0 && n > row.Max {
			diags.AddAttributeError(a.path, name+" above the platform maximum",
				fmt.Sprintf("%s = %d is above the maximum of %d on %s. Set %s to %d or less.",
					name, n, row.Max, platformName, name, row.Max))
		}
		if row.Step > 1 && n%row.Step != 0 {
			lower := n / row.Step * row.Step
			fix := fmt.Sprintf("%d", lower+row.Step)
			if lower > 0 {
				fix = fmt.Sprintf("%d or %d", lower, lower+row.Step)
			}
			diags.AddAttributeError(a.path, name+" not a multiple of the platform's step",
				fmt.Sprintf("%s = %d is not a multiple of %d, the only sizes %s offers. Set %s to %s.",
					name, n, row.Step, platformName, name, fix))
		}
	case types.String:
		if a.duration && row.MaxDuration > 0 {
			if d := durationFromTF(v); d > row.MaxDuration {
				limit := retentionHumanDuration(row.MaxDuration)
				diags.AddAttributeError(a.path, name+" above the platform maximum",
					fmt.Sprintf("%s = %s is above the maximum of %s on %s. Set %s to %s or less.",
						name, strconv.Quote(v.ValueString()), limit, platformName, name, limit))
			}
		}
	}
}

// checkAttributeGrowth refuses a number a GrowOnly row may not lower: a
// known planned value below the known one in state.
func checkAttributeGrowth(row platform.Attribute, a plannedAttribute, name, platformName string, diags *diag.Diagnostics) {
	if !row.GrowOnly || a.prior == nil {
		return
	}
	plan, ok := a.plan.(types.Int64)
	prior, okPrior := a.prior.(types.Int64)
	if !ok || !okPrior || plan.IsUnknown() || plan.IsNull() || prior.IsUnknown() || prior.IsNull() {
		return
	}
	if plan.ValueInt64() < prior.ValueInt64() {
		diags.AddAttributeError(a.path, name+" cannot shrink",
			fmt.Sprintf("%s = %d is below the %d the object has: %s only grows %s. Set %s to %d or more, or "+
				"replace the object (terraform apply -replace=...) to start smaller.",
				name, plan.ValueInt64(), prior.ValueInt64(), platformName, name, name, prior.ValueInt64()))
	}
}

// addCreateRefusedError refuses an UpdateOnly attribute on a new object.
func addCreateRefusedError(diags *diag.Diagnostics, p path.Path, name, shown, platformName, why string) {
	detail := fmt.Sprintf("%s = %s cannot be set when %s makes the object; it can be changed on a live one.", name, shown, platformName)
	if why != "" {
		detail = fmt.Sprintf("%s = %s cannot be set when %s makes the object: %s.", name, shown, platformName, why)
	}
	diags.AddAttributeError(p, name+" cannot be set at create on "+platformName, detail)
}

// attributeSet reports whether the configuration asks for something: a
// value (known or not), where an empty map asks for nothing and a wholly
// unknown map is judged at apply.
func attributeSet(v attr.Value) bool {
	if v == nil || v.IsNull() {
		return false
	}
	if m, ok := v.(types.Map); ok {
		return !m.IsUnknown() && len(m.Elements()) > 0
	}
	return true
}

// attributeSame compares a planned value with the prior one, a null map
// and an empty one being the same.
func attributeSame(a, b attr.Value) bool {
	if ma, ok := a.(types.Map); ok {
		if mb, ok := b.(types.Map); ok {
			return mapsSame(ma, mb)
		}
	}
	if la, ok := a.(types.List); ok {
		if lb, ok := b.(types.List); ok && !la.IsUnknown() && !lb.IsUnknown() && len(la.Elements()) == 0 && len(lb.Elements()) == 0 {
			return true // a list left out and an empty one
		}
	}
	return a.Equal(b)
}

// attributeRaw is a value as a table's Values list writes it.
func attributeRaw(v attr.Value) (string, bool) {
	switch tv := v.(type) {
	case types.String:
		return tv.ValueString(), true
	case types.Bool:
		return strconv.FormatBool(tv.ValueBool()), true
	case types.Int64:
		return strconv.FormatInt(tv.ValueInt64(), 10), true
	}
	return "", false
}

// attributeQuote writes an accepted value as HCL would: strings quoted.
func attributeQuote(v attr.Value, raw string) string {
	if _, ok := v.(types.String); ok {
		return strconv.Quote(raw)
	}
	return raw
}

// attributeShown is a planned value for a message.
func attributeShown(v attr.Value) string {
	switch tv := v.(type) {
	case types.List:
		if !tv.IsUnknown() {
			if n := len(tv.Elements()); n != 1 {
				return fmt.Sprintf("(%d blocks)", n)
			}
			return "(1 block)"
		}
	case types.Map:
		if !tv.IsUnknown() {
			return labelsValueString(tv)
		}
	case types.Bool:
		if !tv.IsUnknown() {
			return strconv.FormatBool(tv.ValueBool())
		}
	}
	return valueForMessage(v)
}

// upperFirst capitalises a sentence's first letter.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// refusedComputedNull plans a computed attribute a platform's table
// refuses (a region where the platform has none) as null when the
// configuration leaves it out, so a new object never shows it as "known
// after apply". It returns the planned value.
func refusedComputedNull(ctx context.Context, table platform.Attributes, key string, at path.Path, planned types.String,
	config tfsdk.Config, diags *diag.Diagnostics) types.String {
	if !planned.IsUnknown() || table.Get(key).Support != platform.Refused {
		return planned
	}
	var configured types.String
	diags.Append(config.GetAttribute(ctx, at, &configured)...)
	if configured.IsNull() {
		return types.StringNull()
	}
	return planned
}
