package provider

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// dsUserLabels renders an object's labels without the provider's reserved
// keys, as a known map (empty rather than null) since it is a result.
func dsUserLabels(all map[string]string) types.Map {
	v, _ := types.MapValueFrom(context.Background(), types.StringType, platform.UserLabels(all))
	return v
}

// goRegexpValidator rejects a string that is not a Go regular expression, at
// plan time, naming the attribute, the value and the parser's complaint.
type goRegexpValidator struct{}

var _ validator.String = goRegexpValidator{}

func (goRegexpValidator) Description(_ context.Context) string {
	return "value must be a valid Go (RE2) regular expression"
}

func (v goRegexpValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (goRegexpValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := regexp.Compile(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid regular expression",
			fmt.Sprintf("%s = %q is not a valid Go (RE2) regular expression: %s. "+
				"The syntax is described at https://pkg.go.dev/regexp/syntax.", req.Path, req.ConfigValue.ValueString(), err))
	}
}
