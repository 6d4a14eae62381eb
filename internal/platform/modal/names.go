package modal

import (
	"fmt"
	"regexp"
)

// Modal's rule for the names of its objects (sandboxes, volumes, apps), as
// its SDK checks sandbox names (name_utils.go) and its server checks the
// rest: letters, digits, dashes, periods and underscores, at most 64
// characters, and not the shape of an app id.
var (
	objectNameChars = regexp.MustCompile(`^[a-zA-Z0-9._-]+$`)
	appIDShape      = regexp.MustCompile(`^ap-[a-zA-Z0-9]{22}$`)
)

// nameProblem says what is wrong with name as a Modal object name, "" when
// nothing is.
func nameProblem(name string) string {
	switch {
	case len(name) > 64:
		return fmt.Sprintf("is %d characters long; Modal names are at most 64", len(name))
	case !objectNameChars.MatchString(name):
		return "holds characters Modal names cannot: only letters, digits, dashes, periods and underscores"
	case appIDShape.MatchString(name):
		return "has the shape of a Modal app id, which Modal refuses as a name"
	}
	return ""
}
