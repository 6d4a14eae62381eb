package e2bacc_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

// TestAccConformanceE2B runs the platform conformance suite against the E2B
// fake, through the real terraform CLI.
func TestAccConformanceE2B(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, providerConfig := e2bAccFake(t, e2bfake.Options{})
	contextDir := acctest.AgentContextDir(t)
	plat, err := e2b.New(e2b.Config{APIKey: e2bAccKey, APIURL: fake.URL(), Tier: e2b.TierPro})
	if err != nil {
		t.Fatal(err)
	}
	platformtest.Run(t, platformtest.Harness{
		Name:              plat.Name(),
		ProviderFactories: accFactories,
		ProviderConfig:    providerConfig,
		// E2B sizes boxes by their template and reports every template's
		// size (its defaults included), so an imported template has one:
		// the configuration states it, as an E2B user would.
		TemplateConfig: func(name string) string {
			return fmt.Sprintf("  name        = %q\n  dockerfile  = %q\n  context_dir = %q\n  start_cmd   = %q\n  ready_cmd   = %q\n"+
				"  cpu_count   = 2\n  memory_mb   = 512\n",
				name, e2bAccDockerfile, contextDir, "/usr/local/bin/agent", "/usr/local/bin/agent ready")
		},
		Capabilities: plat.Capabilities(),
		OutOfBand:    &conformanceE2BOOB{fake: fake, plat: plat},
		PreCheck:     func(*testing.T) {},
		ImportStateVerifyIgnore: map[string][]string{
			// E2B keeps neither the Dockerfile nor the commands of a build.
			"sbx_template": {"dockerfile", "context_dir", "context_hash", "start_cmd", "ready_cmd"},
			// E2B does not report a box's env nor when it entered its state.
			"sbx_sandbox": {"env", "status_since"},
			// A snapshot read back from E2B does not name the box it was
			// taken from (capability SnapshotSourceReported).
			"sbx_snapshot": {"sandbox_id"},
		},
	})
}

// conformanceE2BOOB acts on the fake as the E2B dashboard would.
//
// File reads model E2B's semantics; they do not read a filesystem. The fake
// runs no programs, so nothing in it ever writes a file. What the quickstart
// agent would write is derived from what reached the platform, following
// the rules E2B itself keeps:
//   - a box's agent writes the files its AGENT_FILES env names at start, so
//     a running box holds them (a paused or stopped one serves no reads);
//   - a snapshot holds its source box's filesystem, and a box started from
//     it sees that filesystem: a restored box holds what its snapshot's
//     source box wrote (followed back through the lineage);
//   - a volume holds what the boxes mounting it wrote under their mount path.
//
// So the suite's file checks prove that env, mounts and snapshot lineage
// arrive at E2B as sent, and that the provider wires a restored box to the
// right snapshot; whether E2B's real filesystem keeps the bytes is E2B's part.
type conformanceE2BOOB struct {
	fake *e2bfake.Server
	plat *e2b.Platform
}

var _ platformtest.OutOfBand = (*conformanceE2BOOB)(nil)

func (o *conformanceE2BOOB) SandboxState(t *testing.T, id string) platform.SandboxState {
	t.Helper()
	v, ok := o.fake.Sandbox(id)
	if !ok {
		t.Fatalf("e2b fake: no sandbox %s", id)
	}
	switch {
	case v.State == "running":
		return platform.StateRunning
	case v.PausedWithMemory:
		return platform.StatePaused
	default:
		return platform.StateStopped
	}
}

func (o *conformanceE2BOOB) SetSandboxState(t *testing.T, id string, state platform.SandboxState) {
	t.Helper()
	if state == platform.StatePaused {
		o.fake.PauseOutOfBand(id)
		return
	}
	if _, err := o.plat.Sandboxes().SetState(context.Background(), id, state); err != nil {
		t.Fatalf("e2b: setting sandbox %s to %s: %v", id, state, err)
	}
}

func (o *conformanceE2BOOB) Delete(t *testing.T, kind, id string) {
	t.Helper()
	switch kind {
	case platformtest.KindSandbox:
		o.fake.KillOutOfBand(id)
	case platformtest.KindVolume:
		o.fake.DeleteVolumeOutOfBand(id)
	case platformtest.KindTemplate, platformtest.KindSnapshot:
		o.fake.DeleteTemplateOutOfBand(id)
	default:
		t.Fatalf("unknown kind %q", kind)
	}
}

func (o *conformanceE2BOOB) Exists(t *testing.T, kind, id string) bool {
	t.Helper()
	switch kind {
	case platformtest.KindSandbox:
		_, ok := o.fake.Sandbox(id)
		return ok
	case platformtest.KindVolume:
		return slices.ContainsFunc(o.fake.Volumes(), func(v e2bfake.VolumeView) bool { return v.ID == id })
	case platformtest.KindTemplate:
		return slices.ContainsFunc(o.fake.Templates(), func(v e2bfake.TemplateView) bool { return v.ID == id })
	case platformtest.KindSnapshot:
		return slices.ContainsFunc(o.fake.Snapshots(), func(v e2bfake.SnapshotView) bool { return v.SnapshotID == id })
	}
	t.Fatalf("unknown kind %q", kind)
	return false
}

// agentFilesOf is the filesystem box v has in this model: what its agent
// writes from AGENT_FILES, or, for a box started from a snapshot (a template
// made from a sandbox, which E2B starts as a new box), what the snapshot's
// source box had.
func (o *conformanceE2BOOB) agentFilesOf(v e2bfake.SandboxView) map[string]string {
	files := map[string]string{}
	if spec, ok := v.EnvVars["AGENT_FILES"]; ok {
		for _, pair := range strings.Split(spec, ";") {
			if p, c, ok := strings.Cut(pair, "="); ok {
				files[p] = c
			}
		}
		return files
	}
	for _, s := range o.fake.Snapshots() {
		if s.SnapshotID == v.TemplateRef || s.TemplateID == v.TemplateID {
			if src, ok := o.fake.Sandbox(s.SandboxID); ok {
				return o.agentFilesOf(src)
			}
		}
	}
	return files
}

func (o *conformanceE2BOOB) ReadSandboxFile(t *testing.T, sandboxID, p string) (string, bool) {
	t.Helper()
	v, ok := o.fake.Sandbox(sandboxID)
	if !ok || v.State != "running" {
		return "", false
	}
	c, ok := o.agentFilesOf(v)[p]
	return c, ok
}

func (o *conformanceE2BOOB) ReadVolumeFile(t *testing.T, volumeID, p string) (string, bool) {
	t.Helper()
	name := ""
	for _, v := range o.fake.Volumes() {
		if v.ID == volumeID {
			name = v.Name
		}
	}
	if name == "" {
		return "", false
	}
	rel := "/" + strings.TrimPrefix(p, "/")
	for _, sb := range o.fake.Sandboxes() {
		for _, m := range sb.VolumeMounts {
			if m.Name != name {
				continue
			}
			if c, ok := o.agentFilesOf(sb)[strings.TrimSuffix(m.Path, "/")+rel]; ok {
				return c, true
			}
		}
	}
	return "", false
}
