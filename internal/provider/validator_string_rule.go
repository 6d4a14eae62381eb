package provider

import (
	"context"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// stringRule is a plan-time check of one string attribute by a function
// that says what is wrong with a value ("" when nothing is): the mount
// path, the volume subpath and the retention durations are all checked
// this way, so every such error reads the same.
type stringRule struct {
	// description says what a valid value is (the schema's validator docs).
	description string
	// summary is the error's summary ("Invalid mount path").
	summary string
	// sep joins the value and the problem in the detail: " " where the
	// problem continues the sentence ("is not an absolute path"), ": "
	// where it stands alone ("not a duration").
	sep     string
	problem func(string) string
}

var _ validator.String = stringRule{}

func (r stringRule) Description(_ context.Context) string { return r.description }

func (r stringRule) MarkdownDescription(ctx context.Context) string { return r.Description(ctx) }

func (r stringRule) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if msg := r.problem(req.ConfigValue.ValueString()); msg != "" {
		resp.Diagnostics.AddAttributeError(req.Path, r.summary,
			fmt.Sprintf("%s = %s%s%s.", req.Path, strconv.Quote(req.ConfigValue.ValueString()), r.sep, msg))
	}
}
