package live

import (
	"context"
	"errors"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

// deleteWait bounds how long Delete waits for an object to be gone: real
// services remove boxes and images asynchronously.
const deleteWait = 5 * time.Minute

// outOfBand reaches the real service through the provider's own client for
// it, as a person with the platform's console would: what the provider can
// do to an object is what the console can. Files are read with the
// quickstart agent's cat, run in the box (a volume's through a running box
// that mounts it).
type outOfBand struct {
	platformtest.ByClient
	plat platform.Platform
}

var _ platformtest.OutOfBand = (*outOfBand)(nil)

func (o *outOfBand) SandboxState(t *testing.T, id string) platform.SandboxState {
	t.Helper()
	sb, err := o.plat.Sandboxes().Get(t.Context(), id)
	if err != nil {
		t.Fatalf("%s live: reading sandbox %s: %v", o.plat.Name(), id, err)
	}
	return sb.Status
}

func (o *outOfBand) SetSandboxState(t *testing.T, id string, state platform.SandboxState) {
	t.Helper()
	if _, err := o.plat.Sandboxes().SetState(t.Context(), id, state); err != nil {
		t.Fatalf("%s live: setting sandbox %s to %s: %v", o.plat.Name(), id, state, err)
	}
}

// Delete removes the object and waits until the service no longer has it.
func (o *outOfBand) Delete(t *testing.T, kind, id string) {
	t.Helper()
	ctx := t.Context()
	var err error
	switch kind {
	case platformtest.KindSandbox:
		err = o.plat.Sandboxes().Delete(ctx, id)
	case platformtest.KindVolume:
		err = o.plat.Volumes().Delete(ctx, id)
	case platformtest.KindTemplate:
		err = o.plat.Templates().Delete(ctx, id)
	case platformtest.KindSnapshot:
		err = o.plat.Snapshots().Delete(ctx, id)
	default:
		t.Fatalf("unknown kind %q", kind)
	}
	if err != nil {
		t.Fatalf("%s live: deleting %s %s: %v", o.plat.Name(), kind, id, err)
	}
	deadline := time.Now().Add(deleteWait)
	for o.Exists(t, kind, id) {
		if time.Now().After(deadline) {
			t.Fatalf("%s live: %s %s is still there %s after its delete", o.plat.Name(), kind, id, deleteWait)
		}
		time.Sleep(2 * time.Second)
	}
}

// Exists reads the object: a NotFoundError is "gone", any other error
// fails t.
func (o *outOfBand) Exists(t *testing.T, kind, id string) bool {
	t.Helper()
	ctx := t.Context()
	var err error
	switch kind {
	case platformtest.KindSandbox:
		_, err = o.plat.Sandboxes().Get(ctx, id)
	case platformtest.KindVolume:
		_, err = o.plat.Volumes().Get(ctx, id)
	case platformtest.KindTemplate:
		_, err = o.plat.Templates().Get(ctx, id)
	case platformtest.KindSnapshot:
		_, err = o.plat.Snapshots().Get(ctx, id)
	default:
		t.Fatalf("unknown kind %q", kind)
	}
	var nf *platform.NotFoundError
	switch {
	case err == nil:
		return true
	case errors.As(err, &nf):
		return false
	}
	t.Fatalf("%s live: reading %s %s: %v", o.plat.Name(), kind, id, err)
	return false
}

// ReadSandboxFile runs the agent's cat in the box: false when the box does
// not run, the platform runs no commands, or the file is not there.
func (o *outOfBand) ReadSandboxFile(t *testing.T, sandboxID, p string) (string, bool) {
	t.Helper()
	runner := o.plat.Extensions().Exec
	if runner == nil || !o.plat.Capabilities().Exec.Runs {
		t.Skipf("%s live: the platform runs no commands in a box, so its files cannot be read", o.plat.Name())
	}
	sb, err := o.plat.Sandboxes().Get(t.Context(), sandboxID)
	if err != nil || sb.Status != platform.StateRunning {
		return "", false
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	res, err := runner.Exec(ctx, sandboxID, platform.ExecSpec{Command: []string{fakeapi.AgentPath, "cat", p}, Timeout: time.Minute, MaxOutput: 1 << 20})
	if err != nil || res.ExitCode != 0 {
		return "", false
	}
	return string(res.Stdout), true
}

// ReadVolumeFile reads the file through a running box that mounts the
// volume (over the file's directory, where the mount is of a subpath).
func (o *outOfBand) ReadVolumeFile(t *testing.T, volumeID, p string) (string, bool) {
	t.Helper()
	boxes, err := o.plat.Sandboxes().List(t.Context(), platform.SandboxFilter{Status: platform.StateRunning})
	if err != nil {
		t.Fatalf("%s live: listing sandboxes: %v", o.plat.Name(), err)
	}
	rel := strings.TrimPrefix(path.Clean("/"+p), "/")
	for _, listed := range boxes {
		// A list may leave mounts out (Daytona's does): each box is read.
		sb, err := o.plat.Sandboxes().Get(t.Context(), listed.ID)
		if err != nil {
			continue
		}
		for _, m := range sb.VolumeMounts {
			if m.VolumeID != volumeID {
				continue
			}
			inMount := rel
			if under := strings.Trim(m.Subpath, "/"); under != "" {
				if !strings.HasPrefix(rel, under+"/") {
					continue
				}
				inMount = strings.TrimPrefix(rel, under+"/")
			}
			if c, ok := o.ReadSandboxFile(t, sb.ID, path.Join(m.Path, inMount)); ok {
				return c, true
			}
		}
	}
	return "", false
}

// Make is not offered live: an object made outside the provider on a real
// account would need the platform's own CLI or SDK, and nothing would
// clean it up. The scenarios that need one run on the fakes.
func (o *outOfBand) Make(t *testing.T, f platformtest.Foreign) string {
	t.Helper()
	t.Skipf("%s live: the live kit makes no %s as another client would (the scenario runs on the fake)", o.plat.Name(), f.Kind)
	return ""
}
