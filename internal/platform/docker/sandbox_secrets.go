package docker

import (
	"context"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/redact"
)

// maskedSandboxes is the SandboxService the platform hands out: sandboxes,
// with the values of a box's env masked in every error that starts or
// changes a box. The engine quotes NAME=value when it refuses a variable
// (runc: `environment variable value can't contain null: "NAME=..."`),
// and a box's log lines and ready_cmd output may echo what it was given; an
// error names the variable, never its value.
type maskedSandboxes struct{ *sandboxes }

var _ platform.SandboxService = maskedSandboxes{}

// Create implements platform.SandboxService.
func (s maskedSandboxes) Create(ctx context.Context, spec platform.SandboxSpec) (*platform.Sandbox, error) {
	sb, err := s.sandboxes.Create(ctx, spec)
	if err != nil {
		var sec redact.Secrets
		sec.EnvMap(spec.Env)
		err = sec.Error(err)
	}
	return sb, err
}

// SetState implements platform.SandboxService.
func (s maskedSandboxes) SetState(ctx context.Context, id string, state platform.SandboxState) (*platform.Sandbox, error) {
	sb, err := s.sandboxes.SetState(ctx, id, state)
	return sb, s.mask(ctx, id, err)
}

// Update implements platform.SandboxService.
func (s maskedSandboxes) Update(ctx context.Context, id string, change platform.SandboxUpdate) (*platform.Sandbox, error) {
	sb, err := s.sandboxes.Update(ctx, id, change)
	return sb, s.mask(ctx, id, err)
}

// mask hides the env values of box id in err.
func (s maskedSandboxes) mask(ctx context.Context, id string, err error) error {
	if err == nil {
		return nil
	}
	// ctx may be what ended; the box's env is needed all the same.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), AnswerTimeout)
	defer cancel()
	c, ierr := s.api.ContainerInspect(ctx, id)
	if ierr != nil {
		return err
	}
	return s.secrets(ctx, c).Error(err)
}
