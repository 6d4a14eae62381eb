package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// idAttribute is the computed, stable id every resource has.
func idAttribute(what string) schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: fmt.Sprintf("The platform's id of the %s. Use it to import the %s.", what, what),
		Computed:            true,
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

// labelsDescription documents labels the same way on every resource.
func labelsDescription(what string) string {
	return fmt.Sprintf("Labels to put on the %s (the platform's labels or metadata). Keys must not be empty; keys starting with `%s` are reserved for the provider.",
		what, platform.LabelPrefix)
}

// computedString is a computed attribute that keeps its state across plans.
func computedString(desc string) schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: desc,
		Computed:            true,
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

// labelKeysValidator rejects label keys no platform should take from a
// user: the empty or blank key (some platforms keep it silently, others
// refuse it only at apply) and keys under the provider's prefix.
type labelKeysValidator struct{}

var _ validator.Map = labelKeysValidator{}

func (labelKeysValidator) Description(_ context.Context) string {
	return "label keys must not be empty nor start with " + platform.LabelPrefix
}

func (v labelKeysValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (labelKeysValidator) ValidateMap(_ context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for k := range req.ConfigValue.Elements() {
		if strings.TrimSpace(k) == "" {
			resp.Diagnostics.AddAttributeError(req.Path, "Empty label key",
				fmt.Sprintf("%s: the key %q is empty. Give every label a key of one or more characters that are not all spaces.",
					req.Path, k))
			continue
		}
		if platform.IsReservedLabel(k) {
			resp.Diagnostics.AddAttributeError(req.Path, "Reserved label key",
				fmt.Sprintf("%s: the key %q starts with %q, which is reserved for labels the provider sets itself. Use another key.",
					req.Path, k, platform.LabelPrefix))
		}
	}
}

// addUnsupportedError is the plan-time error for a setting the configured
// platform cannot honour: it names the attribute, the value and what is allowed.
func addUnsupportedError(diags *diag.Diagnostics, p path.Path, value string, platformName, allowed string) {
	diags.AddAttributeError(p, "Setting not supported by the platform",
		fmt.Sprintf("%s = %s is not supported on %s: %s", p, value, platformName, allowed))
}

// isSet reports whether a configured value is present (known or not yet known).
func isSet(v interface{ IsNull() bool }) bool { return !v.IsNull() }

// timeoutsBlockDescribed is timeouts.Block with a MarkdownDescription, which
// the timeouts package does not set, saying what each timeout bounds.
func timeoutsBlockDescribed(ctx context.Context, opts timeouts.Opts, desc string) schema.Block {
	b := timeouts.Block(ctx, opts)
	if nb, ok := b.(schema.SingleNestedBlock); ok {
		nb.MarkdownDescription = desc
		return nb
	}
	return b
}
