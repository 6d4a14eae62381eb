package orphans

import (
	"context"
	"fmt"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/docker"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// Platforms the command can check.
var platformNames = []string{"docker", "e2b"}

// connect builds the named platform from the environment, as the provider
// does with an empty platform block: DOCKER_HOST (and DOCKER_TLS_VERIFY,
// DOCKER_CERT_PATH) for docker; E2B_API_KEY and E2B_API_URL for e2b.
func connect(ctx context.Context, name, version string, getenv func(string) string) (platform.Platform, error) {
	switch name {
	case "docker":
		p, err := docker.New(ctx, docker.Config{Host: getenv("DOCKER_HOST")})
		if err != nil {
			return nil, fmt.Errorf("%w\nStart the Docker engine, or point DOCKER_HOST at one", err)
		}
		return p, nil
	case "e2b":
		key := getenv("E2B_API_KEY")
		if key == "" {
			return nil, fmt.Errorf("no E2B API key: set the E2B_API_KEY environment variable")
		}
		return e2b.New(e2b.Config{
			APIKey: key, APIURL: getenv("E2B_API_URL"),
			MaxRetries: rest.DefaultMaxRetries, UserAgent: "terraform-provider-sbx/" + version + " (+e2b; orphans)",
		})
	}
	return nil, fmt.Errorf("unknown platform %q: use docker or e2b", name)
}

// closePlatform releases a platform's connection where it holds one.
func closePlatform(p platform.Platform) {
	if c, ok := p.(interface{ Close() error }); ok {
		_ = c.Close() // the command is ending; nothing to do about a failed close
	}
}
