// Package docker implements the sandbox platform on a Docker Engine: templates
// are images, sandboxes are containers, volumes are Docker volumes, snapshots
// are committed or imported images.
package docker

import (
	"context"
	"fmt"

	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Config configures the connection to the Docker Engine.
type Config struct {
	// Host is the engine address, e.g. unix:///var/run/docker.sock or
	// tcp://host:2376. Empty means DOCKER_HOST, else the local socket.
	Host string
}

// Platform is the Docker implementation of platform.Platform.
type Platform struct {
	api *client.Client
}

var _ platform.Platform = (*Platform)(nil)

// New connects to the Docker Engine and negotiates the API version, so an
// older engine (Debian's 20.10 speaks API 1.41) works with this client.
func New(ctx context.Context, cfg Config) (*Platform, error) {
	opts := []client.Opt{client.FromEnv, client.WithAPIVersionNegotiation()}
	if cfg.Host != "" {
		opts = append(opts, client.WithHost(cfg.Host))
	}
	api, err := client.NewClientWithOpts(opts...)
	if err != nil {
		return nil, fmt.Errorf("docker client: %w", err)
	}
	if _, err := api.Ping(ctx); err != nil {
		return nil, fmt.Errorf("cannot reach the Docker engine at %s: %w", api.DaemonHost(), err)
	}
	return &Platform{api: api}, nil
}

// Name implements platform.Platform.
func (p *Platform) Name() string { return "docker" }

// Capabilities implements platform.Platform.
func (p *Platform) Capabilities() platform.Capabilities { return capabilities }

// Templates implements platform.Platform.
func (p *Platform) Templates() platform.TemplateService { return &templates{api: p.api} }

// Volumes implements platform.Platform.
func (p *Platform) Volumes() platform.VolumeService { return &volumes{api: p.api} }

// Sandboxes implements platform.Platform.
func (p *Platform) Sandboxes() platform.SandboxService { return &sandboxes{api: p.api} }

// Snapshots implements platform.Platform.
func (p *Platform) Snapshots() platform.SnapshotService { return &snapshots{api: p.api} }

// Client exposes the engine client to tests in other packages that need to
// act out of band (pause a container, delete a volume).
func (p *Platform) Client() *client.Client { return p.api }

// Close releases the connection.
func (p *Platform) Close() error { return p.api.Close() }

var _ platform.IDPlanner = (*Platform)(nil)

// PlannedID implements platform.IDPlanner: a template's id is its tag and a
// volume's id its name, both known before anything is made.
func (p *Platform) PlannedID(kind, name string) (string, bool) {
	switch kind {
	case kindTemplate:
		return TemplateID(name), true
	case kindVolume:
		return name, true
	}
	return "", false
}
