package platformtest

import (
	"context"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Kinds of objects, as the OutOfBand hooks name them.
const (
	KindTemplate = "template"
	KindVolume   = "volume"
	KindSandbox  = "sandbox"
	KindSnapshot = "snapshot"
)

// OutOfBand reaches the platform directly, as a person with the platform's
// own CLI or console would. Every hook fails t on an unexpected error.
type OutOfBand interface {
	// SandboxState reports the sandbox's state as the platform sees it.
	SandboxState(t *testing.T, id string) platform.SandboxState
	// SetSandboxState pauses, stops or resumes a sandbox.
	SetSandboxState(t *testing.T, id string, state platform.SandboxState)
	// Delete removes an object of kind (Kind*); it must be gone on return.
	Delete(t *testing.T, kind, id string)
	// Exists reports whether an object of kind still exists.
	Exists(t *testing.T, kind, id string) bool
	// ReadSandboxFile reads a file inside a running sandbox; false when it
	// does not exist (yet).
	ReadSandboxFile(t *testing.T, sandboxID, path string) (string, bool)
	// ReadVolumeFile reads a file stored in a volume; path is relative to
	// the volume's root (a leading "/" is allowed). False when it does not exist.
	ReadVolumeFile(t *testing.T, volumeID, path string) (string, bool)
	// Make makes an object as another client of the platform would (its
	// CLI, console or SDK), with none of the provider's marks, and returns
	// its id.
	Make(t *testing.T, f Foreign) string
	// SetLabels replaces an object's labels by hand, as the console would.
	SetLabels(t *testing.T, kind, id string, labels map[string]string)
}

// ByClient makes and changes objects through the platform's own Go client
// configured against the instance, with no provider marks: as another
// client of the platform would. Kits embed it in their OutOfBand.
type ByClient struct {
	Platform platform.Platform
}

// Make implements OutOfBand.
func (c ByClient) Make(t *testing.T, f Foreign) string {
	t.Helper()
	ctx := context.Background()
	var id string
	var err error
	switch f.Kind {
	case KindTemplate:
		var tpl *platform.Template
		if tpl, err = c.Platform.Templates().Create(ctx, platform.TemplateSpec{Name: f.Name, Image: f.SourceID, Labels: f.Labels}); err == nil {
			id = tpl.ID
		}
	case KindVolume:
		var v *platform.Volume
		if v, err = c.Platform.Volumes().Create(ctx, platform.VolumeSpec{Name: f.Name, Labels: f.Labels}); err == nil {
			id = v.ID
		}
	case KindSandbox:
		var s *platform.Sandbox
		if s, err = c.Platform.Sandboxes().Create(ctx, platform.SandboxSpec{Name: f.Name, TemplateID: f.SourceID,
			State: platform.StateRunning, Labels: f.Labels}); err == nil {
			id = s.ID
		}
	case KindSnapshot:
		spec := platform.SnapshotSpec{Name: f.Name, Labels: f.Labels}
		if c.Platform.Capabilities().Accepts(platform.AttrSnapshotSandboxID) {
			spec.SandboxID = f.SourceID
		} else {
			spec.VolumeID = f.SourceID
		}
		var s *platform.Snapshot
		if s, err = c.Platform.Snapshots().Create(ctx, spec); err == nil {
			id = s.ID
		}
	default:
		t.Fatalf("%s: cannot make a %s by hand", c.Platform.Name(), f.Kind)
	}
	if err != nil {
		t.Fatalf("%s: making %s %q as another client would: %v", c.Platform.Name(), f.Kind, f.Name, err)
	}
	return id
}

// SetLabels implements OutOfBand.
func (c ByClient) SetLabels(t *testing.T, kind, id string, labels map[string]string) {
	t.Helper()
	ctx := context.Background()
	var err error
	switch kind {
	case KindVolume:
		_, err = c.Platform.Volumes().Update(ctx, id, platform.VolumeUpdate{Labels: &labels})
	case KindSandbox:
		_, err = c.Platform.Sandboxes().Update(ctx, id, platform.SandboxUpdate{Labels: &labels})
	default:
		t.Fatalf("%s: cannot relabel a %s by hand", c.Platform.Name(), kind)
	}
	if err != nil {
		t.Fatalf("%s: relabelling %s %s by hand: %v", c.Platform.Name(), kind, id, err)
	}
}
