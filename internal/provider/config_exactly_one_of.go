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
// in the plan's profile. When every one of the attributes is known and
// exactly one is set, nothing is wrong and nothing is walked; any other
// configuration (none set, several, an unknown) goes to ExactlyOneOf,
// whose diagnostics stay the ones users see.
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
	if v.exactlyOneKnown(req) {
		return
	}
	v.full.ValidateResource(ctx, req, resp)
}

// exactlyOneKnown reports whether the configuration holds every one of
// the attributes known and exactly one of them not null.
func (v exactlyOneOfRoot) exactlyOneKnown(req resource.ValidateConfigRequest) bool {
	attrs, ok := rootAttributes(req.Config.Raw)
	if !ok || attrs == nil {
		return false
	}
	set := 0
	for _, n := range v.names {
		a, found := attrs[n]
		if !found || !a.IsKnown() {
			return false
		}
		if !a.IsNull() {
			set++
		}
	}
	return set == 1
}
