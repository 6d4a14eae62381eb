package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// exactlyOneOfRoot is resourcevalidator.ExactlyOneOf for attributes at the
// root, with a fast path for the configuration it accepts: the framework's
// validator matches each path expression against the whole configuration
// before it reads a value, a walk per attribute per resource that showed
// in the plan's profile. Where ExactlyOneOf would say nothing (one set,
// or none known but one unknown) nothing is walked; any other
// configuration (none set, several) goes to ExactlyOneOf, whose
// diagnostics stay the ones users see.
type exactlyOneOfRoot struct {
	names []string
	full  resource.ConfigValidator
}

var _ resource.ConfigValidator = exactlyOneOfRoot{}

// newExactlyOneOfRoot checks that exactly one of the root attributes names
// is configured.
func newExactlyOneOfRoot(names ...string) exactlyOneOfRoot {
	exprs := make([]path.Expression, 0, len(names))
	for _, n := range names {
		exprs = append(exprs, path.MatchRoot(n))
	}
	return exactlyOneOfRoot{names: names, full: resourcevalidator.ExactlyOneOf(exprs...)}
}

func (v exactlyOneOfRoot) Description(ctx context.Context) string { return v.full.Description(ctx) }

func (v exactlyOneOfRoot) MarkdownDescription(ctx context.Context) string {
	return v.full.MarkdownDescription(ctx)
}

func (v exactlyOneOfRoot) ValidateResource(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	if v.nothingToSay(req) {
		return
	}
	v.full.ValidateResource(ctx, req, resp)
}

// nothingToSay reports whether ExactlyOneOf would accept the configuration
// without a word: at most one of the attributes is set to a known value,
// and either one is or another is unknown (a reference not yet resolved,
// such as sbx_template.t.id before the template exists, which ExactlyOneOf
// leaves to the plan of known values).
func (v exactlyOneOfRoot) nothingToSay(req resource.ValidateConfigRequest) bool {
	attrs, ok := rootAttributes(req.Config.Raw)
	if !ok || attrs == nil {
		return false
	}
	set, unknown := 0, 0
	for _, n := range v.names {
		a, found := attrs[n]
		switch {
		case !found:
			return false
		case !a.IsKnown():
			unknown++
		case !a.IsNull():
			set++
		}
	}
	return set == 1 || (set == 0 && unknown > 0)
}
