package daytonafake

import (
	"fmt"
	"net/http"
	"path"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

// kitKey is the API key every kit instance's fake accepts.
const kitKey = "dtn_kit_key_9c4e7b"

// kitDockerfile builds the quickstart agent on a pinned base.
const kitDockerfile = "FROM alpine:3.20\nCOPY agent /usr/local/bin/agent\n"

// Kit is Daytona under test: each instance a fake of its own. Its boxes
// are VMs, as on a Daytona whose default sandbox class is linux-vm, so
// `paused` is among the states a suite can ask for (container-class boxes
// refuse it at plan time). def is daytona.Definition() (this package
// cannot import the platform, whose tests import it).
func Kit(def platform.Definition) platformtest.Kit { return kit{def: def} }

type kit struct{ def platform.Definition }

func (k kit) Name() string { return k.def.Name }

// Profile is Daytona as the tests know it, fake or real.
func (k kit) Profile() platformtest.Profile {
	return platformtest.Profile{
		Definition: k.def,
		// Daytona sizes boxes by their template. The sizes are none of
		// Daytona's defaults (1 CPU, 1 GiB, 3 GiB, which read back as unset),
		// so an import reads them back; the conformance suite's in-place
		// chain then resizes a box of it down (cpu 2, memory 2048: a stop,
		// the resize, a start) and its disk up (2048).
		TemplateConfig: func(t *testing.T, name, _ string) string {
			return fmt.Sprintf("  name        = %q\n  dockerfile  = %q\n  context_dir = %q\n  start_cmd   = %q\n"+
				"  cpu_count   = 3\n  memory_mb   = 3072\n  disk_mb     = 1024\n",
				name, kitDockerfile, acctest.AgentContextDir(t), "/usr/local/bin/agent")
		},
		ImportStateVerifyIgnore: map[string][]string{
			// Daytona keeps the Dockerfile it built (with the ENTRYPOINT
			// line the provider adds), not the context it read.
			"sbx_template": {"dockerfile", "context_dir", "context_hash"},
			// A snapshot read back from Daytona names no source box
			// (capability SnapshotSourceReported) and no kind.
			"sbx_snapshot": {"sandbox_id", "include_memory"},
		},
	}
}

func (k kit) Start(t *testing.T, opts platformtest.KitOptions) *platformtest.Instance {
	t.Helper()
	opts.CheckSettings(t, k.def.Name)
	fo := Options{APIKey: kitKey, DefaultSandboxClass: ClassLinuxVM}
	// The slow pace is the fake's default; Instant is the test's choice.
	fo.Instant = opts.Pace.IsInstant()
	fake := New(t, fo)
	plat := platformtest.Configure(t, k.def, map[string]string{"api_key": kitKey, "api_url": fake.URL()})
	in := k.Profile().Instance(t, "")
	in.Owner = opts.Owner
	in.PlatformBlock = func(inner ...string) string {
		return fmt.Sprintf("  daytona {\n    api_key = %q\n    api_url = %q\n%s  }\n", kitKey, fake.URL(), platformtest.InnerLines(inner))
	}
	in.Env = []string{"DAYTONA_API_KEY=" + kitKey, "DAYTONA_API_URL=" + fake.URL(),
		"DAYTONA_ORGANIZATION_ID=" + fake.OrganizationID()}
	in.Hooks = acctest.NoWaitHooks()
	in.Capabilities = plat.Capabilities()
	in.OutOfBand = &kitOOB{ByClient: platformtest.ByClient{Platform: plat}, fake: fake, plat: plat}
	in.Objects = func(*testing.T) []platformtest.Object { return kitObjects(fake) }
	in.Faults = kitFaults{fake}
	in.FaultPlan = kitFaultPlan()
	in.SpecViolations = fake.SpecViolations
	return in
}

// kitObjects are the live objects the fake holds: sandboxes with their
// labels, volumes not on their way out (Daytona finishes a delete it
// accepted by itself), and the snapshots that are templates (built or
// adopted) or snapshots of a sandbox; the seeded general snapshot is
// the platform's, not the test's.
func kitObjects(fake *Server) []platformtest.Object {
	var out []platformtest.Object
	for _, s := range fake.Sandboxes() {
		if !s.Destroyed {
			out = append(out, platformtest.Object{Kind: platformtest.KindSandbox, ID: s.ID, Name: s.Name, Labels: s.Labels})
		}
	}
	for _, v := range fake.Volumes() {
		if v.State != "deleted" && v.State != "pending_delete" && v.State != "deleting" {
			out = append(out, platformtest.Object{Kind: platformtest.KindVolume, ID: v.ID, Name: v.Name})
		}
	}
	for _, s := range fake.Snapshots() {
		if s.Removed || s.General {
			continue
		}
		kind := platformtest.KindTemplate
		if s.FromSandbox != "" {
			kind = platformtest.KindSnapshot
		}
		out = append(out, platformtest.Object{Kind: kind, ID: s.ID, Name: s.Name})
	}
	return out
}

// kitFaults injects through the fake's fault queue: a 429 is written as
// Daytona's throttlers write it, Retry-After-{throttler}.
type kitFaults struct{ fake *Server }

func (f kitFaults) Inject(route string, x platformtest.Fault) { f.fake.Inject(route, kitFault(x)) }

func (f kitFaults) Hits(route string) int { return f.fake.Requests(route) }

func kitFault(f platformtest.Fault) Fault {
	out := kitFaultKind(f)
	out.SparesRetry = f.SparesRetry
	return out
}

// kitFaultKind is the fake's fault of f's kind.
func kitFaultKind(f platformtest.Fault) Fault {
	switch f.Kind {
	case platformtest.FaultRateLimit:
		return Fault{Status: http.StatusTooManyRequests, RetryAfter: 1, Times: f.Times}
	case platformtest.FaultServerError:
		return Fault{Status: http.StatusInternalServerError, Times: f.Times}
	case platformtest.FaultUnavailable:
		return Fault{Status: http.StatusServiceUnavailable, RetryAfter: 1, Times: f.Times}
	case platformtest.FaultDropBefore:
		return Fault{DropBeforeHandling: true, Times: f.Times}
	case platformtest.FaultDropAfter:
		return Fault{DropAfterHandling: true, Times: f.Times}
	case platformtest.FaultLatency:
		return Fault{Latency: f.Latency, Times: f.Times}
	case platformtest.FaultSlowAnswer:
		return Fault{AnswerLatency: f.Latency, Times: f.Times}
	default:
		return Fault{Times: f.Times}
	}
}

// kitOOB acts on the fake as the Daytona dashboard would.
//
// File reads model Daytona's semantics; the fake runs no programs. A box's
// agent writes the files its AGENT_FILES env names at start, so a started
// box holds them; a box started from a snapshot taken of a sandbox holds
// what that sandbox wrote; a volume holds what the boxes mounting it wrote
// under their mount path (below the mount's subpath).
type kitOOB struct {
	platformtest.ByClient
	fake *Server
	plat platform.Platform
}

var _ platformtest.OutOfBand = (*kitOOB)(nil)

func (o *kitOOB) view(t *testing.T, id string) SandboxView {
	t.Helper()
	v, ok := o.fake.Sandbox(id)
	if !ok {
		t.Fatalf("daytona fake: no sandbox %s", id)
	}
	return v
}

func (o *kitOOB) SandboxState(t *testing.T, id string) platform.SandboxState {
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

func (o *kitOOB) SetSandboxState(t *testing.T, id string, state platform.SandboxState) {
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
		if _, err := o.plat.Sandboxes().SetState(t.Context(), id, state); err != nil {
			t.Fatalf("daytona: setting sandbox %s to %s: %v", id, state, err)
		}
	}
	o.fake.SettleAll()
}

func (o *kitOOB) Delete(t *testing.T, kind, id string) {
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

func (o *kitOOB) Exists(t *testing.T, kind, id string) bool {
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
func (o *kitOOB) agentFilesOf(v SandboxView, depth int) map[string]string {
	if _, ok := v.Env["AGENT_FILES"]; ok || depth > 10 {
		return platformtest.AgentFiles(v.Env)
	}
	if s, ok := o.fake.Snapshot(v.Snapshot); ok && s.FromSandbox != "" {
		if src, ok := o.fake.Sandbox(s.FromSandbox); ok {
			return o.agentFilesOf(src, depth+1)
		}
	}
	return map[string]string{}
}

func (o *kitOOB) ReadSandboxFile(t *testing.T, sandboxID, p string) (string, bool) {
	t.Helper()
	v, ok := o.fake.Sandbox(sandboxID)
	if !ok || v.Destroyed || v.State != "started" {
		return "", false
	}
	c, ok := o.agentFilesOf(v, 0)[p]
	return c, ok
}

func (o *kitOOB) ReadVolumeFile(t *testing.T, volumeID, p string) (string, bool) {
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

// Make makes a volume, a template (a Daytona snapshot of the image
// f.SourceID: POST /snapshots with name and imageName) or a sandbox (POST
// /sandbox with name, snapshot f.SourceID and the labels f.Labels, as the
// SDK's create does), through Daytona's API with a plain request, as
// another client would: Daytona volumes and snapshots carry no labels.
// Sandbox snapshots made by hand are not modelled here yet.
func (o *kitOOB) Make(t *testing.T, f platformtest.Foreign) string {
	t.Helper()
	var path string
	body := map[string]any{"name": f.Name}
	switch f.Kind {
	case platformtest.KindVolume:
		path = "/volumes"
	case platformtest.KindTemplate:
		path = "/snapshots"
		body["imageName"] = f.SourceID
	case platformtest.KindSandbox:
		path = "/sandbox"
		body["snapshot"] = f.SourceID
		if len(f.Labels) > 0 {
			body["labels"] = f.Labels
		}
	default:
		t.Fatalf("daytona kit: making a %s by hand is not modelled (volumes, templates and sandboxes are)", f.Kind)
	}
	var out struct {
		ID string `json:"id"`
	}
	platformtest.PostJSON(t, o.fake.URL()+path, http.Header{"Authorization": {"Bearer " + kitKey}}, body, &out)
	return out.ID
}

// MakesByHand implements platformtest.HandMaker: Make models volumes,
// templates and sandboxes.
func (o *kitOOB) MakesByHand(kind string) bool {
	return kind == platformtest.KindVolume || kind == platformtest.KindTemplate || kind == platformtest.KindSandbox
}
