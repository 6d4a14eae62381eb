package docker

import (
	"fmt"

	dockerfileparse "github.com/sbxhq/terraform-provider-sbx/internal/dockerfile"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

var _ platform.TemplateSpecValidator = (*Platform)(nil)

// ValidateTemplateSpec reports at plan time a Dockerfile the engine cannot
// build: one that does not parse, one with no FROM, or with an instruction
// other than ARG before it (the engine would fail the build with "no build
// stage in current context", naming neither the line nor the attribute).
// A template built on another has no FROM: its base is that template.
func (p *Platform) ValidateTemplateSpec(spec platform.TemplateSpec) error {
	return checkTemplateDockerfile(spec)
}

// checkTemplateDockerfile is ValidateTemplateSpec's check, also made
// before a build.
func checkTemplateDockerfile(spec platform.TemplateSpec) error {
	if spec.Dockerfile == "" {
		return nil
	}
	f, err := dockerfileparse.Parse(spec.Dockerfile)
	switch {
	case err != nil:
		return err
	case spec.FromTemplate != "":
		if line := f.FromLine(); line > 0 {
			return fmt.Errorf("dockerfile line %d: a Dockerfile built on from_template has no FROM line: "+
				"the base is the template; remove it", line)
		}
	default:
		if problem := f.BaseProblem(); problem != "" {
			return fmt.Errorf("dockerfile %s", problem)
		}
	}
	return nil
}
