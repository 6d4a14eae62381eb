package provider

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"testing"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/client"
	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/docker"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

// TestAccConformanceDocker runs the platform conformance suite against the
// local Docker engine.
func TestAccConformanceDocker(t *testing.T) {
	// Checked first: building the harness needs the engine.
	api := acctest.RequireDocker(t)
	acctest.RequireTerraform(t)
	plat, err := docker.New(context.Background(), docker.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = plat.Close() })
	contextDir := acctest.AgentContextDir(t)

	platformtest.Run(t, platformtest.Harness{
		Name:              plat.Name(),
		ProviderFactories: testAccProtoV6ProviderFactories,
		ProviderConfig:    `provider "sbx" {}`,
		TemplateConfig: func(name string) string {
			return fmt.Sprintf("  name        = %q\n  dockerfile  = %q\n  context_dir = %q\n", name, acctest.AgentDockerfile, contextDir)
		},
		Capabilities: plat.Capabilities(),
		OutOfBand:    &conformanceDockerOOB{api: api, helperImage: conformanceDockerHelperImage(t, api)},
		PreCheck:     testAccPreCheck,
		// An image does not keep the Dockerfile or the build context it was
		// built from, so an imported template cannot report them.
		ImportStateVerifyIgnore: map[string][]string{
			"sbx_template": {"dockerfile", "context_dir", "context_hash"},
			// Docker does not report when a box entered its status: an
			// import records the import time.
			"sbx_sandbox": {"status_since"},
		},
	})
}

// conformanceDockerOOB acts on the engine directly, as `docker` would.
type conformanceDockerOOB struct {
	api         *client.Client
	helperImage string
}

var _ platformtest.OutOfBand = (*conformanceDockerOOB)(nil)

func (o *conformanceDockerOOB) SandboxState(t *testing.T, id string) platform.SandboxState {
	t.Helper()
	c, err := o.api.ContainerInspect(context.Background(), id)
	if err != nil {
		t.Fatalf("inspecting container %s: %v", id, err)
	}
	switch {
	case c.State.Paused:
		return platform.StatePaused
	case c.State.Running:
		return platform.StateRunning
	default:
		return platform.StateStopped
	}
}

func (o *conformanceDockerOOB) SetSandboxState(t *testing.T, id string, state platform.SandboxState) {
	t.Helper()
	ctx := context.Background()
	current := o.SandboxState(t, id)
	var err error
	switch state {
	case platform.StatePaused:
		err = o.api.ContainerPause(ctx, id)
	case platform.StateStopped:
		if current == platform.StatePaused {
			if err = o.api.ContainerUnpause(ctx, id); err != nil {
				break
			}
		}
		timeout := 10
		err = o.api.ContainerStop(ctx, id, container.StopOptions{Timeout: &timeout})
	case platform.StateRunning:
		if current == platform.StatePaused {
			err = o.api.ContainerUnpause(ctx, id)
		} else {
			err = o.api.ContainerStart(ctx, id, container.StartOptions{})
		}
	default:
		t.Fatalf("cannot set a sandbox to %q", state)
	}
	if err != nil {
		t.Fatalf("docker: setting container %s to %s: %v", id, state, err)
	}
}

func (o *conformanceDockerOOB) Delete(t *testing.T, kind, id string) {
	t.Helper()
	ctx := context.Background()
	var err error
	switch kind {
	case platformtest.KindSandbox:
		err = o.api.ContainerRemove(ctx, id, container.RemoveOptions{Force: true})
	case platformtest.KindVolume:
		err = o.api.VolumeRemove(ctx, id, true)
	case platformtest.KindSnapshot, platformtest.KindTemplate:
		_, err = o.api.ImageRemove(ctx, id, image.RemoveOptions{Force: true, PruneChildren: true})
	default:
		t.Fatalf("unknown kind %q", kind)
	}
	if err != nil && !cerrdefs.IsNotFound(err) {
		t.Fatalf("docker: deleting %s %s: %v", kind, id, err)
	}
}

