package modalfake

import (
	"fmt"

	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
)

// TerminateSandbox ends a running sandbox as someone else would (the
// dashboard, another client): it finishes with GENERIC_STATUS_TERMINATED.
func (w *Workspace) TerminateSandbox(id string) error {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	sb, ok := w.sandboxes[id]
	if !ok {
		return fmt.Errorf("modalfake: no sandbox %q", id)
	}
	if sb.finished {
		return fmt.Errorf("modalfake: sandbox %s has already finished", id)
	}
	w.finish(sb, pb.GenericResult_GENERIC_STATUS_TERMINATED, "Sandbox terminated")
	return nil
}

// DeleteImage removes an image as someone else would.
func (w *Workspace) DeleteImage(id string) error {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	if _, ok := w.images[id]; !ok {
		return fmt.Errorf("modalfake: no image %q", id)
	}
	w.dropImage(id)
	return nil
}

// CreateVolume makes a VolumeFS V2 volume as someone else would, and gives
// its id; a volume of that name already there is kept and its id given.
func (w *Workspace) CreateVolume(name string) string {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	if v := w.volumeByName(name); v != nil {
		return v.id
	}
	return w.newVolume(name, pb.VolumeFsVersion_VOLUME_FS_VERSION_V2).id
}

// CreateSandbox makes a running V2 sandbox in the app appName, as another
// client would (Modal's Python SDK, its CLI): from the image imageID,
// named name ("" for none), with no tags and the SDKs' default timeout
// (300 s). It goes through the checks of a create and gives the sandbox's
// id; the app must exist.
func (w *Workspace) CreateSandbox(appName, name, imageID string) (string, error) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	a := w.appByName(appName)
	if a == nil {
		return "", fmt.Errorf("modalfake: no app %q", appName)
	}
	b := pb.Sandbox_builder{ImageId: imageID, TimeoutSecs: 300}
	if name != "" {
		b.Name = &name
	}
	def := b.Build()
	sb, err := w.validateDefinition(a.id, def, nil)
	if err != nil {
		return "", err
	}
	sb.env, sb.v2 = map[string]string{}, true
	if err := w.start(sb); err != nil {
		return "", err
	}
	return sb.id, nil
}
