package platform

import (
	"strings"
)

// DockerfileFromLine returns the 1-based line of the first FROM
// instruction in a Dockerfile, or 0 when it has none. Comments, blank lines
// and the lines a trailing backslash continues are skipped. A template
// built on another (TemplateSpec.FromTemplate) must have none: its base is
// the template.
func DockerfileFromLine(content string) int {
	continued := false
	for i, line := range strings.Split(content, "\n") {
		trimmed := strings.TrimSpace(line)
		wasContinued := continued
		continued = strings.HasSuffix(trimmed, "\\")
		if wasContinued || trimmed == "" || strings.HasPrefix(trimmed, "#") {
			if wasContinued && (trimmed == "" || strings.HasPrefix(trimmed, "#")) {
				continued = true // a blank or comment line inside a continuation keeps it going
			}
			continue
		}
		if strings.EqualFold(strings.Fields(trimmed)[0], "FROM") {
			return i + 1
		}
	}
	return 0
}