func (o *conformanceDockerOOB) Exists(t *testing.T, kind, id string) bool {
	t.Helper()
	ctx := context.Background()
	var err error
	switch kind {
	case platformtest.KindSandbox:
		_, err = o.api.ContainerInspect(ctx, id)
	case platformtest.KindVolume:
		_, err = o.api.VolumeInspect(ctx, id)
	case platformtest.KindSnapshot, platformtest.KindTemplate:
		_, err = o.api.ImageInspect(ctx, id)
	default:
		t.Fatalf("unknown kind %q", kind)
	}
	if cerrdefs.IsNotFound(err) {
		return false
	}
	if err != nil {
		t.Fatalf("docker: inspecting %s %s: %v", kind, id, err)
	}
	return true
}

func (o *conformanceDockerOOB) ReadSandboxFile(t *testing.T, sandboxID, p string) (string, bool) {
	t.Helper()
	return conformanceDockerCopyOut(t, o.api, sandboxID, p)
}

// ReadVolumeFile mounts the volume into a container that is created but
// never started (docker cp works on those), and copies the file out.
func (o *conformanceDockerOOB) ReadVolumeFile(t *testing.T, volumeID, p string) (string, bool) {
	t.Helper()
	ctx := context.Background()
	c, err := o.api.ContainerCreate(ctx,
		&container.Config{Image: o.helperImage, Cmd: []string{"/never-run"}},
		&container.HostConfig{Mounts: []mount.Mount{{Type: mount.TypeVolume, Source: volumeID, Target: "/vol", ReadOnly: true}}},
		nil, nil, "")
	if err != nil {
		t.Fatalf("docker: creating a reader for volume %s: %v", volumeID, err)
	}
	defer func() { _ = o.api.ContainerRemove(ctx, c.ID, container.RemoveOptions{Force: true}) }()
	return conformanceDockerCopyOut(t, o.api, c.ID, path.Join("/vol", p))
}

// conformanceDockerCopyOut reads one regular file out of a container.
func conformanceDockerCopyOut(t *testing.T, api *client.Client, containerID, p string) (string, bool) {
	t.Helper()
	rc, _, err := api.CopyFromContainer(context.Background(), containerID, p)
	if cerrdefs.IsNotFound(err) {
		return "", false
	}
	if err != nil {
		t.Fatalf("docker cp %s:%s: %v", containerID, p, err)
	}
	// An archive stream from the engine: a failed read shows up below,
	// and closing it only frees the connection.
	defer func() { _ = rc.Close() }()
	tr := tar.NewReader(rc)
	hdr, err := tr.Next()
	if errors.Is(err, io.EOF) {
		return "", false
	}
	if err != nil {
		t.Fatalf("docker cp %s:%s: reading the archive: %v", containerID, p, err)
	}
	if hdr.Typeflag != tar.TypeReg {
		t.Fatalf("docker cp %s:%s: not a regular file", containerID, p)
	}
	b, err := io.ReadAll(tr)
	if err != nil {
		t.Fatalf("docker cp %s:%s: %v", containerID, p, err)
	}
	return string(b), true
}

// conformanceDockerHelperImage imports an empty image to make volume
// readers from; no registry is needed and nothing in it ever runs.
func conformanceDockerHelperImage(t *testing.T, api *client.Client) string {
	t.Helper()
	ref := "sbx-conformance-reader:" + strings.TrimPrefix(sdkacctest.RandomWithPrefix("r"), "r-")
	var empty bytes.Buffer
	if err := tar.NewWriter(&empty).Close(); err != nil {
		t.Fatal(err)
	}
	rc, err := api.ImageImport(context.Background(), image.ImportSource{Source: &empty, SourceName: "-"}, ref, image.ImportOptions{})
	if err != nil {
		t.Fatalf("docker import: %v", err)
	}
	_, _ = io.Copy(io.Discard, rc)
	_ = rc.Close()
	t.Cleanup(func() {
		_, _ = api.ImageRemove(context.Background(), ref, image.RemoveOptions{Force: true})
	})
	return ref
}
