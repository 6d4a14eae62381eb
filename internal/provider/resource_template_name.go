package provider

import (
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Template names become image repository path components on a platform
// that keeps templates as images (and template names on the others), hence
// the OCI component grammar.
const (
	templateNamePattern = `^[a-z0-9]+([._-][a-z0-9]+)*$`
	templateNameMaxLen  = 128
)

var templateNameRE = regexp.MustCompile(templateNamePattern)

// templateNameValidators check sbx_template.name against the naming rule;
// each error names the attribute, the value (or its length) and what is allowed.
func templateNameValidators() []validator.String {
	return []validator.String{
		stringvalidator.LengthAtMost(templateNameMaxLen),
		stringvalidator.RegexMatches(templateNameRE,
			"must be lowercase letters and digits, optionally separated by single '.', '_' or '-' "+
				"(no leading, trailing or repeated separators)"),
	}
}
