package modal

import (
	"fmt"
	"strings"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// instruction is one Dockerfile instruction: its keyword, its text (the
// lines a trailing backslash joins, as written) and its first line.
type instruction struct {
	Keyword string
	Text    string
	Line    int
}

// buildSteps is a Dockerfile as Modal's SDK builds it: the base (the rest
// of the FROM line; "" when the template builds on another template) and
// the other instructions, which the SDK writes after a FROM line of its own.
type buildSteps struct {
	Base     string
	Commands []string
}

// DockerfileError names the Dockerfile line Modal cannot build, so the
// plan error points at it.
type DockerfileError struct {
	Line   int
	Reason string
}

func (e *DockerfileError) Error() string {
	return fmt.Sprintf("dockerfile line %d: %s", e.Line, e.Reason)
}

// splitInstructions cuts a Dockerfile into instructions, dropping blank
// and comment lines outside instructions. It is pure, for plan time.
func splitInstructions(content string) []instruction {
	var out []instruction
	var cur *instruction
	for i, line := range strings.Split(content, "\n") {
		trimmed := strings.TrimSpace(line)
		if cur != nil {
			cur.Text += "\n" + line
			if !strings.HasSuffix(trimmed, "\\") && trimmed != "" && !strings.HasPrefix(trimmed, "#") {
				out, cur = append(out, *cur), nil
			}
			continue
		}
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		in := instruction{Keyword: strings.ToUpper(strings.Fields(trimmed)[0]), Text: line, Line: i + 1}
		if strings.HasSuffix(trimmed, "\\") {
			cur = &in
			continue
		}
		out = append(out, in)
	}
	if cur != nil {
		out = append(out, *cur)
	}
	return out
}

// planBuild turns a Dockerfile into the SDK's build steps. onTemplate: the
// template builds on another template, so the Dockerfile has no FROM. Every
// instruction the SDK cannot build is a *DockerfileError naming its line.
func planBuild(content string, onTemplate bool) (*buildSteps, error) {
	steps := &buildSteps{}
	for _, in := range splitInstructions(content) {
		switch {
		case in.Keyword == "FROM" && onTemplate:
			return nil, &DockerfileError{Line: in.Line, Reason: "FROM: a template built on another template (from_template) " +
				"has no FROM line; its base is that template"}
		case in.Keyword == "FROM" && steps.Base == "":
			// The rest of the line, flags and stage name included: the SDK
			// writes "FROM <it>", so the line is built as written.
			steps.Base = strings.TrimSpace(joinContinued(in.Text)[len("FROM"):])
			continue
		case !onTemplate && steps.Base == "":
			return nil, &DockerfileError{Line: in.Line, Reason: in.Keyword + " before FROM: Modal's SDK writes the FROM line " +
				"itself, first; move the instruction after FROM (write an ARG's value into the FROM line)"}
		}
		if err := checkInstruction(in); err != nil {
			return nil, err
		}
		steps.Commands = append(steps.Commands, in.Text)
	}
	if !onTemplate && steps.Base == "" {
		return nil, &DockerfileError{Line: 1, Reason: "no FROM line: the Dockerfile must start from an image"}
	}
	if onTemplate && len(steps.Commands) == 0 {
		// With no step the SDK's image would be the base itself, and
		// deleting the template would delete the base.
		return nil, &DockerfileError{Line: 1, Reason: "no instruction: a template built on another template needs at " +
			"least one step; to use the base as it is, give its id where the template is used"}
	}
	return steps, nil
}

// checkInstruction refuses what Modal's SDK cannot build: it uploads no
// build context, so COPY works only from another image or stage
// (COPY --from=..., first flag, as the SDK checks it) and ADD not at all.
func checkInstruction(in instruction) error {
	switch in.Keyword {
	case "COPY":
		if !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(in.Text)), "COPY --FROM=") {
			return &DockerfileError{Line: in.Line, Reason: "COPY of local files: Modal's Go SDK uploads no build context, " +
				"so only COPY --from=<image or stage> (as its first flag) works; put the files in a base image, or fetch " +
				"them with RUN (curl, git clone)"}
		}
	case "ADD":
		return &DockerfileError{Line: in.Line, Reason: "ADD: Modal's Go SDK uploads no build context; fetch the files " +
			"with RUN (curl, git clone), or use COPY --from=<image>"}
	}
	return nil
}

// joinContinued is an instruction's text on one line: each trailing
// backslash and line break become a space.
func joinContinued(text string) string {
	var parts []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "#") {
			continue
		}
		parts = append(parts, strings.TrimSpace(strings.TrimSuffix(l, "\\")))
	}
	return strings.Join(parts, " ")
}

// templateSpecs is Modal's plan-time check of a template (Extensions.TemplateSpecs).
type templateSpecs struct{}

// ValidateTemplateSpec implements platform.TemplateSpecValidator: the
// Dockerfile must be one the SDK can build.
func (templateSpecs) ValidateTemplateSpec(spec platform.TemplateSpec) error {
	if spec.Dockerfile == "" {
		return nil
	}
	_, err := planBuild(spec.Dockerfile, spec.FromTemplate != "")
	return err
}
