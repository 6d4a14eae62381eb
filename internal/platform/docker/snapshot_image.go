package docker

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// snapshotCommitMaxAge is how old an intermediate commit must be before a
// later snapshot create removes it as left behind: a rewrite takes seconds,
// so one this old belongs to a create that was killed.
const snapshotCommitMaxAge = 15 * time.Minute

// snapshotImageConfig is an image config as the engine loads it (the
// "docker save" layout), holding only what a snapshot image needs: no
// container_config and no container, the two fields docker commit fills
// with the source container's configuration.
type snapshotImageConfig struct {
	Architecture string            `json:"architecture"`
	Variant      string            `json:"variant,omitempty"`
	OS           string            `json:"os"`
	OSVersion    string            `json:"os.version,omitempty"`
	Created      string            `json:"created,omitempty"`
	Author       string            `json:"author,omitempty"`
	Config       *container.Config `json:"config"`
	RootFS       snapshotRootFS    `json:"rootfs"`
	History      []snapshotHistory `json:"history,omitempty"`
}

type snapshotRootFS struct {
	Type    string   `json:"type"`
	DiffIDs []string `json:"diff_ids"`
}

type snapshotHistory struct {
	Created    *time.Time `json:"created,omitempty"`
	CreatedBy  string     `json:"created_by,omitempty"`
	Comment    string     `json:"comment,omitempty"`
	EmptyLayer bool       `json:"empty_layer,omitempty"`
}

// rewriteCommit writes the snapshot image from a committed one: the same
// layers (already on the engine: only the config and a manifest are loaded,
// and the engine reuses the layers it has), the same config with the
// snapshot's labels, and the history, but no record of the container. The
// new image has no parent link either, so removing the commit leaves no
// image that holds the container's configuration. source is the image the
// container was made from; it tells whether the commit added a layer.
func rewriteCommit(ctx context.Context, api *client.Client, commitID, source, ref string, labels map[string]string) (string, error) {
	var raw bytes.Buffer
	img, err := api.ImageInspect(ctx, commitID, client.ImageInspectWithRawResponse(&raw))
	if err != nil {
		return "", fmt.Errorf("reading the committed image: %w", err)
	}
	var full struct{ Config *container.Config }
	if err := json.Unmarshal(raw.Bytes(), &full); err != nil {
		return "", fmt.Errorf("reading the committed image's config: %w", err)
	}
	if full.Config == nil {
		full.Config = &container.Config{}
	}
	full.Config.Labels = snapshotImageLabels(full.Config.Labels, labels)
	hist, err := api.ImageHistory(ctx, commitID)
	if err != nil {
		return "", fmt.Errorf("reading the committed image's history: %w", err)
	}
	parentLayers := -1
	if src, err := api.ImageInspect(ctx, source); err == nil {
		parentLayers = len(src.RootFS.Layers)
	}
	cfg := snapshotImageConfig{
		Architecture: img.Architecture,
		Variant:      img.Variant,
		OS:           img.Os,
		OSVersion:    img.OsVersion,
		Created:      img.Created,
		Author:       img.Author,
		Config:       full.Config,
		RootFS:       snapshotRootFS{Type: "layers", DiffIDs: img.RootFS.Layers},
		History:      snapshotImageHistory(hist, len(img.RootFS.Layers), parentLayers, img.Created),
	}
	if cfg.RootFS.DiffIDs == nil {
		cfg.RootFS.DiffIDs = []string{}
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		return "", err
	}
	return loadImageConfig(ctx, api, ref, b, cfg.RootFS.DiffIDs)
}

// snapshotInheritedLabels are the reserved labels a snapshot image keeps
// from its box: a sandbox restored from the snapshot starts, checks and
// sizes itself by them, as a box made from the template does.
var snapshotInheritedLabels = map[string]bool{
	labelStartCmd: true, labelReadyCmd: true, labelCPUCount: true, labelMemoryMB: true,
}

// snapshotImageLabels are a snapshot image's labels: those of the box that
// are not the provider's (the box's image's and user's), the provider's
// that a restore reads, and the snapshot's own. No other reserved label of
// the box (its kind, name, marks, template, ...) is carried over.
func snapshotImageLabels(committed, own map[string]string) map[string]string {
	out := make(map[string]string, len(committed)+len(own))
	for k, v := range committed {
		if !platform.IsReservedLabel(k) || snapshotInheritedLabels[k] {
			out[k] = v
		}
	}
	for k, v := range own {
		out[k] = v
	}
	return out
}

// snapshotImageHistory turns the engine's history of the committed image
// (newest first) into image config history (oldest first). The engine does
// not say which entries made no layer; it reports each layer's size, so an
// entry with a size made a layer. Of the entries without one, as many as
// layers remain are taken as layers: the commit's own entry when it added
// one (more layers than its source image), then those that are not
// metadata-only instructions. Where the entries cannot account for the
// layers, one plain entry per layer is written instead.
func snapshotImageHistory(items []image.HistoryResponseItem, layers, parentLayers int, created string) []snapshotHistory {
	n := len(items)
	out := make([]snapshotHistory, n)
	layer := make([]bool, n)
	fixed := make([]bool, n)
	count := 0
	for i := range items {
		it := items[n-1-i]
		out[i] = snapshotHistory{CreatedBy: it.CreatedBy, Comment: it.Comment}
		if it.Created > 0 {
			t := time.Unix(it.Created, 0).UTC()
			out[i].Created = &t
		}
		if it.Size > 0 {
			layer[i], fixed[i] = true, true
			count++
		}
	}
	if n > 0 {
		if t, err := time.Parse(time.RFC3339Nano, created); err == nil {
			out[n-1].Created = &t
		}
		if parentLayers >= 0 && !fixed[n-1] {
			fixed[n-1] = true
			if layers > parentLayers {
				layer[n-1] = true
				count++
			}
		}
	}
	for _, metadata := range []bool{false, true} {
		for i := 0; i < n && count < layers; i++ {
			if !fixed[i] && !layer[i] && historyMetadataOnly(out[i].CreatedBy) == metadata {
				layer[i] = true
				count++
			}
		}
	}
	if count != layers {
		return plainHistory(layers, created)
	}
	for i := range out {
		out[i].EmptyLayer = !layer[i]
	}
	return out
}

