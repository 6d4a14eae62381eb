package platform

import (
	"fmt"
	"iter"
	"strings"
)

// dockerfileInstructions yields the 1-based line and the upper-cased
// keyword of each instruction of a Dockerfile. Comments, blank lines and
// the lines a trailing backslash continues are skipped (a blank or comment
// line inside a continuation keeps it going).
func dockerfileInstructions(content string) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		continued := false
		for i, line := range strings.Split(content, "\n") {
			trimmed := strings.TrimSpace(line)
			wasContinued := continued
			continued = strings.HasSuffix(trimmed, "\\")
			if wasContinued || trimmed == "" || strings.HasPrefix(trimmed, "#") {
				if wasContinued && (trimmed == "" || strings.HasPrefix(trimmed, "#")) {
					continued = true
				}
				continue
			}
			if !yield(i+1, strings.ToUpper(strings.Fields(trimmed)[0])) {
				return
			}
		}
	}
}

// DockerfileFromLine returns the 1-based line of the first FROM
// instruction in a Dockerfile, or 0 when it has none. A template built on
// another (TemplateSpec.FromTemplate) must have none: its base is the
// template.
func DockerfileFromLine(content string) int {
	for line, word := range dockerfileInstructions(content) {
		if word == "FROM" {
			return line
		}
	}
	return 0
}

// DockerfileBaseProblem says what is wrong with how a Dockerfile names its
// base image, "" when nothing is: it must have a FROM line, and only ARG
// may come before the first one (Docker's own rule). A template built on
// another (FromTemplate) has no FROM and is not judged here.
func DockerfileBaseProblem(content string) string {
	for line, word := range dockerfileInstructions(content) {
		switch word {
		case "FROM":
			return ""
		case "ARG":
		default:
			return fmt.Sprintf("line %d: %s comes before FROM; only ARG may come before the FROM line that names the base image", line, word)
		}
	}
	return "the Dockerfile has no FROM line: it must name its base image (or give from_template and no FROM)"
}
