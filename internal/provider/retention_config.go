package provider

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/duration"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// defaultWarnBefore is how long before a deadline plans start warning when
// retention.warn_before is not set.
const defaultWarnBefore = 72 * time.Hour

// retentionSettings is what the provider's retention {} block configures,
// with the clock every deadline is judged against.
type retentionSettings struct {
	policy     retention.Policy
	warnBefore time.Duration
	clock      clock.Clock
}

// defaultRetentionSettings is the registered platforms' table without
// overrides, a 72h warning and the wall clock.
func defaultRetentionSettings() retentionSettings {
	// No overrides: NewPolicy has nothing to refuse.
	policy, _ := registeredRetentionTable().NewPolicy(nil)
	return retentionSettings{policy: policy, warnBefore: defaultWarnBefore, clock: clock.System{}}
}

// orDefault fills in the defaults for a resource built without provider
// data (unit tests, validation runs before Configure).
func (s retentionSettings) orDefault() retentionSettings {
	if s.clock == nil {
		return defaultRetentionSettings()
	}
	return s
}

// now is the current time on the provider's clock.
func (s retentionSettings) now() time.Time { return s.orDefault().clock.Now() }

// retentionFrom extracts the retention settings from ProviderData; the
// defaults when the provider is not configured yet.
func retentionFrom(providerDataValue any) retentionSettings {
	if data, ok := providerDataValue.(*providerData); ok {
		return data.retention.orDefault()
	}
	return defaultRetentionSettings()
}

// retentionBlock is the provider's retention {} block for the platforms
// defs: warn_before and one override per rule key of their retention
// rows, documented from those rows so the docs never disagree with them.
// A key no registered platform has is no attribute, so Terraform rejects
// it at plan time.
func retentionBlock(defs []platform.Definition) schema.SingleNestedBlock {
	table := platform.RetentionTable(defs)
	attrs := map[string]schema.Attribute{
		"warn_before": schema.StringAttribute{
			MarkdownDescription: "How long before a retention deadline `terraform plan` starts warning about a sandbox, " +
				"snapshot or template (and the `sbx_sandboxes` data source and the `drift` command report it `expiring`). A duration such as `72h`, `90m` or `3d`. Default `72h`.",
			Optional:   true,
			Validators: []validator.String{retentionDurationValidator()},
		},
	}
	for _, key := range table.Keys() {
		attrs[key] = schema.StringAttribute{
			MarkdownDescription: retentionKeyDescription(table, key),
			Optional:            true,
			Validators:          []validator.String{retentionDurationValidator()},
		}
	}
	return schema.SingleNestedBlock{
		MarkdownDescription: "Retention deadlines: when plans warn, and overrides of the built-in policy table " +
			"(platforms change these windows; an override follows them without a provider release). Each override " +
			"is a duration such as `720h` or `30d` replacing the window of every row with that key; `0` removes the deadline. " +
			"An override of a key the configured platform has no rule for would change nothing, so it is an error.",
		Attributes: attrs,
	}
}

// retentionKeyDescription lists the rows an override key replaces:
// platform, object and state, the default window and what happens then.
func retentionKeyDescription(table retention.Table, key string) string {
	var rows []string
	for _, r := range table.Rules() {
		if r.Key != key {
			continue
		}
		window := "no deadline by default"
		if r.Window > 0 {
			window = "default " + retentionHumanDuration(r.Window)
		}
		enforced := ""
		if !r.Enforced {
			enforced = ", tracked only"
		}
		rows = append(rows, fmt.Sprintf("%s %s %s (%s, then %s%s)", r.Platform, r.State, r.Object, window, r.Action, enforced))
	}
	return fmt.Sprintf("Override of the `%s` retention window, a duration such as `720h` or `30d`. Replaces: %s.",
		key, strings.Join(rows, "; "))
}

// retentionFromConfig reads the retention {} block (null: all defaults)
// for the configured platform def, on top of the overrides its account
// tier implies (def.TierOverrides(tier); tier is the block's tier setting,
// "" when it has none): the user's overrides win over the tier's, which win
// over def's rows. An override of a key def has no rule for is an error
// naming it and def's keys. Unknown values are errors: the provider needs
// them to plan.
func retentionFromConfig(block types.Object, clock clock.Clock, def platform.Definition, tier string) (retentionSettings, diag.Diagnostics) {
	var diags diag.Diagnostics
	out := retentionSettings{warnBefore: defaultWarnBefore, clock: clock}
	table := retention.NewTable(def.Retention)
	user := map[string]time.Duration{}
	if !block.IsNull() {
		retentionReadBlock(block, &out, user, &diags)
	}
	if diags.HasError() {
		return out, diags
	}
	retentionCheckKeys(def, table, user, &diags)
	if diags.HasError() {
		return out, diags
	}
	overrides := map[string]time.Duration{}
	if def.TierOverrides != nil {
		maps.Copy(overrides, def.TierOverrides(tier))
	}
	maps.Copy(overrides, user)
	policy, err := table.NewPolicy(overrides)
	if err != nil {
		// The user's keys are checked above and their values parsed: what is
		// left is the platform's tier defaults.
		diags.AddError("Invalid retention defaults of "+def.Name+" tier "+strconv.Quote(tier),
			err.Error()+". This is a bug in the provider; please report it.")
		return out, diags
	}
	out.policy = policy
	return out, diags
}

