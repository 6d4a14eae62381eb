package docker

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestDefinitionHost: docker.host is checked as the engine address the
// client can reach, and its value is shown without a password.
func TestDefinitionHost(t *testing.T) {
	def := Definition()
	host, ok := def.Setting("host")
	if !ok || host.Validate == nil || len(host.Env) != 1 || host.Env[0] != "DOCKER_HOST" || host.Required || host.Sensitive {
		t.Fatalf("host setting = %+v", host)
	}
	if def.Name != "docker" || !def.Default || def.Retries {
		t.Errorf("definition = %+v, want docker, the default, without retries", def)
	}
	for _, ok := range []string{"unix:///var/run/docker.sock", "tcp://build-host:2376", "ssh://user@build-host"} {
		if err := host.Validate(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for v, want := range map[string]string{
		"ftp://x":                 `"ftp://x" uses the scheme "ftp://", which is not supported`,
		"tcp://build-host":        `"tcp://build-host" needs a port`,
		"tcp://u:hunter2@host:23": `"tcp://u:xxxxx@host:23" holds a password`,
	} {
		err := host.Validate(v)
		if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: %v, want %s...", v, err, want)
		}
	}
}

// TestDefinitionConfigureNoEngine: an engine that is not there is a
// ConfigureError saying how to point the provider at one.
func TestDefinitionConfigureNoEngine(t *testing.T) {
	host := "unix://" + filepath.Join(t.TempDir(), "no.sock")
	_, err := Definition().Configure(context.Background(), platform.Config{Settings: map[string]string{"host": host}})
	var ce *platform.ConfigureError
	if !errors.As(err, &ce) || ce.Summary != "Cannot connect to Docker" ||
		!strings.Contains(ce.Err.Error(), "cannot reach the Docker engine at "+host) ||
		!strings.HasSuffix(ce.Err.Error(), "\n\nStart the Docker engine, or point the provider at one with docker { host = ... } or DOCKER_HOST.") {
		t.Errorf("err = %v", err)
	}
}
