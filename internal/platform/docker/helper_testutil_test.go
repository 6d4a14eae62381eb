package docker

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// helperTestFile is one file (or directory, when Dir) in a volume, with what
// a copy must keep: content, mode and owner.
type helperTestFile struct {
	Content  string
	Mode     int64
	UID, GID int
	Dir      bool
}

// helperTestName is a unique Docker object name for one test.
func helperTestName(prefix string) string { return "tf-acc-" + prefix + "-" + randomHex(5) }

// helperTestWriteVolume writes files (paths relative to the volume root)
// into a volume through a helper container.
func helperTestWriteVolume(t *testing.T, api *client.Client, vol string, files map[string]helperTestFile) {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for path, f := range files {
		h := &tar.Header{Name: "vol/" + path, Mode: f.Mode, Uid: f.UID, Gid: f.GID, Typeflag: tar.TypeReg, Size: int64(len(f.Content))}
		if f.Dir {
			h.Typeflag, h.Size, h.Name = tar.TypeDir, 0, h.Name+"/"
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if !f.Dir {
			_, _ = tw.Write([]byte(f.Content))
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	err := withVolumeHelper(ctx, api, vol, []mount.Mount{helperMount(vol, volumeMountDir, false)}, func(id string) error {
		return api.CopyToContainer(ctx, id, volumeMountParent, &buf, container.CopyToContainerOptions{})
	})
	if err != nil {
		t.Fatalf("writing into volume %s: %v", vol, err)
	}
}

// helperTestReadVolume reads every file and directory below a volume's root.
func helperTestReadVolume(t *testing.T, api *client.Client, vol string) map[string]helperTestFile {
	t.Helper()
	ctx := context.Background()
	var out map[string]helperTestFile
	err := withVolumeHelper(ctx, api, vol, []mount.Mount{helperMount(vol, volumeMountDir, true)}, func(id string) error {
		rc, _, err := api.CopyFromContainer(ctx, id, volumeMountDir)
		if err != nil {
			return err
		}
		// An archive stream from the engine: a failed read or write shows
		// up where it is used, and closing it only frees the connection.
		defer func() { _ = rc.Close() }()
		out, err = helperTestReadTar(rc, "vol/")
		return err
	})
	if err != nil {
		t.Fatalf("reading volume %s: %v", vol, err)
	}
	return out
}

// helperTestReadTar maps the entries under prefix (the prefix itself
// excluded) to their content, mode and owner.
func helperTestReadTar(r io.Reader, prefix string) (map[string]helperTestFile, error) {
	out := map[string]helperTestFile{}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(strings.TrimPrefix(h.Name, prefix), "/")
		if name == "" || !strings.HasPrefix(h.Name, prefix) {
			continue
		}
		f := helperTestFile{Mode: h.Mode & 0o7777, UID: h.Uid, GID: h.Gid, Dir: h.Typeflag == tar.TypeDir}
		if !f.Dir {
			b, err := io.ReadAll(tr)
			if err != nil {
				return nil, err
			}
			f.Content = string(b)
		}
		out[name] = f
	}
}

// helperTestAssertNoHelpers fails when a helper container working for the
// volume, or any container mounting it other than those allowed, is left.
func helperTestAssertNoHelpers(t *testing.T, api *client.Client, vol string) {
	t.Helper()
	ctx := context.Background()
	byLabel, err := api.ContainerList(ctx, container.ListOptions{All: true, Filters: filters.NewArgs(
		filters.Arg("label", platform.LabelKind+"="+kindHelperContainer),
		filters.Arg("label", labelVolumeID+"="+vol))})
	if err != nil {
		t.Fatal(err)
	}
	mounting, err := volumeMounters(ctx, api, vol, true)
	if err != nil {
		t.Fatal(err)
	}
	var helpers []string
	for _, c := range byLabel {
		helpers = append(helpers, c.ID)
	}
	for _, id := range mounting {
		c, err := api.ContainerInspect(ctx, id)
		if err == nil && c.Config.Labels[platform.LabelKind] == kindHelperContainer {
			helpers = append(helpers, id)
		}
	}
	if len(helpers) > 0 {
		t.Fatalf("helper containers left behind for volume %s: %v", vol, helpers)
	}
}

// helperTestCleanupVolume removes a volume (and anything mounting it) at the end of the test.
func helperTestCleanupVolume(t *testing.T, api *client.Client, vol string) {
	t.Cleanup(func() {
		ctx := context.Background()
		ids, _ := volumeMounters(ctx, api, vol, true)
		for _, id := range ids {
			_ = api.ContainerRemove(ctx, id, container.RemoveOptions{Force: true})
		}
		_ = api.VolumeRemove(ctx, vol, true)
	})
}

// helperTestMountingContainer creates (never starts) a non-helper container
// mounting vol, standing in for a sandbox that uses the volume.
func helperTestMountingContainer(t *testing.T, api *client.Client, vol string) string {
	t.Helper()
	ctx := context.Background()
	if _, err := ensureHelperImage(ctx, api, helperImageRef); err != nil {
		t.Fatal(err)
	}
	c, err := api.ContainerCreate(ctx,
		&container.Config{Image: helperImageRef, Labels: managedLabels(kindSandbox, helperTestName("sbx"), platform.Marks{}, nil)},
		&container.HostConfig{Mounts: []mount.Mount{helperMount(vol, "/data", false)}}, nil, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = api.ContainerRemove(context.Background(), c.ID, container.RemoveOptions{Force: true}) })
	return c.ID
}

// ptrInt64 is &v, for update requests.
func ptrInt64(v int64) *int64 { return &v }
