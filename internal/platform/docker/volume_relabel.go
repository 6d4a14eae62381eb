package docker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"maps"
	"sort"
	"strings"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/api/types/volume"
	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// kindVolumeRelabel marks the temporary volume that holds a volume's data
// while the volume is made again with new labels. labelVolumeID on it names
// the volume the data belongs to, so a copy left by a crash can be found.
const kindVolumeRelabel = "volume-relabel"

// relabelStepHook runs after each step of a relabel that changes something;
// tests make it fail to prove that no step loses data.
var relabelStepHook = func(step string) error { return nil }

// setLabels replaces a volume's user labels. Docker volume labels are fixed
// at create, so the volume is copied into a temporary volume, removed, made
// again under the same name with the new labels, and copied back. A volume
// mounted by a sandbox is refused: its data would change under it.
func (s *volumes) setLabels(ctx context.Context, id string, labels map[string]string) (*platform.Volume, error) {
	v, err := s.api.VolumeInspect(ctx, id)
	if err != nil {
		return nil, wrapErr("volume", id, err)
	}
	if leftover, err := relabelLeftovers(ctx, s.api, v.Name); err != nil {
		return nil, err
	} else if len(leftover) > 0 {
		return nil, &platform.ConflictError{Kind: "volume", ID: id,
			Reason: fmt.Sprintf("an earlier label change did not finish and left a copy of its data in volume %s; check that %s holds all its files (copy them back from there if not), then delete %s and apply again", strings.Join(leftover, ", "), id, strings.Join(leftover, ", "))}
	}
	if maps.Equal(platform.UserLabels(v.Labels), labels) {
		return s.Get(ctx, id)
	}
	users, err := volumeUsers(ctx, s.api, v.Name)
	if err != nil {
		return nil, err
	}
	if len(users) > 0 {
		return nil, &platform.ConflictError{Kind: "volume", ID: id,
			Reason: fmt.Sprintf("Docker cannot change a volume's labels in place, and copying it into a relabelled volume needs it unmounted; it is mounted by sandboxes %s (stop and delete them, or leave the labels unchanged)", strings.Join(users, ", "))}
	}
	if err := relabelVolume(ctx, s.api, v, labels); err != nil {
		return nil, err
	}
	return s.Get(ctx, id)
}

// relabelVolume does the copy, remove, create, copy back. Once the original
// is removed the rest runs to its end even if ctx is cancelled, and every
// failure from there on names the temporary volume holding the data.
func relabelVolume(ctx context.Context, api *client.Client, v volume.Volume, userLabels map[string]string) error {
	name := v.Name
	tmp := name + "-sbx-relabel-" + randomHex(6)
	tmpLabels := managedLabels(kindVolumeRelabel, "", platform.Marks{}, nil)
	tmpLabels[labelVolumeID] = name
	if _, err := api.VolumeCreate(ctx, volume.CreateOptions{Name: tmp, Driver: v.Driver, DriverOpts: nil, Labels: tmpLabels}); err != nil {
		return fmt.Errorf("volume %q: creating a temporary volume to change its labels: %w", name, err)
	}
	removeTmp := func(c context.Context) error { return api.VolumeRemove(c, tmp, false) }
	if err := copyVolume(ctx, api, name, tmp); err != nil {
		_ = removeTmp(context.WithoutCancel(ctx))
		return fmt.Errorf("volume %q: copying its data aside to change its labels (the volume is unchanged): %w", name, err)
	}
	if err := relabelStepHook("copied-aside"); err != nil {
		_ = removeTmp(context.WithoutCancel(ctx))
		return fmt.Errorf("volume %q: changing its labels (the volume is unchanged): %w", name, err)
	}
	if err := api.VolumeRemove(ctx, name, false); err != nil {
		_ = removeTmp(context.WithoutCancel(ctx))
		return wrapErr("volume", name, fmt.Errorf("removing it to make it again with new labels (the volume is unchanged): %w", err))
	}

	// From here the data lives only in tmp until it is copied back.
	ctx = context.WithoutCancel(ctx)
	newLabels := make(map[string]string, len(v.Labels)+len(userLabels))
	for k, val := range v.Labels {
		if platform.IsReservedLabel(k) {
			newLabels[k] = val
		}
	}
	maps.Copy(newLabels, userLabels)
	// The volume is made again, but it is the same volume to its users:
	// keep the time it was first created.
	if newLabels[labelCreatedAt] == "" {
		newLabels[labelCreatedAt] = v.CreatedAt
	}
	if _, err := api.VolumeCreate(ctx, volume.CreateOptions{Name: name, Driver: v.Driver, DriverOpts: v.Options, Labels: newLabels}); err != nil {
		return fmt.Errorf("volume %q was removed to change its labels but could not be made again: %w; its data is safe in volume %q (labelled %s=%s): create %q again and copy the data back", name, err, tmp, labelVolumeID, name, name)
	}
	err := copyVolume(ctx, api, tmp, name)
	if err == nil {
		err = relabelStepHook("copied-back")
	}
	if err != nil {
		return fmt.Errorf("volume %q was made again with its new labels, but copying its data back failed: %w; the complete data is still in volume %q (labelled %s=%s)", name, err, tmp, labelVolumeID, name)
	}
	if err := removeTmp(ctx); err != nil {
		return fmt.Errorf("volume %q has its new labels and all its data, but the temporary copy %q could not be removed: %w; delete it by hand", name, tmp, err)
	}
	return nil
}

