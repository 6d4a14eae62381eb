package docker

import (
	"context"

	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

type sandboxes struct{ api *client.Client }

func (s *sandboxes) Create(ctx context.Context, spec platform.SandboxSpec) (*platform.Sandbox, error) {
	return nil, &platform.UnsupportedError{Platform: "docker", Capability: "sandboxes (not yet implemented)"}
}
func (s *sandboxes) Get(ctx context.Context, id string) (*platform.Sandbox, error) {
	return nil, &platform.NotFoundError{Kind: "sandbox", ID: id}
}
func (s *sandboxes) List(ctx context.Context, filter platform.SandboxFilter) ([]platform.Sandbox, error) {
	return nil, nil
}
func (s *sandboxes) SetState(ctx context.Context, id string, state platform.SandboxState) (*platform.Sandbox, error) {
	return nil, &platform.UnsupportedError{Platform: "docker", Capability: "sandboxes (not yet implemented)"}
}
func (s *sandboxes) Resize(ctx context.Context, id string, cpuCount, memoryMB int64) (*platform.Sandbox, error) {
	return nil, &platform.UnsupportedError{Platform: "docker", Capability: "sandboxes (not yet implemented)"}
}
func (s *sandboxes) Delete(ctx context.Context, id string) error { return nil }
