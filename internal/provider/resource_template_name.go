package provider

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Template names become image repository path components on Docker (and
// template names on the other platforms), hence the OCI component grammar.
const (
	templateNamePattern = `^[a-z0-9]+([._-][a-z0-9]+)*$`
	templateNameMaxLen  = 128
)

var templateNameRE = regexp.MustCompile(templateNamePattern)

// templateNameProblem says what is wrong with a template name, or "" when it is valid.
func templateNameProblem(name string) string {
	switch {
	case len(name) > templateNameMaxLen:
		return fmt.Sprintf("it is %d characters long; at most %d are allowed", len(name), templateNameMaxLen)
	case !templateNameRE.MatchString(name):
		return "use lowercase letters and digits, optionally separated by single '.', '_' or '-' " +
			"(no leading, trailing or repeated separators), matching " + templateNamePattern
	}
	return ""
}

// templateNameValidator checks sbx_template.name against the naming rule.
type templateNameValidator struct{}

var _ validator.String = templateNameValidator{}

func (templateNameValidator) Description(_ context.Context) string {
	return fmt.Sprintf("must match %s and be at most %d characters", templateNamePattern, templateNameMaxLen)
}

func (v templateNameValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (templateNameValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	name := req.ConfigValue.ValueString()
	if problem := templateNameProblem(name); problem != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid template name",
			fmt.Sprintf("%s = %q is not a valid template name: %s.", req.Path, name, problem))
	}
}
