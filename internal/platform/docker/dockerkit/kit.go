// Package dockerkit is Docker under test: the conformance suite and every
// other cross-platform suite reach the real Docker engine (DOCKER_HOST or
// the local socket) through its Kit.
package dockerkit

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"path"
	"strings"
	"sync"
	"testing"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/api/types/volume"
	"github.com/docker/docker/client"
	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/docker"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

// Kit is Docker under test. The engine is real and shared with the other
// tests of the machine: an instance is isolated by its owner (every object
// the provider makes carries it, and Objects lists that owner's alone) and
// by the suites' own random names. It has no fault injection and records
// no spec violations; its pace is the engine's own.
func Kit() platformtest.Kit { return kit{} }

type kit struct{}

func (kit) Name() string { return docker.Definition().Name }

func (k kit) Start(t *testing.T, opts platformtest.KitOptions) *platformtest.Instance {
	t.Helper()
	opts.CheckSettings(t, k.Name())
	api := acctest.RequireDocker(t)
	def := docker.Definition()
	plat := platformtest.Configure(t, def, map[string]string{})
	owner := opts.Owner
	oob := &kitOOB{ByClient: platformtest.ByClient{Platform: plat}, api: api, helperImage: helperImage(t, api), made: map[string]string{}}
	return &platformtest.Instance{
		Name:  def.Name,
		Owner: owner,
		// Docker is the provider's default platform: no block needed.
		PlatformBlock: func(inner ...string) string {
			if len(inner) == 0 {
				return ""
			}
			return "  docker {\n" + platformtest.InnerLines(inner) + "  }\n"
		},
		Definition: def,
		Hooks:      acctest.NoWaitHooks(),
		TemplateConfig: func(name string) string {
			return fmt.Sprintf("  name        = %q\n  dockerfile  = %q\n  context_dir = %q\n", name, acctest.AgentDockerfile, acctest.AgentContextDir(t))
		},
		Capabilities: plat.Capabilities(),
		// An image does not keep the Dockerfile or the build context it was
		// built from, so an imported template cannot report them.
		ImportStateVerifyIgnore: map[string][]string{
			"sbx_template": {"dockerfile", "context_dir", "context_hash"},
			// Docker does not report when a box entered its status: an
			// import records the import time.
			"sbx_sandbox": {"status_since"},
		},
		OutOfBand: oob,
		// The engine refuses to remove an image a running container was
		// made from ("conflict: unable to delete … (cannot be forced) -
		// image is being used by running container …"); a forced remove
		// of one a stopped container was made from deletes it.
		SnapshotsHeldByRunningBoxes: true,
		Objects:                     func(t *testing.T) []platformtest.Object { return objects(t, api, owner, oob.madeByHand()) },
	}
}

// objects are the instance's objects on the engine: the owner's images
// (templates by their tag, as the state records them, and snapshots),
// containers and volumes, each with its labels, and those made by hand
// through the instance (kind by id), which carry no owner.
func objects(t *testing.T, api *client.Client, owner string, byHand map[string]string) []platformtest.Object {
	t.Helper()
	ctx := context.Background()
	ownerFilter := filters.NewArgs(filters.Arg("label", platform.LabelOwner+"="+owner))
	var out []platformtest.Object
	imgs, err := api.ImageList(ctx, image.ListOptions{Filters: ownerFilter})
	if err != nil {
		t.Fatalf("docker: listing images: %v", err)
	}
	for _, img := range imgs {
		kind := platformtest.KindSnapshot
		if img.Labels[platform.LabelKind] == platformtest.KindTemplate {
			kind = platformtest.KindTemplate
		}
		id := img.ID
		for _, tag := range img.RepoTags {
			if tag != "<none>:<none>" {
				id = tag
				break
			}
		}
		out = append(out, platformtest.Object{Kind: kind, ID: id, Name: img.Labels[platform.LabelName], Labels: img.Labels})
	}
	cs, err := api.ContainerList(ctx, container.ListOptions{All: true, Filters: ownerFilter})
	if err != nil {
		t.Fatalf("docker: listing containers: %v", err)
	}
	for _, c := range cs {
		name := ""
		if len(c.Names) > 0 {
			name = strings.TrimPrefix(c.Names[0], "/")
		}
		out = append(out, platformtest.Object{Kind: platformtest.KindSandbox, ID: c.ID, Name: name, Labels: c.Labels})
	}
	vs, err := api.VolumeList(ctx, volume.ListOptions{Filters: ownerFilter})
	if err != nil {
		t.Fatalf("docker: listing volumes: %v", err)
	}
	for _, v := range vs.Volumes {
		out = append(out, platformtest.Object{Kind: platformtest.KindVolume, ID: v.Name, Name: v.Name, Labels: v.Labels})
	}
	for id, kind := range byHand {
		if o, ok := inspect(t, api, kind, id); ok && o.Labels[platform.LabelOwner] != owner {
			out = append(out, o)
		}
	}
	return out
}