// retentionCheckKeys reports every override whose key no rule of def has:
// the value would change no deadline on the platform configured.
func retentionCheckKeys(def platform.Definition, table retention.Table, overrides map[string]time.Duration, diags *diag.Diagnostics) {
	valid := table.Keys()
	names := make([]string, 0, len(overrides))
	for name := range overrides {
		names = append(names, name)
	}
	sort.Strings(names) // the same diagnostics, in the same order, every run
	for _, name := range names {
		if slices.Contains(valid, name) {
			continue
		}
		title := def.Title
		if title == "" {
			title = "the platform"
		}
		keys := title + " has no rules"
		if len(valid) > 0 {
			keys = "The keys of " + title + "'s rules are " + strings.Join(valid, ", ")
		}
		diags.AddAttributeError(path.Root("retention").AtName(name), "Retention override changes nothing on "+title,
			fmt.Sprintf("retention.%s overrides the %s rule, which %s does not have, so it would change no deadline. "+
				"%s. Remove it, or set it in the provider configuration of a platform with that rule.",
				name, name, title, keys))
	}
}

// retentionReadBlock reads warn_before into out and every set override into
// overrides.
func retentionReadBlock(block types.Object, out *retentionSettings, overrides map[string]time.Duration, diags *diag.Diagnostics) {
	for name, v := range block.Attributes() {
		s, ok := v.(types.String)
		if !ok || s.IsNull() {
			continue
		}
		p := path.Root("retention").AtName(name)
		if s.IsUnknown() {
			diags.AddAttributeError(p, "Unknown retention setting",
				fmt.Sprintf("retention.%s depends on a value known only after apply; the provider needs it to plan. Set it to a known duration.", name))
			continue
		}
		d, problem := retentionParseNonNegative(s.ValueString())
		if problem != "" {
			diags.AddAttributeError(p, "Invalid retention setting",
				fmt.Sprintf("retention.%s = %s: %s.", name, strconv.Quote(s.ValueString()), problem))
			continue
		}
		if name == "warn_before" {
			out.warnBefore = d
			continue
		}
		overrides[name] = d
	}
}

// retentionParseNonNegative parses a retention duration ("72h", "30d"),
// saying what is wrong with it when it is not one.
func retentionParseNonNegative(s string) (time.Duration, string) {
	d, err := duration.Parse(s)
	switch {
	case err != nil:
		return 0, "not a duration; use a duration such as \"72h\", \"90m\" or \"30d\""
	case d < 0:
		return 0, "must not be negative; use a duration such as \"72h\", or \"0\" for none"
	}
	return d, ""
}

// retentionDurationValidator checks a retention {} value at plan time.
func retentionDurationValidator() validator.String {
	return stringRule{description: "a duration of zero or more, such as 72h, 90m or 30d", summary: "Invalid retention setting",
		sep: ": ", problem: func(v string) string {
			_, problem := retentionParseNonNegative(v)
			return problem
		}}
}

// retentionHumanDuration renders a duration the way people speak of
// retention windows: "7d", "1d12h", "5h", "15m", "30s".
func retentionHumanDuration(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	if d < time.Minute {
		return strconv.FormatInt(int64(d.Round(time.Second)/time.Second), 10) + "s"
	}
	d = d.Round(time.Minute)
	days := int64(d / (24 * time.Hour))
	hours := int64((d % (24 * time.Hour)) / time.Hour)
	mins := int64((d % time.Hour) / time.Minute)
	// strconv, not fmt: every plan words this for each box near its deadline.
	b := make([]byte, 0, 12)
	if days > 0 {
		b = append(strconv.AppendInt(b, days, 10), 'd')
	}
	if hours > 0 {
		b = append(strconv.AppendInt(b, hours, 10), 'h')
	}
	if mins > 0 && days == 0 {
		b = append(strconv.AppendInt(b, mins, 10), 'm')
	}
	if len(b) == 0 {
		return "0m"
	}
	return string(b)
}
