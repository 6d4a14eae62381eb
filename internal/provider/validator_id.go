package provider

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// objectIDValidator refuses an empty or blank id of another object (a
// mount's volume_id, a sandbox's template_id, a snapshot's source): no
// platform has an object with that id, yet the plan would pass and only
// the apply would fail. kind names the object ("volume"), so the error
// says what to give instead.
func objectIDValidator(kind string) validator.String {
	return stringRule{
		description: "the id of a " + kind + ", not empty",
		summary:     "Empty " + kind + " id",
		sep:         ": ",
		problem: func(s string) string {
			if strings.TrimSpace(s) != "" {
				return ""
			}
			return "an id cannot be empty or blank; give the id of a " + kind + ", such as sbx_" + kind + ".x.id"
		},
	}
}
