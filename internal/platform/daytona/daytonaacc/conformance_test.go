package daytonaacc_test

import (
	"context"
	"fmt"
	"path"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

// conformanceDockerfile builds the quickstart agent on a pinned base.
const conformanceDockerfile = "FROM alpine:3.20\nCOPY agent /usr/local/bin/agent\n"

// TestAccConformanceDaytona runs the platform conformance suite against
// the Daytona fake, through the real terraform CLI.
func TestAccConformanceDaytona(t *testing.T) {
	acctest.RequireTerraform(t)
	// Boxes are VMs, as on a Daytona whose default sandbox class is
	// linux-vm, so `paused` is in the suite's state chain; container-class
	// boxes refuse it at plan time (TestSandboxRules).
	fake, providerConfig := dtnAccFake(t, daytonafake.Options{DefaultSandboxClass: daytonafake.ClassLinuxVM})
	contextDir := acctest.AgentContextDir(t)
	plat, err := daytona.New(daytona.Config{APIKey: dtnAccKey, APIURL: fake.URL()})
	if err != nil {
		t.Fatal(err)
	}
	platformtest.Run(t, platformtest.Harness{
		Name:              plat.Name(),
		ProviderFactories: dtnAccFactories,
		ProviderConfig:    providerConfig,
		// Daytona sizes boxes by their template. The sizes are none of
		// Daytona's defaults (1 CPU, 1 GiB, 3 GiB, which read back as unset),
		// so an import reads them back; the suite's in-place chain then
		// resizes a box of it down (cpu 2, memory 2048: a stop, the resize,
		// a start) and its disk up (2048).
		TemplateConfig: func(name string) string {
			return fmt.Sprintf("  name        = %q\n  dockerfile  = %q\n  context_dir = %q\n  start_cmd   = %q\n"+
				"  cpu_count   = 3\n  memory_mb   = 3072\n  disk_mb     = 1024\n",
				name, conformanceDockerfile, contextDir, "/usr/local/bin/agent")
		},
		Capabilities: plat.Capabilities(),
		OutOfBand:    &conformanceDaytonaOOB{fake: fake, plat: plat},
		PreCheck:     func(*testing.T) {},
		ImportStateVerifyIgnore: map[string][]string{
			// Daytona keeps the Dockerfile it built (with the ENTRYPOINT
			// line the provider adds), not the context it read.
			"sbx_template": {"dockerfile", "context_dir", "context_hash"},
			// A snapshot read back from Daytona names no source box
			// (capability SnapshotSourceReported) and no kind.
			"sbx_snapshot": {"sandbox_id", "include_memory"},
		},
	})
}

// conformanceDaytonaOOB acts on the fake as the Daytona dashboard would.
//
// File reads model Daytona's semantics; the fake runs no programs. A box's
// agent writes the files its AGENT_FILES env names at start, so a started
// box holds them; a box started from a snapshot taken of a sandbox holds
// what that sandbox wrote; a volume holds what the boxes mounting it wrote
// under their mount path (below the mount's subpath).
type conformanceDaytonaOOB struct {
	fake *daytonafake.Server
	plat *daytona.Platform
}

var _ platformtest.OutOfBand = (*conformanceDaytonaOOB)(nil)

func (o *conformanceDaytonaOOB) view(t *testing.T, id string) daytonafake.SandboxView {
	t.Helper()
	v, ok := o.fake.Sandbox(id)
	if !ok {
		t.Fatalf("daytona fake: no sandbox %s", id)
	}
	return v
}

func (o *conformanceDaytonaOOB) SandboxState(t *testing.T, id string) platform.SandboxState {
	t.Helper()
	switch v := o.view(t, id); v.State {
	case "started":
		return platform.StateRunning
	case "paused":
		return platform.StatePaused
	case "stopped":
		return platform.StateStopped
	case "archived":
		return platform.StateArchived
	default:
		return platform.SandboxState(v.State)
	}
}

func (o *conformanceDaytonaOOB) SetSandboxState(t *testing.T, id string, state platform.SandboxState) {
	t.Helper()
	switch state {
	case platform.StatePaused:
		o.fake.PauseOutOfBand(id)
	case platform.StateStopped:
		o.fake.StopOutOfBand(id)
	case platform.StateArchived:
		o.fake.StopOutOfBand(id)
		o.fake.ArchiveOutOfBand(id)
	default:
		if _, err := o.plat.Sandboxes().SetState(context.Background(), id, state); err != nil {
			t.Fatalf("daytona: setting sandbox %s to %s: %v", id, state, err)
		}
	}
	o.fake.SettleAll()
}

func (o *conformanceDaytonaOOB) Delete(t *testing.T, kind, id string) {
	t.Helper()
	switch kind {
	case platformtest.KindSandbox:
		o.fake.DeleteSandboxOutOfBand(id)
	case platformtest.KindVolume:
		o.fake.DeleteVolumeOutOfBand(id)
	case platformtest.KindTemplate, platformtest.KindSnapshot:
		o.fake.DeleteSnapshotOutOfBand(id)
	default:
		t.Fatalf("unknown kind %q", kind)
	}
	o.fake.SettleAll()
}

func (o *conformanceDaytonaOOB) Exists(t *testing.T, kind, id string) bool {
	t.Helper()
	switch kind {
	case platformtest.KindSandbox:
		v, ok := o.fake.Sandbox(id)
		return ok && !v.Destroyed
	case platformtest.KindVolume:
		v, ok := o.fake.Volume(id)
		return ok && v.State != "deleted"
	case platformtest.KindTemplate, platformtest.KindSnapshot:
		v, ok := o.fake.Snapshot(id)
		return ok && !v.Removed
	}
	t.Fatalf("unknown kind %q", kind)
	return false
}

// agentFilesOf is the filesystem box v has in this model.
func (o *conformanceDaytonaOOB) agentFilesOf(v daytonafake.SandboxView, depth int) map[string]string {
	files := map[string]string{}
	if spec, ok := v.Env["AGENT_FILES"]; ok {
		for _, pair := range strings.Split(spec, ";") {
			if p, c, ok := strings.Cut(pair, "="); ok {
				files[p] = c
			}
		}
		return files
	}
	if depth > 10 {
		return files
	}
	if s, ok := o.fake.Snapshot(v.Snapshot); ok && s.FromSandbox != "" {
		if src, ok := o.fake.Sandbox(s.FromSandbox); ok {
			return o.agentFilesOf(src, depth+1)
		}
	}
	return files
}

func (o *conformanceDaytonaOOB) ReadSandboxFile(t *testing.T, sandboxID, p string) (string, bool) {
	t.Helper()
	v, ok := o.fake.Sandbox(sandboxID)
	if !ok || v.Destroyed || v.State != "started" {
		return "", false
	}
	c, ok := o.agentFilesOf(v, 0)[p]
	return c, ok
}

func (o *conformanceDaytonaOOB) ReadVolumeFile(t *testing.T, volumeID, p string) (string, bool) {
	t.Helper()
	rel := strings.TrimPrefix(path.Clean("/"+p), "/")
	for _, sb := range o.fake.Sandboxes() {
		for _, m := range sb.Volumes {
			if m.VolumeID != volumeID {
				continue
			}
			under := strings.Trim(m.Subpath, "/")
			inVolume := rel
			if under != "" {
				if !strings.HasPrefix(rel, under+"/") {
					continue
				}
				inVolume = strings.TrimPrefix(rel, under+"/")
			}
			if c, ok := o.agentFilesOf(sb, 0)[strings.TrimSuffix(m.MountPath, "/")+"/"+inVolume]; ok {
				return c, true
			}
		}
	}
	return "", false
}
