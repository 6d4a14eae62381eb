package provider

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/duration"
)

// Every duration attribute (sandbox timeout & co., snapshot ttl) is read
// with duration.Parse, Go durations plus a "d" day suffix, by the
// validator that judges it and by the code that uses it: one parser, so a
// value that validates is a value that parses.

// positiveDurationValidator accepts a positive duration ("1h", "90m", "7d").
type positiveDurationValidator struct{}

var _ validator.String = positiveDurationValidator{}

func (positiveDurationValidator) Description(_ context.Context) string {
	return "a positive duration such as 1h, 90m or 7d"
}

func (v positiveDurationValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v positiveDurationValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	s := req.ConfigValue.ValueString()
	d, err := duration.Parse(s)
	problem := ""
	switch {
	case err != nil:
		problem = "not a duration"
	case d <= 0:
		problem = "must be positive"
	}
	if problem != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid duration",
			fmt.Sprintf("%s = %s: %s; use %s.", req.Path, strconv.Quote(s), problem, v.Description(ctx)))
	}
}

// durationFromTF parses a validated duration attribute; null, unknown or
// invalid is 0 (unset).
func durationFromTF(v types.String) time.Duration {
	if v.IsNull() || v.IsUnknown() {
		return 0
	}
	d, err := duration.Parse(v.ValueString())
	if err != nil || d < 0 {
		return 0
	}
	return d
}