// relabelLeftovers lists the temporary volumes an unfinished relabel of the
// volume left behind.
func relabelLeftovers(ctx context.Context, api *client.Client, name string) ([]string, error) {
	resp, err := api.VolumeList(ctx, volume.ListOptions{Filters: filters.NewArgs(
		filters.Arg("label", platform.LabelKind+"="+kindVolumeRelabel),
		filters.Arg("label", labelVolumeID+"="+name))})
	if err != nil {
		return nil, fmt.Errorf("volume %q: looking for an unfinished label change: %w", name, err)
	}
	var out []string
	for _, v := range resp.Volumes {
		out = append(out, v.Name)
	}
	sort.Strings(out)
	return out, nil
}

// copyVolume copies every file of src into dst (modes and owners kept)
// through two helper containers: one mounting src to read from, one
// mounting dst to write into. One container for both would deadlock the
// engine on any volume bigger than a socket buffer: it holds a container's
// lock while it streams an archive out of it, until the stream is read to
// its end, and an archive written into the same container waits for that
// lock before it reads a byte of the stream. Meanwhile every image removal
// on the engine waits too, since it takes each container's lock in turn.
func copyVolume(ctx context.Context, api *client.Client, src, dst string) error {
	const srcParent, dstParent = "/src", "/dst"
	readFrom := []mount.Mount{helperMount(src, srcParent+"/vol", true)}
	writeTo := []mount.Mount{helperMount(dst, dstParent+"/vol", false)}
	return withVolumeHelper(ctx, api, src, readFrom, func(reader string) error {
		return withVolumeHelper(ctx, api, dst, writeTo, func(writer string) error {
			rc, _, err := api.CopyFromContainer(ctx, reader, srcParent+"/vol")
			if err != nil {
				return fmt.Errorf("reading volume %q: %w", src, err)
			}
			// An archive stream from the engine: a failed read or write shows
			// up where it is used, and closing it only frees the connection.
			defer func() { _ = rc.Close() }()
			// Entries come as vol/...; extracting at dstParent puts them in dst.
			if err := api.CopyToContainer(ctx, writer, dstParent, rc, container.CopyToContainerOptions{}); err != nil {
				return fmt.Errorf("writing volume %q: %w", dst, err)
			}
			return nil
		})
	})
}

// randomHex is n random bytes in hex, for names that must not collide.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
