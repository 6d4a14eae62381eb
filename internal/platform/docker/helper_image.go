package docker

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// helperImageRef is the image helper containers are created from. It holds a
// single empty file and is never run: Docker only lets files be copied in and
// out of a volume through a container that mounts it, and a container needs an
// image. Loading it from an in-memory archive needs no registry.
const helperImageRef = "sbx/helper:latest"

// helperMarkerFile is the one (empty) file in the helper image; it doubles as
// the image's CMD so that a container can be created from it.
const helperMarkerFile = ".sbx-helper"

// helperImageMu serialises creation within this process, so concurrent
// operations load the image once instead of each loading it.
var helperImageMu sync.Mutex

// ensureHelperImage returns the id of the helper image, loading it under ref
// when it is missing. The image is built byte for byte the same every time
// (fixed timestamps), so its id is fixed too: processes that race to load it
// all load the same image, and no duplicate is ever left behind.
func ensureHelperImage(ctx context.Context, api *client.Client, ref string) (string, error) {
	if id, err := inspectImageID(ctx, api, ref); err == nil || !cerrdefs.IsNotFound(err) {
		return id, err
	}
	helperImageMu.Lock()
	defer helperImageMu.Unlock()
	// Another caller in this process may have loaded it while we waited.
	if id, err := inspectImageID(ctx, api, ref); err == nil || !cerrdefs.IsNotFound(err) {
		return id, err
	}
	return loadHelperImage(ctx, api, ref)
}

// loadHelperImage loads the helper image (docker load) and checks that ref
// now names it.
func loadHelperImage(ctx context.Context, api *client.Client, ref string) (string, error) {
	ver, err := api.ServerVersion(ctx)
	if err != nil {
		return "", fmt.Errorf("creating the helper image %s: %w", ref, err)
	}
	archive, id, err := helperImageArchive(ref, ver.Os, ver.Arch)
	if err != nil {
		return "", fmt.Errorf("creating the helper image %s: %w", ref, err)
	}
	resp, err := api.ImageLoad(ctx, archive, client.ImageLoadWithQuiet(true))
	if err != nil {
		return "", fmt.Errorf("creating the helper image %s: %w", ref, err)
	}
	// All that matters is read from the stream below; closing it
	// only frees the connection, so its error changes nothing.
	defer func() { _ = resp.Body.Close() }()
	if _, err := readImportStream(resp.Body); err != nil {
		return "", fmt.Errorf("creating the helper image %s: %w", ref, err)
	}
	got, err := inspectImageID(ctx, api, ref)
	if err != nil {
		return "", fmt.Errorf("creating the helper image %s: %w", ref, err)
	}
	if got != id {
		return "", fmt.Errorf("creating the helper image %s: the engine reports image %s, expected %s", ref, got, id)
	}
	return got, nil
}

// helperImageArchive is the helper image in the "docker save" layout (one
// layer, an image config, a manifest naming ref) and the image id it loads as.
func helperImageArchive(ref, os, arch string) (*bytes.Buffer, string, error) {
	layer, err := helperImageTar()
	if err != nil {
		return nil, "", err
	}
	diffID := sha256.Sum256(layer.Bytes())
	diffHex := hex.EncodeToString(diffID[:])
	epoch := time.Unix(0, 0).UTC()
	config, err := json.Marshal(map[string]any{
		"architecture": arch,
		"os":           os,
		"created":      epoch,
		"config": map[string]any{
			"Cmd":    []string{"/" + helperMarkerFile},
			"Labels": managedLabels(kindHelper, ref, platform.Marks{}, nil),
		},
		"rootfs":  map[string]any{"type": "layers", "diff_ids": []string{"sha256:" + diffHex}},
		"history": []map[string]any{{"created": epoch, "comment": "sbx helper: one empty file, never run"}},
	})
	if err != nil {
		return nil, "", err
	}
	configSum := sha256.Sum256(config)
	configHex := hex.EncodeToString(configSum[:])
	manifest, err := json.Marshal([]map[string]any{{
		"Config":   configHex + ".json",
		"RepoTags": []string{ref},
		"Layers":   []string{diffHex + "/layer.tar"},
	}})
	if err != nil {
		return nil, "", err
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range []struct {
		name string
		data []byte
	}{
		{diffHex + "/layer.tar", layer.Bytes()},
		{configHex + ".json", config},
		{"manifest.json", manifest},
	} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.data)), Typeflag: tar.TypeReg, ModTime: epoch}); err != nil {
			return nil, "", err
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, "", err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, "", err
	}
	return &buf, "sha256:" + configHex, nil
}

func inspectImageID(ctx context.Context, api *client.Client, ref string) (string, error) {
	img, err := api.ImageInspect(ctx, ref)
	if err != nil {
		return "", err
	}
	return img.ID, nil
}
