package docker

import (
	"context"

	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

type templates struct{ api *client.Client }

func (s *templates) Create(ctx context.Context, spec platform.TemplateSpec) (*platform.Template, error) {
	return nil, &platform.UnsupportedError{Platform: "docker", Capability: "templates (not yet implemented)"}
}
func (s *templates) Rebuild(ctx context.Context, id string, spec platform.TemplateSpec) (*platform.Template, error) {
	return nil, &platform.UnsupportedError{Platform: "docker", Capability: "templates (not yet implemented)"}
}
func (s *templates) Get(ctx context.Context, id string) (*platform.Template, error) {
	return nil, &platform.NotFoundError{Kind: "template", ID: id}
}
func (s *templates) List(ctx context.Context, filter platform.TemplateFilter) ([]platform.Template, error) {
	return nil, nil
}
func (s *templates) Delete(ctx context.Context, id string) error { return nil }
