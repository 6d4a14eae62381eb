package flyacc_test

import (
	"context"
	"fmt"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

// TestAccConformanceFly runs the platform conformance suite against the Fly
// fake, through the real terraform CLI.
func TestAccConformanceFly(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, providerConfig := flyAccFake(t, flyfake.Options{})
	noWait := func(context.Context, time.Duration) error { return nil }
	plat, err := fly.New(fly.Config{APIToken: flyAccToken, App: flyAccApp, APIURL: fake.URL(),
		Sleep: noWait, PollSleep: noWait, LookupSleep: noWait})
	if err != nil {
		t.Fatal(err)
	}
	platformtest.Run(t, platformtest.Harness{
		Name:              plat.Name(),
		ProviderFactories: flyAccFactories,
		ProviderConfig:    providerConfig,
		// A Fly template is a record of an image reference (Fly has no
		// template or build API): no dockerfile, commands or sizes. The
		// image stands for the quickstart agent baked with its ENTRYPOINT.
		TemplateConfig: func(name string) string {
			return fmt.Sprintf("  name  = %q\n  image = %q\n", name, flyAccImage)
		},
		Capabilities: plat.Capabilities(),
		OutOfBand:    &conformanceFlyOOB{fake: fake, plat: plat},
		PreCheck:     func(*testing.T) {},
		ImportStateVerifyIgnore: map[string][]string{
			// Fly volume snapshots have no name (SnapshotNamesUnique is
			// false for that reason): the name is kept in state only.
			"sbx_snapshot": {"name"},
		},
	})
}

// conformanceFlyOOB acts on the fake as flyctl or the Fly dashboard would.
//
// Templates: Fly holds nothing for a template (it is a record in state of
// an image reference). Its presence on Fly, in this model, is its image in
// use: a template exists while a live machine of the app runs its image.
//
// File reads model Fly's semantics; the fake runs no programs, so nothing
// in it writes a file. What the quickstart agent would write is derived
// from what reached Fly:
//   - a machine's agent writes the files its AGENT_FILES env names at
//     start, so a started machine holds them (a suspended or stopped one
//     serves no reads);
//   - a volume holds what the machines mounting it (live or since
//     destroyed: the data stays on the volume) wrote under their mount path;
//   - a volume restored from a snapshot holds what the snapshot's volume
//     held (followed back through the lineage).
//
// So the suite's file checks prove that env, mounts and snapshot lineage
// arrive at Fly as sent; whether Fly's real disks keep the bytes is Fly's part.
type conformanceFlyOOB struct {
	fake *flyfake.Server
	plat *fly.Platform
}

var _ platformtest.OutOfBand = (*conformanceFlyOOB)(nil)

func (o *conformanceFlyOOB) SandboxState(t *testing.T, id string) platform.SandboxState {
	t.Helper()
	m, ok := o.fake.Machine(id)
	if !ok {
		t.Fatalf("fly fake: no machine %s", id)
	}
	switch m.State {
	case flyfake.StateStarted:
		return platform.StateRunning
	case flyfake.StateSuspended:
		return platform.StatePaused
	case flyfake.StateStopped:
		return platform.StateStopped
	default:
		return platform.SandboxState(m.State)
	}
}

func (o *conformanceFlyOOB) SetSandboxState(t *testing.T, id string, state platform.SandboxState) {
	t.Helper()
	switch state {
	case platform.StatePaused:
		o.fake.SuspendOutOfBand(id)
	case platform.StateStopped:
		o.fake.StopOutOfBand(id)
	default:
		// flyctl machine start: the Machines API's start.
		if _, err := o.plat.Sandboxes().SetState(context.Background(), id, state); err != nil {
			t.Fatalf("fly: setting machine %s to %s: %v", id, state, err)
		}
	}
}

// snapshotOf splits the provider's snapshot id ("<volume>:<snapshot>").
func snapshotOf(id string) (volumeID, snapID string) {
	if v, s, ok := strings.Cut(id, ":"); ok {
		return v, s
	}
	return "", id
}

func (o *conformanceFlyOOB) Delete(t *testing.T, kind, id string) {
	t.Helper()
	switch kind {
	case platformtest.KindSandbox:
		o.fake.DestroyMachineOutOfBand(id)
	case platformtest.KindVolume:
		o.fake.DestroyVolumeOutOfBand(id)
	default:
		// Fly cannot delete volume snapshots (capability SnapshotDelete),
		// and a template is nothing on Fly.
		t.Fatalf("fly: cannot delete a %s out of band", kind)
	}
}

func (o *conformanceFlyOOB) Exists(t *testing.T, kind, id string) bool {
	t.Helper()
	switch kind {
	case platformtest.KindSandbox:
		m, ok := o.fake.Machine(id)
		return ok && !m.Destroyed
	case platformtest.KindVolume:
		v, ok := o.fake.Volume(id)
		return ok && v.State == flyfake.VolumeCreated
	case platformtest.KindTemplate:
		image := id
		if _, img, ok := strings.Cut(id, "="); ok {
			image = img
		}
		for _, m := range o.fake.Machines() {
			if !m.Destroyed && m.Image == image {
				return true
			}
		}
		return false
	case platformtest.KindSnapshot:
		_, ok := o.snapshot(id)
		return ok
	}
	t.Fatalf("unknown kind %q", kind)
	return false
}

// snapshot finds a snapshot by the provider's id, or by Fly's bare id.
func (o *conformanceFlyOOB) snapshot(id string) (flyfake.SnapshotView, bool) {
	volID, snapID := snapshotOf(id)
	for _, v := range o.fake.Volumes() {
		if volID != "" && v.ID != volID {
			continue
		}
		for _, s := range o.fake.Snapshots(v.ID) {
			if s.ID == snapID {
				return s, true
			}
		}
	}
	return flyfake.SnapshotView{}, false
}

// agentFilesOf is what machine m's agent writes in this model.
func agentFilesOf(m flyfake.MachineView) map[string]string {
	files := map[string]string{}
	if spec, ok := m.Env["AGENT_FILES"]; ok {
		for _, pair := range strings.Split(spec, ";") {
			if p, c, ok := strings.Cut(pair, "="); ok {
				files[p] = c
			}
		}
	}
	return files
}

func (o *conformanceFlyOOB) ReadSandboxFile(t *testing.T, sandboxID, p string) (string, bool) {
	t.Helper()
	m, ok := o.fake.Machine(sandboxID)
	if !ok || m.Destroyed || m.State != flyfake.StateStarted {
		return "", false
	}
	c, ok := agentFilesOf(m)[p]
	return c, ok
}

func (o *conformanceFlyOOB) ReadVolumeFile(t *testing.T, volumeID, p string) (string, bool) {
	t.Helper()
	v, ok := o.fake.Volume(volumeID)
	if !ok || v.State != flyfake.VolumeCreated {
		return "", false
	}
	return o.volumeFile(volumeID, strings.TrimPrefix(path.Clean("/"+p), "/"), 0)
}

func (o *conformanceFlyOOB) volumeFile(volumeID, rel string, depth int) (string, bool) {
	for _, m := range o.fake.Machines() {
		if m.VolumeID != volumeID {
			continue
		}
		if c, ok := agentFilesOf(m)[strings.TrimSuffix(m.MountPath, "/")+"/"+rel]; ok {
			return c, true
		}
	}
	v, ok := o.fake.Volume(volumeID)
	if !ok || v.RestoredFrom == "" || depth > 10 {
		return "", false
	}
	if s, ok := o.snapshot(v.RestoredFrom); ok {
		return o.volumeFile(s.VolumeID, rel, depth+1)
	}
	return "", false
}
