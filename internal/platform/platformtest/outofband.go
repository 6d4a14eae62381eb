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
	// CLI, console, SDK or raw API), with none of the provider's marks, and
	// returns its id. A kit that cannot make the kind fails t saying so.
	Make(t *testing.T, f Foreign) string
	// SetLabels replaces an object's labels by hand, as the console would.
	SetLabels(t *testing.T, kind, id string, labels map[string]string)
}

// HandMaker is an OutOfBand that says which kinds its Make models: a
// scenario that needs an object of a kind made by hand skips, saying so,
// on a kit that makes none (Make fails the test for a kind it does not
// model).
type HandMaker interface {
	MakesByHand(kind string) bool
}

// TemplateChanger is an OutOfBand that can change a template behind the
// provider's back as another client of the platform would (Docker: another
// image tagged with the template's id, as `docker build -t` does). It
// returns the id of what it put there, which the provider must leave alone.
type TemplateChanger interface {
	ChangeTemplate(t *testing.T, templateID string) (foreignID string)
}

// makesByHand reports whether in's out-of-band hooks make objects of kind.
func makesByHand(in *Instance, kind string) bool { return handMakes(in.OutOfBand, kind) }

// handMakes reports whether the out-of-band hooks oob make objects of kind.
func handMakes(oob OutOfBand, kind string) bool {
	m, ok := oob.(HandMaker)
	return ok && m.MakesByHand(kind)
}

// ByClient changes objects through the platform's own Go client
// configured against the instance, as the platform's console would: the
// user's labels replaced, the provider's marks kept. Kits embed it in their
// OutOfBand (and make foreign objects themselves: the platform's client
// marks what it makes as the provider's).
type ByClient struct {
	Platform platform.Platform
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
