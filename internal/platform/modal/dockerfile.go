package modal

import (
	"errors"
	"fmt"
	"strings"

	dockerfileparse "github.com/sbxhq/terraform-provider-sbx/internal/dockerfile"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

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

// planBuild turns a Dockerfile into the SDK's build steps. onTemplate: the
// template builds on another template, so the Dockerfile has no FROM. Every
// instruction the SDK cannot build is a *DockerfileError naming its line.
func planBuild(content string, onTemplate bool) (*buildSteps, error) {
	f, err := dockerfileparse.Parse(content)
	if err != nil {
		var pe *dockerfileparse.Error
		if errors.As(err, &pe) {
			return nil, &DockerfileError{Line: pe.Line, Reason: pe.Reason}
		}
		return nil, err
	}
	if err := checkDirectives(f); err != nil {
		return nil, err
	}
	steps := &buildSteps{}
	for _, in := range f.Instructions {
		switch {
		case in.Keyword == "FROM" && onTemplate:
			return nil, &DockerfileError{Line: in.Line, Reason: "FROM: a template built on another template (from_template) " +
				"has no FROM line; its base is that template"}
		case in.Keyword == "FROM" && steps.Base == "":
			// The rest of the line, flags and stage name included: the SDK
			// writes "FROM <it>", so the line is built as written.
			steps.Base = in.Rest()
			continue
		case !onTemplate && steps.Base == "":
			return nil, &DockerfileError{Line: in.Line, Reason: in.Keyword + " before FROM: Modal's SDK writes the FROM line " +
				"itself, first; move the instruction after FROM (write an ARG's value into the FROM line)"}
		}
		if err := checkInstruction(in); err != nil {
			return nil, err
		}
		steps.Commands = append(steps.Commands, in.Original)
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
func checkInstruction(in dockerfileparse.Instruction) error {
	switch in.Keyword {
	case "COPY":
		if len(in.Flags) == 0 || !strings.EqualFold(in.Flags[0].Name, "from") {
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

// checkDirectives refuses an escape directive: the SDK writes the
// Dockerfile's first line itself (FROM <base>), so a directive given here
// would be a comment below it, and the lines it continues with the backtick
// would be read with the backslash. A syntax or check directive is left
// out the same way: the SDK has no place for one.
func checkDirectives(f *dockerfileparse.File) error {
	for _, d := range f.Directives {
		if d.Name == "escape" && d.Value != `\` {
			return &DockerfileError{Line: d.Line, Reason: "the escape parser directive: Modal's SDK writes the Dockerfile's " +
				"first line itself (FROM <base>), so the directive would not be at the top, where it is one; write the " +
				"Dockerfile with the default escape character, the backslash"}
		}
	}
	return nil
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
