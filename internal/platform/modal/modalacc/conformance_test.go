package modalacc_test

import (
	"context"
	"fmt"
	"path"
	"strings"
	"testing"

	modalsdk "github.com/modal-labs/modal-client/go"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

// TestAccConformanceModal runs the platform conformance suite against the
// Modal fake, through the real terraform CLI and Modal's Go SDK.
func TestAccConformanceModal(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	ws, providerConfig := modalAccWorkspace(t)
	platformtest.Run(t, platformtest.Harness{
		Name:              "modal",
		ProviderFactories: modalFactories(ws),
		ProviderConfig:    providerConfig,
		// A Modal template is an Image built from a registry reference;
		// the image stands for the quickstart agent baked with its CMD.
		TemplateConfig: func(name string) string {
			return fmt.Sprintf("  name  = %q\n  image = %q\n", name, modalAccImage)
		},
		Capabilities: modal.Definition().Capabilities(),
		OutOfBand:    &conformanceModalOOB{ws: ws},
		PreCheck:     func(*testing.T) {},
		ImportStateVerifyIgnore: map[string][]string{
			"sbx_sandbox": modalUnreported("sandbox"),
			// Modal Images have no name: it is kept in state only.
			"sbx_template": append(modalUnreported("template"), "name"),
			"sbx_volume":   modalUnreported("volume"),
			"sbx_snapshot": modalUnreported("snapshot"),
		},
	})
}

// conformanceModalOOB acts on the fake as the modal CLI or dashboard would.
//
// File reads model Modal's semantics; the fake runs no programs, so nothing
// in it writes a file. What the quickstart agent would write is derived
// from what reached Modal:
//   - a running sandbox's agent writes the files its AGENT_FILES env names
//     at start (a finished sandbox serves no reads);
//   - a sandbox started from a filesystem snapshot (an Image made from a
//     sandbox) holds what the snapshotted sandbox held, and one restored
//     from a memory snapshot what its sandbox held (followed back through
//     the lineage);
//   - a volume holds what the sandboxes mounting it writable (running or
//     finished: the data stays on the volume) wrote under their mount path,
//     below the mount's subpath.
//
// So the suite's file checks prove that env, mounts and snapshot lineage
// arrive at Modal as sent; whether Modal's real disks keep the bytes is
// Modal's part.
type conformanceModalOOB struct {
	ws *modalfake.Workspace
}

var _ platformtest.OutOfBand = (*conformanceModalOOB)(nil)

// SandboxState: Modal has no pause or stop, only running and finished.
func (o *conformanceModalOOB) SandboxState(t *testing.T, id string) platform.SandboxState {
	t.Helper()
	sb, ok := o.ws.Sandbox(id)
	if !ok {
		t.Fatalf("modal fake: no sandbox %s", id)
	}
	if sb.Finished {
		return platform.SandboxState("finished")
	}
	return platform.StateRunning
}

func (o *conformanceModalOOB) SetSandboxState(t *testing.T, id string, state platform.SandboxState) {
	t.Helper()
	// The capability table refuses every state but running, so the suite
	// never asks for one; a sandbox is running from its create on.
	if state != platform.StateRunning || o.SandboxState(t, id) != platform.StateRunning {
		t.Fatalf("modal: cannot move sandbox %s to %s (Modal has no pause or stop)", id, state)
	}
}

func (o *conformanceModalOOB) Delete(t *testing.T, kind, id string) {
	t.Helper()
	var err error
	switch kind {
	case platformtest.KindSandbox:
		err = o.ws.TerminateSandbox(id)
	case platformtest.KindTemplate, platformtest.KindSnapshot:
		// A template and a filesystem snapshot are both Images.
		err = o.ws.DeleteImage(id)
	case platformtest.KindVolume:
		// `modal volume delete`: through the SDK, as the CLI does.
		err = o.deleteVolume(id)
	default:
		t.Fatalf("unknown kind %q", kind)
	}
	if err != nil {
		t.Fatalf("modal: deleting %s %s out of band: %v", kind, id, err)
	}
}

// deleteVolume deletes the named volume through Modal's SDK.
func (o *conformanceModalOOB) deleteVolume(name string) error {
	client, err := modalsdk.NewClientWithOptions(&modalsdk.ClientParams{TokenID: o.ws.TokenID(), TokenSecret: o.ws.TokenSecret()})
	if err != nil {
		return err
	}
	defer client.Close()
	return client.Volumes.Delete(context.Background(), name, nil)
}

func (o *conformanceModalOOB) Exists(t *testing.T, kind, id string) bool {
	t.Helper()
	switch kind {
	case platformtest.KindSandbox:
		sb, ok := o.ws.Sandbox(id)
		return ok && !sb.Finished
	case platformtest.KindVolume:
		_, ok := o.ws.Volume(id) // a Modal volume's id is its name
		return ok
	case platformtest.KindTemplate:
		_, ok := o.ws.Image(id)
		return ok
	case platformtest.KindSnapshot:
		if _, ok := o.ws.Image(id); ok {
			return true
		}
		_, ok := o.ws.MemorySnapshot(id)
		return ok
	}
	t.Fatalf("unknown kind %q", kind)
	return false
}

// agentFilesOf is what sandbox sb's agent writes in this model.
func agentFilesOf(sb modalfake.SandboxView) map[string]string {
	files := map[string]string{}
	if spec, ok := sb.Env["AGENT_FILES"]; ok {
		for _, pair := range strings.Split(spec, ";") {
			if p, c, ok := strings.Cut(pair, "="); ok {
				files[p] = c
			}
		}
	}
	return files
}

func (o *conformanceModalOOB) ReadSandboxFile(t *testing.T, sandboxID, p string) (string, bool) {
	t.Helper()
	sb, ok := o.ws.Sandbox(sandboxID)
	if !ok || sb.Finished {
		return "", false
	}
	return o.sandboxFile(sb, p, 0)
}

// sandboxFile is what sb holds at p: what its agent wrote, else what the
// sandbox it was started or restored from held.
func (o *conformanceModalOOB) sandboxFile(sb modalfake.SandboxView, p string, depth int) (string, bool) {
	if c, ok := agentFilesOf(sb)[p]; ok {
		return c, true
	}
	if depth > 10 {
		return "", false
	}
	if sb.RestoredFrom != "" {
		if sn, ok := o.ws.MemorySnapshot(sb.RestoredFrom); ok {
			if src, ok := o.ws.Sandbox(sn.SandboxID); ok {
				return o.sandboxFile(src, p, depth+1)
			}
		}
		return "", false
	}
	if img, ok := o.ws.Image(sb.ImageID); ok && img.FromSandboxID != "" {
		if src, ok := o.ws.Sandbox(img.FromSandboxID); ok {
			return o.sandboxFile(src, p, depth+1)
		}
	}
	return "", false
}

func (o *conformanceModalOOB) ReadVolumeFile(t *testing.T, volumeID, p string) (string, bool) {
	t.Helper()
	v, ok := o.ws.Volume(volumeID)
	if !ok {
		return "", false
	}
	rel := strings.TrimPrefix(path.Clean("/"+p), "/")
	for _, sb := range o.ws.Sandboxes() {
		for _, m := range sb.Mounts {
			if m.VolumeID != v.ID || m.ReadOnly {
				continue
			}
			// The mount shows the volume's subpath at m.Path.
			inVolume := strings.Trim(path.Join(m.SubPath, rel), "/")
			for file, content := range agentFilesOf(sb) {
				under, ok := strings.CutPrefix(path.Clean(file), strings.TrimSuffix(path.Clean(m.Path), "/")+"/")
				if ok && strings.Trim(path.Join(m.SubPath, under), "/") == inVolume {
					return content, true
				}
			}
		}
	}
	return "", false
}