// plainHistory is one entry per layer, for an image whose history cannot
// be matched to its layers.
func plainHistory(layers int, created string) []snapshotHistory {
	var at *time.Time
	if t, err := time.Parse(time.RFC3339Nano, created); err == nil {
		at = &t
	}
	out := make([]snapshotHistory, layers)
	for i := range out {
		out[i] = snapshotHistory{Created: at, Comment: "sbx snapshot: the original history could not be matched to the layers"}
	}
	return out
}

// metadataInstructions set only image metadata, so their history entries
// made no layer.
var metadataInstructions = map[string]bool{
	"ARG": true, "CMD": true, "ENTRYPOINT": true, "ENV": true, "EXPOSE": true, "HEALTHCHECK": true, "LABEL": true,
	"MAINTAINER": true, "ONBUILD": true, "SHELL": true, "STOPSIGNAL": true, "USER": true, "VOLUME": true,
}

// historyMetadataOnly reports whether a history entry is a Dockerfile
// instruction that only sets metadata: "/bin/sh -c #(nop) ENV ..." from the
// classic builder (COPY and ADD also say #(nop) but make layers), or
// "ENV ..." from BuildKit (whose WORKDIR may make a layer).
func historyMetadataOnly(createdBy string) bool {
	s := strings.TrimSpace(createdBy)
	if _, after, ok := strings.Cut(s, "#(nop)"); ok {
		word, _, _ := strings.Cut(strings.TrimSpace(after), " ")
		word = strings.ToUpper(word)
		return word != "COPY" && word != "ADD"
	}
	word, _, _ := strings.Cut(s, " ")
	word = strings.ToUpper(word)
	return metadataInstructions[word]
}

// loadImageConfig loads an image made of config and layers the engine
// already has (docker load of a manifest and a config, no layer files: the
// engine takes each layer it finds by its chain id) under ref, and returns
// its id.
func loadImageConfig(ctx context.Context, api *client.Client, ref string, config []byte, diffIDs []string) (string, error) {
	sum := sha256.Sum256(config)
	configHex := hex.EncodeToString(sum[:])
	layerPaths := make([]string, len(diffIDs))
	for i, d := range diffIDs {
		layerPaths[i] = strings.TrimPrefix(d, "sha256:") + "/layer.tar"
	}
	manifest, err := json.Marshal([]map[string]any{{
		"Config":   configHex + ".json",
		"RepoTags": []string{ref},
		"Layers":   layerPaths,
	}})
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	epoch := time.Unix(0, 0).UTC()
	for _, f := range []struct {
		name string
		data []byte
	}{{configHex + ".json", config}, {"manifest.json", manifest}} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.data)), Typeflag: tar.TypeReg, ModTime: epoch}); err != nil {
			return "", err
		}
		if _, err := tw.Write(f.data); err != nil {
			return "", err
		}
	}
	if err := tw.Close(); err != nil {
		return "", err
	}
	resp, err := api.ImageLoad(ctx, &buf, client.ImageLoadWithQuiet(true))
	if err != nil {
		return "", fmt.Errorf("loading the snapshot image: %w", err)
	}
	// All that matters is read from the stream below; closing it
	// only frees the connection, so its error changes nothing.
	defer func() { _ = resp.Body.Close() }()
	if _, err := readImportStream(resp.Body); err != nil {
		return "", fmt.Errorf("loading the snapshot image: %w", err)
	}
	want := "sha256:" + configHex
	got, err := inspectImageID(ctx, api, ref)
	if err != nil {
		return "", fmt.Errorf("loading the snapshot image: %w", err)
	}
	if got != want {
		return "", fmt.Errorf("loading the snapshot image: the engine reports image %s under %s, expected %s", got, ref, want)
	}
	return got, nil
}

// removeSnapshotCommit removes an intermediate commit on a fresh context,
// so a cancelled create still removes it. Nothing else is removed with it.
func removeSnapshotCommit(api *client.Client, id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), helperCleanupTimeout)
	defer cancel()
	_, err := api.ImageRemove(ctx, id, image.RemoveOptions{Force: false, PruneChildren: false})
	if err != nil && !cerrdefs.IsNotFound(err) {
		return fmt.Errorf("removing the intermediate commit %s, which holds the sandbox's env values, failed "+
			"(remove it with docker rmi %s): %w", id, id, err)
	}
	return nil
}

// sweepSnapshotCommits removes intermediate commits a killed create left
// behind. Best effort: a failure here must not stop a snapshot.
func sweepSnapshotCommits(ctx context.Context, api *client.Client) {
	list, err := api.ImageList(ctx, image.ListOptions{All: true, Filters: filters.NewArgs(
		filters.Arg("label", platform.LabelManaged+"=true"),
		filters.Arg("label", platform.LabelKind+"="+kindSnapshotCommit),
	)})
	if err != nil {
		return
	}
	for _, img := range list {
		if len(img.RepoTags) > 0 || time.Since(time.Unix(img.Created, 0)) < snapshotCommitMaxAge {
			continue
		}
		_, _ = api.ImageRemove(ctx, img.ID, image.RemoveOptions{Force: false, PruneChildren: false})
	}
}
