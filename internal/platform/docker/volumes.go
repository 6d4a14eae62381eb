package docker

import (
	"context"

	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

type volumes struct{ api *client.Client }

func (s *volumes) Create(ctx context.Context, spec platform.VolumeSpec) (*platform.Volume, error) {
	return nil, &platform.UnsupportedError{Platform: "docker", Capability: "volumes (not yet implemented)"}
}
func (s *volumes) Get(ctx context.Context, id string) (*platform.Volume, error) {
	return nil, &platform.NotFoundError{Kind: "volume", ID: id}
}
func (s *volumes) List(ctx context.Context, filter platform.VolumeFilter) ([]platform.Volume, error) {
	return nil, nil
}
func (s *volumes) SetLabels(ctx context.Context, id string, labels map[string]string) (*platform.Volume, error) {
	return nil, &platform.UnsupportedError{Platform: "docker", Capability: "volumes (not yet implemented)"}
}
func (s *volumes) Resize(ctx context.Context, id string, sizeGB int64) (*platform.Volume, error) {
	return nil, &platform.UnsupportedError{Platform: "docker", Capability: "volume sizes"}
}
func (s *volumes) Delete(ctx context.Context, id string) error { return nil }
