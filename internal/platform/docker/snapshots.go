package docker

import (
	"context"

	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

type snapshots struct{ api *client.Client }

func (s *snapshots) Create(ctx context.Context, spec platform.SnapshotSpec) (*platform.Snapshot, error) {
	return nil, &platform.UnsupportedError{Platform: "docker", Capability: "snapshots (not yet implemented)"}
}
func (s *snapshots) Get(ctx context.Context, id string) (*platform.Snapshot, error) {
	return nil, &platform.NotFoundError{Kind: "snapshot", ID: id}
}
func (s *snapshots) List(ctx context.Context, filter platform.SnapshotFilter) ([]platform.Snapshot, error) {
	return nil, nil
}
func (s *snapshots) Delete(ctx context.Context, id string) error { return nil }
