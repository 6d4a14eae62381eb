package docker

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/build"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

// snapshotTestCleanupImage removes an image at the end of the test.
func snapshotTestCleanupImage(t *testing.T, api *client.Client, id string) {
	t.Cleanup(func() {
		_, _ = api.ImageRemove(context.Background(), id, image.RemoveOptions{Force: true, PruneChildren: true})
	})
}

// snapshotTestAgentImage builds the sandbox agent image with the legacy
// builder and returns its tag; removed at the end of the test.
func snapshotTestAgentImage(t *testing.T, api *client.Client) string {
	t.Helper()
	dir := acctest.AgentContextDir(t)
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, name := range []string{"Dockerfile", "agent"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(b)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		_, _ = tw.Write(b)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	tag := "sbx-test/snapshot-agent:" + randomHex(5)
	resp, err := api.ImageBuild(context.Background(), &buf, build.ImageBuildOptions{
		Tags: []string{tag}, Remove: true, ForceRemove: true, Version: build.BuilderV1,
		// No layer cache, as the provider's own builds: probing it reads
		// every base image of the engine, and one another test removes
		// at that moment fails the build ("unable to find image").
		NoCache: true,
	})
	if err != nil {
		t.Fatalf("building the agent image: %v", err)
	}
	// All that matters is read from the stream below; closing it
	// only frees the connection, so its error changes nothing.
	defer func() { _ = resp.Body.Close() }()
	if err := snapshotTestBuildErr(resp.Body); err != nil {
		t.Fatalf("building the agent image: %v", err)
	}
	snapshotTestCleanupImage(t, api, tag)
	return tag
}

// snapshotTestBuildErr reads a build's progress stream for its error.
func snapshotTestBuildErr(r io.Reader) error {
	dec := json.NewDecoder(r)
	for {
		var m struct {
			Error string `json:"error"`
		}
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
		if m.Error != "" {
			return errors.New(m.Error)
		}
	}
}

// snapshotTestContainer creates a container from img standing in for a
// sandbox (the sandbox code is not needed to test snapshots), starting it
// when start is true; removed at the end of the test.
func snapshotTestContainer(t *testing.T, api *client.Client, img string, labels map[string]string, env []string, start bool) string {
	t.Helper()
	ctx := context.Background()
	c, err := api.ContainerCreate(ctx, &container.Config{Image: img, Labels: labels, Env: env, Cmd: []string{"/agent"}}, &container.HostConfig{NetworkMode: "none"}, nil, nil, "")
	if err != nil {
		t.Fatalf("creating a container from %s: %v", img, err)
	}
	t.Cleanup(func() { _ = api.ContainerRemove(context.Background(), c.ID, container.RemoveOptions{Force: true}) })
	if start {
		if err := api.ContainerStart(ctx, c.ID, container.StartOptions{}); err != nil {
			t.Fatalf("starting %s: %v", c.ID, err)
		}
	}
	return c.ID
}

// snapshotTestReadFile reads one file out of a container (running or not);
// ok is false when it does not exist.
func snapshotTestReadFile(t *testing.T, api *client.Client, id, path string) (string, bool) {
	t.Helper()
	rc, _, err := api.CopyFromContainer(context.Background(), id, path)
	if cerrdefs.IsNotFound(err) {
		return "", false
	} else if err != nil {
		t.Fatalf("reading %s from %s: %v", path, id, err)
	}
	// An archive stream from the engine: a failed read or write shows
	// up where it is used, and closing it only frees the connection.
	defer func() { _ = rc.Close() }()
	files, err := helperTestReadTar(rc, "")
	if err != nil {
		t.Fatal(err)
	}
	f, ok := files[filepath.Base(path)]
	return f.Content, ok
}

// snapshotTestWaitFile waits until the agent in a container has written path.
// The agent writes it as it starts, within a second; the bound,
// clock.Patience, is for one that never does.
func snapshotTestWaitFile(t *testing.T, api *client.Client, id, path, want string) {
	t.Helper()
	if !clock.Eventually(func() bool {
		got, ok := snapshotTestReadFile(t, api, id, path)
		return ok && got == want
	}) {
		t.Fatalf("%s never held %q in container %s", path, want, id)
	}
}
