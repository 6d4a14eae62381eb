package provider

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

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
	clock      retention.Clock
}

// defaultRetentionSettings is the built-in table, a 72h warning and the wall clock.
func defaultRetentionSettings() retentionSettings {
	return retentionSettings{warnBefore: defaultWarnBefore, clock: retention.SystemClock{}}
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

// retentionBlock is the provider's retention {} block: warn_before and one
// override per rule key of the policy table, documented from the table
// itself so the docs never disagree with it.
func retentionBlock() schema.SingleNestedBlock {
	attrs := map[string]schema.Attribute{
		"warn_before": schema.StringAttribute{
			MarkdownDescription: "How long before a retention deadline `terraform plan` starts warning about a sandbox " +
				"or snapshot (and `retention_status` becomes `expiring`). A duration such as `72h`, `90m` or `3d`. Default `72h`.",
			Optional:   true,
			Validators: []validator.String{retentionDurationValidator{}},
		},
	}
	for _, key := range retention.Keys() {
		attrs[key] = schema.StringAttribute{
			MarkdownDescription: retentionKeyDescription(key),
			Optional:            true,
			Validators:          []validator.String{retentionDurationValidator{}},
		}
	}
	return schema.SingleNestedBlock{
		MarkdownDescription: "Retention deadlines: when plans warn, and overrides of the built-in policy table " +
			"(platforms change these windows; an override follows them without a provider release). Each override " +
			"is a duration such as `720h` or `30d` replacing the window of every row with that key; `0` removes the deadline.",
		Attributes: attrs,
	}
}

// retentionKeyDescription lists the table rows of shipped platforms an
// override key replaces: platform, object and state, the default window and
// what happens then. A key only platforms still to come have (rows kept in
// the table for them) says it changes no deadline yet: it stays accepted,
// like a key of a shipped platform other than the configured one.
func retentionKeyDescription(key string) string {
	var rows []string
	for _, r := range retention.ShippedRules() {
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
	if len(rows) == 0 {
		return fmt.Sprintf("Override of the `%s` retention window, a duration such as `720h` or `30d`. No shipped "+
			"platform (%s) has a rule with this key yet: the value is accepted and changes no deadline.",
			key, strings.Join(retention.Shipped(), ", "))
	}
	return fmt.Sprintf("Override of the `%s` retention window, a duration such as `720h` or `30d`. Replaces: %s.",
		key, strings.Join(rows, "; "))
}

// retentionTiered is a platform whose account tier changes the built-in
// policy table (E2B Pro runs boxes for 24 h instead of Base's 1 h).
type retentionTiered interface {
	Tier() string
}

// retentionTierDefaults are the overrides the configured platform's tier
// implies; nil for platforms without tiers.
func retentionTierDefaults(plat platform.Platform) map[string]time.Duration {
	tiered, ok := plat.(retentionTiered)
	if plat == nil || !ok {
		return nil
	}
	return retention.TierOverrides(plat.Name(), tiered.Tier())
}

// retentionFromConfig reads the retention {} block (null: all defaults) on
// top of the platform's tier defaults: the user's overrides win over the
// tier's, which win over the built-in table. plat may be nil (no tier).
// Unknown values are errors: the provider needs them to plan.
func retentionFromConfig(block types.Object, clock retention.Clock, plat platform.Platform) (retentionSettings, diag.Diagnostics) {
	var diags diag.Diagnostics
	out := retentionSettings{warnBefore: defaultWarnBefore, clock: clock}
	overrides := map[string]time.Duration{}
	for k, v := range retentionTierDefaults(plat) {
		overrides[k] = v
	}
	if !block.IsNull() {
		retentionReadBlock(block, &out, overrides, &diags)
	}
	if diags.HasError() {
		return out, diags
	}
	policy, err := retention.NewPolicy(overrides)
	if err != nil {
		diags.AddAttributeError(path.Root("retention"), "Invalid retention override", err.Error())
		return out, diags
	}
	out.policy = policy
	return out, diags
}

// retentionReadBlock reads warn_before into out and every set override into
// overrides, replacing any tier default of the same key.
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
	d, err := retention.ParseDuration(s)
	switch {
	case err != nil:
		return 0, "not a duration; use a duration such as \"72h\", \"90m\" or \"30d\""
	case d < 0:
		return 0, "must not be negative; use a duration such as \"72h\", or \"0\" for none"
	}
	return d, ""
}

// retentionDurationValidator checks a retention {} value at plan time.
type retentionDurationValidator struct{}

var _ validator.String = retentionDurationValidator{}

func (retentionDurationValidator) Description(_ context.Context) string {
	return "a duration of zero or more, such as 72h, 90m or 30d"
}

func (v retentionDurationValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (retentionDurationValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, problem := retentionParseNonNegative(req.ConfigValue.ValueString()); problem != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid retention setting",
			fmt.Sprintf("%s = %s: %s.", req.Path, strconv.Quote(req.ConfigValue.ValueString()), problem))
	}
}

// retentionHumanDuration renders a duration the way people speak of
// retention windows: "7d", "1d12h", "5h", "15m", "30s".
func retentionHumanDuration(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	if d < time.Minute {
		return fmt.Sprintf("%ds", int64(d.Round(time.Second)/time.Second))
	}
	d = d.Round(time.Minute)
	days := d / (24 * time.Hour)
	hours := (d % (24 * time.Hour)) / time.Hour
	mins := (d % time.Hour) / time.Minute
	var b strings.Builder
	if days > 0 {
		fmt.Fprintf(&b, "%dd", days)
	}
	if hours > 0 {
		fmt.Fprintf(&b, "%dh", hours)
	}
	if mins > 0 && days == 0 {
		fmt.Fprintf(&b, "%dm", mins)
	}
	if b.Len() == 0 {
		return "0m"
	}
	return b.String()
}