// inspect is the object of kind and id as the engine reports it; false
// when it is gone.
func inspect(t *testing.T, api *client.Client, kind, id string) (platformtest.Object, bool) {
	t.Helper()
	ctx := context.Background()
	var o platformtest.Object
	var err error
	switch kind {
	case platformtest.KindVolume:
		var v volume.Volume
		if v, err = api.VolumeInspect(ctx, id); err == nil {
			o = platformtest.Object{Kind: kind, ID: v.Name, Name: v.Name, Labels: v.Labels}
		}
	case platformtest.KindSandbox:
		var c container.InspectResponse
		if c, err = api.ContainerInspect(ctx, id); err == nil {
			o = platformtest.Object{Kind: kind, ID: c.ID, Name: strings.TrimPrefix(c.Name, "/"), Labels: c.Config.Labels}
		}
	default:
		var img image.InspectResponse
		if img, err = api.ImageInspect(ctx, id); err == nil {
			o = platformtest.Object{Kind: kind, ID: id, Labels: img.Config.Labels}
		}
	}
	if cerrdefs.IsNotFound(err) {
		return o, false
	}
	if err != nil {
		t.Fatalf("docker: inspecting %s %s: %v", kind, id, err)
	}
	return o, true
}

// kitOOB acts on the engine directly, as `docker` would.
type kitOOB struct {
	platformtest.ByClient
	api         *client.Client
	helperImage string

	mu   sync.Mutex
	made map[string]string // id → kind of the objects made by hand
}

// Make makes the object through the engine, as the docker command line
// would (none of the provider's labels), and remembers it: it carries no
// owner, and the instance still lists it. A sandbox is a container of the
// image f.SourceID, started; a snapshot is a commit of the container
// f.SourceID.
func (o *kitOOB) Make(t *testing.T, f platformtest.Foreign) string {
	t.Helper()
	ctx := context.Background()
	var id string
	switch f.Kind {
	case platformtest.KindVolume:
		v, err := o.api.VolumeCreate(ctx, volume.CreateOptions{Name: f.Name, Labels: f.Labels})
		if err != nil {
			t.Fatalf("docker volume create %s: %v", f.Name, err)
		}
		id = v.Name
	case platformtest.KindSandbox:
		c, err := o.api.ContainerCreate(ctx, &container.Config{Image: f.SourceID, Labels: f.Labels}, nil, nil, nil, f.Name)
		if err != nil {
			t.Fatalf("docker create %s: %v", f.Name, err)
		}
		if err := o.api.ContainerStart(ctx, c.ID, container.StartOptions{}); err != nil {
			t.Fatalf("docker start %s: %v", c.ID, err)
		}
		id = c.ID
	case platformtest.KindSnapshot:
		r, err := o.api.ContainerCommit(ctx, f.SourceID, container.CommitOptions{Config: &container.Config{Labels: f.Labels}})
		if err != nil {
			t.Fatalf("docker commit %s: %v", f.SourceID, err)
		}
		id = r.ID
	default:
		t.Fatalf("docker kit: cannot make a %s by hand", f.Kind)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.made[id] = f.Kind
	return id
}

// MakesByHand implements platformtest.HandMaker: Make models volumes,
// sandboxes and snapshots.
func (o *kitOOB) MakesByHand(kind string) bool {
	return kind == platformtest.KindVolume || kind == platformtest.KindSandbox || kind == platformtest.KindSnapshot
}

// ChangeTemplate implements platformtest.TemplateChanger: an image that is
// not the provider's build (an empty one, which no box can run) is tagged
// with the template's id, as `docker build -t sbx/<name>:latest` of another
// Dockerfile would. The test removes it when it ends.
func (o *kitOOB) ChangeTemplate(t *testing.T, templateID string) string {
	t.Helper()
	ctx := context.Background()
	var empty bytes.Buffer
	if err := tar.NewWriter(&empty).Close(); err != nil {
		t.Fatal(err)
	}
	rc, err := o.api.ImageImport(ctx, image.ImportSource{Source: &empty, SourceName: "-"}, templateID, image.ImportOptions{})
	if err != nil {
		t.Fatalf("docker import as %s: %v", templateID, err)
	}
	_, _ = io.Copy(io.Discard, rc)
	_ = rc.Close()
	img, err := o.api.ImageInspect(ctx, templateID)
	if err != nil {
		t.Fatalf("docker inspect %s: %v", templateID, err)
	}
	t.Cleanup(func() {
		_, _ = o.api.ImageRemove(context.Background(), img.ID, image.RemoveOptions{Force: true, PruneChildren: true})
	})
	return img.ID
}

var _ platformtest.TemplateChanger = (*kitOOB)(nil)

func (o *kitOOB) madeByHand() map[string]string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return maps.Clone(o.made)
}

var _ platformtest.OutOfBand = (*kitOOB)(nil)

func (o *kitOOB) SandboxState(t *testing.T, id string) platform.SandboxState {
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

func (o *kitOOB) SetSandboxState(t *testing.T, id string, state platform.SandboxState) {
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

func (o *kitOOB) Delete(t *testing.T, kind, id string) {
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

func (o *kitOOB) Exists(t *testing.T, kind, id string) bool {
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

func (o *kitOOB) ReadSandboxFile(t *testing.T, sandboxID, p string) (string, bool) {
	t.Helper()
	return copyOut(t, o.api, sandboxID, p)
}

// ReadVolumeFile mounts the volume into a container that is created but
// never started (docker cp works on those), and copies the file out.
func (o *kitOOB) ReadVolumeFile(t *testing.T, volumeID, p string) (string, bool) {
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
	return copyOut(t, o.api, c.ID, path.Join("/vol", p))
}

// copyOut reads one regular file out of a container.
func copyOut(t *testing.T, api *client.Client, containerID, p string) (string, bool) {
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

// helperImage imports an empty image to make volume
// readers from; no registry is needed and nothing in it ever runs.
func helperImage(t *testing.T, api *client.Client) string {
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
		_, _ = api.ImageRemove(context.Background(), ref, image.RemoveOptions{Force: true, PruneChildren: true})
	})
	return ref
}
