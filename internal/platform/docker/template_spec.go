package docker

import (
	"fmt"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

var _ platform.TemplateSpecValidator = (*Platform)(nil)

// ValidateTemplateSpec reports at plan time a Dockerfile the engine cannot
// build: one with no FROM, or with an instruction other than ARG before it
// (the engine would fail the build with "no build stage in current
// context", naming neither the line nor the attribute). A template built
// on another has no FROM: its base is that template.
func (p *Platform) ValidateTemplateSpec(spec platform.TemplateSpec) error {
	if spec.Dockerfile == "" || spec.FromTemplate != "" {
		return nil
	}
	if problem := platform.DockerfileBaseProblem(spec.Dockerfile); problem != "" {
		return fmt.Errorf("dockerfile %s", problem)
	}
	return nil
}
