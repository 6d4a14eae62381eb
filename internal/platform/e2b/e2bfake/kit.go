package e2bfake

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

// kitKey is the API key every kit instance's fake accepts.
const kitKey = "e2b_kit_key_5f1d2c"

// kitDockerfile builds the quickstart agent on E2B: E2B needs a base image
// with a userland (no FROM scratch), and runs the agent as the start command.
const kitDockerfile = "FROM alpine:3.20\nCOPY agent /usr/local/bin/agent\n"

// Kit is E2B under test: each instance a fake of its own, on the pro tier
// (24 h timeouts) unless the test chooses another tier (KitOptions.Settings).
// def is e2b.Definition() (this package cannot import the
// platform, whose tests import it).
func Kit(def platform.Definition) platformtest.Kit { return kit{def: def} }

type kit struct{ def platform.Definition }

func (k kit) Name() string { return k.def.Name }

// Profile is E2B as the tests know it, fake or real.
func (k kit) Profile() platformtest.Profile {
	return platformtest.Profile{
		Definition: k.def,
		// E2B sizes boxes by their template and reports every template's
		// size (its defaults included), so an imported template has one:
		// the configuration states it, as an E2B user would.
		TemplateConfig: func(t *testing.T, name, _ string) string {
			return fmt.Sprintf("  name        = %q\n  dockerfile  = %q\n  context_dir = %q\n  start_cmd   = %q\n  ready_cmd   = %q\n"+
				"  cpu_count   = 2\n  memory_mb   = 512\n",
				name, kitDockerfile, acctest.AgentContextDir(t), "/usr/local/bin/agent", "/usr/local/bin/agent ready")
		},
		ImportStateVerifyIgnore: map[string][]string{
			// E2B keeps neither the Dockerfile nor the commands of a build.
			"sbx_template": {"dockerfile", "context_dir", "context_hash", "start_cmd", "ready_cmd"},
			// E2B does not report a box's env nor when it entered its state.
			"sbx_sandbox": {"env", "status_since"},
			// A snapshot read back from E2B does not name the box it was
			// taken from (capability SnapshotSourceReported).
			"sbx_snapshot": {"sandbox_id"},
		},
	}
}

func (k kit) Start(t *testing.T, opts platformtest.KitOptions) *platformtest.Instance {
	t.Helper()
	opts.CheckSettings(t, k.def.Name, "tier")
	fo := Options{APIKey: kitKey}
	// The slow pace is the fake's default; Instant is the test's choice.
	fo.Instant = opts.Pace.IsInstant()
	fake := New(t, fo)
	// The pro tier (24 h timeouts) unless the test chooses: "" is the
	// provider's default, base.
	tier := "pro"
	if v, ok := opts.Settings["tier"]; ok {
		tier = v
	}
	tierLine := ""
	if tier != "" {
		tierLine = fmt.Sprintf("    tier    = %q\n", tier)
	}
	plat := platformtest.Configure(t, k.def, map[string]string{"api_key": kitKey, "api_url": fake.URL(), "tier": tier})
	in := k.Profile().Instance(t, "")
	in.Owner = opts.Owner
	in.PlatformBlock = func(inner ...string) string {
		return fmt.Sprintf("  e2b {\n    api_key = %q\n    api_url = %q\n%s%s  }\n",
			kitKey, fake.URL(), tierLine, platformtest.InnerLines(inner))
	}
	in.Env = []string{"E2B_API_KEY=" + kitKey, "E2B_API_URL=" + fake.URL()}
	in.Hooks = acctest.NoWaitHooks()
	in.Capabilities = plat.Capabilities()
	in.OutOfBand = &kitOOB{ByClient: platformtest.ByClient{Platform: plat}, fake: fake, plat: plat}
	in.Objects = func(*testing.T) []platformtest.Object { return kitObjects(fake) }
	in.Faults = kitFaults{fake}
	in.FaultPlan = kitFaultPlan()
	in.SpecViolations = fake.SpecViolations
	return in
}

// kitObjects are the objects the fake holds: sandboxes with their
// metadata (the provider's marks among them), volumes and templates
// (which carry none on E2B), and snapshots.
func kitObjects(fake *Server) []platformtest.Object {
	var out []platformtest.Object
	for _, s := range fake.Sandboxes() {
		out = append(out, platformtest.Object{Kind: platformtest.KindSandbox, ID: s.ID, Name: s.Metadata[platform.LabelName], Labels: s.Metadata})
	}
	for _, v := range fake.Volumes() {
		out = append(out, platformtest.Object{Kind: platformtest.KindVolume, ID: v.ID, Name: v.Name})
	}
	for _, tpl := range fake.Templates() {
		out = append(out, platformtest.Object{Kind: platformtest.KindTemplate, ID: tpl.ID, Name: tpl.Name})
	}
	for _, s := range fake.Snapshots() {
		out = append(out, platformtest.Object{Kind: platformtest.KindSnapshot, ID: s.SnapshotID, Name: s.Name})
	}
	return out
}

// kitFaults injects through the fake's fault queue: a 429 carries
// Retry-After, as E2B sends it.
type kitFaults struct{ fake *Server }

func (f kitFaults) Inject(route string, x platformtest.Fault) {
	f.fake.Inject(route, kitFault(x))
}

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
		return Fault{Status: http.StatusTooManyRequests, RetryAfter: "1", Times: f.Times}
	case platformtest.FaultServerError:
		return Fault{Status: http.StatusInternalServerError, Times: f.Times}
	case platformtest.FaultUnavailable:
		return Fault{Status: http.StatusServiceUnavailable, RetryAfter: "1", Times: f.Times}
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

// kitOOB acts on the fake as the E2B dashboard would.
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
type kitOOB struct {
	platformtest.ByClient
	fake *Server
	plat platform.Platform
}

var _ platformtest.OutOfBand = (*kitOOB)(nil)

func (o *kitOOB) SandboxState(t *testing.T, id string) platform.SandboxState {
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

func (o *kitOOB) SetSandboxState(t *testing.T, id string, state platform.SandboxState) {
	t.Helper()
	if state == platform.StatePaused {
		o.fake.PauseOutOfBand(id)
		return
	}
	if _, err := o.plat.Sandboxes().SetState(t.Context(), id, state); err != nil {
		t.Fatalf("e2b: setting sandbox %s to %s: %v", id, state, err)
	}
}

func (o *kitOOB) Delete(t *testing.T, kind, id string) {
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

func (o *kitOOB) Exists(t *testing.T, kind, id string) bool {
	t.Helper()
	switch kind {
	case platformtest.KindSandbox:
		_, ok := o.fake.Sandbox(id)
		return ok
	case platformtest.KindVolume:
		return slices.ContainsFunc(o.fake.Volumes(), func(v VolumeView) bool { return v.ID == id })
	case platformtest.KindTemplate:
		return slices.ContainsFunc(o.fake.Templates(), func(v TemplateView) bool { return v.ID == id })
	case platformtest.KindSnapshot:
		return slices.ContainsFunc(o.fake.Snapshots(), func(v SnapshotView) bool { return v.SnapshotID == id })
	}
	t.Fatalf("unknown kind %q", kind)
	return false
}

// agentFilesOf is the filesystem box v has in this model: what its agent
// writes from AGENT_FILES, or, for a box started from a snapshot (a template
// made from a sandbox, which E2B starts as a new box), what the snapshot's
// source box had.
func (o *kitOOB) agentFilesOf(v SandboxView, depth int) map[string]string {
	if _, ok := v.EnvVars["AGENT_FILES"]; ok || depth > 10 {
		return platformtest.AgentFiles(v.EnvVars)
	}
	for _, s := range o.fake.Snapshots() {
		if s.SnapshotID == v.TemplateRef || s.TemplateID == v.TemplateID {
			if src, ok := o.fake.Sandbox(s.SandboxID); ok {
				return o.agentFilesOf(src, depth+1)
			}
		}
	}
	return map[string]string{}
}

func (o *kitOOB) ReadSandboxFile(t *testing.T, sandboxID, p string) (string, bool) {
	t.Helper()
	v, ok := o.fake.Sandbox(sandboxID)
	if !ok || v.State != "running" {
		return "", false
	}
	c, ok := o.agentFilesOf(v, 0)[p]
	return c, ok
}

func (o *kitOOB) ReadVolumeFile(t *testing.T, volumeID, p string) (string, bool) {
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
			if c, ok := o.agentFilesOf(sb, 0)[strings.TrimSuffix(m.Path, "/")+rel]; ok {
				return c, true
			}
		}
	}
	return "", false
}

// Make makes a volume, or a sandbox (POST /sandboxes with templateID
// f.SourceID and the metadata f.Labels, as the SDK's Sandbox.create does:
// an E2B box has no name), through E2B's API with a plain request, as
// another client would: E2B volumes carry no labels. A snapshot is taken
// of the sandbox f.SourceID (POST /sandboxes/{id}/snapshots, the SDK's
// Sandbox.createSnapshot), named f.Name where one is given.
func (o *kitOOB) Make(t *testing.T, f platformtest.Foreign) string {
	t.Helper()
	header := http.Header{"X-Api-Key": {kitKey}}
	switch f.Kind {
	case platformtest.KindVolume:
		var out struct {
			VolumeID string `json:"volumeID"`
		}
		platformtest.PostJSON(t, o.fake.URL()+"/volumes", header, map[string]string{"name": f.Name}, &out)
		return out.VolumeID
	case platformtest.KindSandbox:
		body := map[string]any{"templateID": f.SourceID}
		if len(f.Labels) > 0 {
			body["metadata"] = f.Labels
		}
		var out struct {
			SandboxID string `json:"sandboxID"`
		}
		platformtest.PostJSON(t, o.fake.URL()+"/sandboxes", header, body, &out)
		return out.SandboxID
	case platformtest.KindSnapshot:
		body := map[string]any{}
		if f.Name != "" {
			body["name"] = f.Name
		}
		var out struct {
			SnapshotID string `json:"snapshotID"`
		}
		platformtest.PostJSON(t, o.fake.URL()+"/sandboxes/"+f.SourceID+"/snapshots", header, body, &out)
		return out.SnapshotID
	}
	t.Fatalf("e2b kit: making a %s by hand is not modelled (volumes, sandboxes and snapshots are)", f.Kind)
	return ""
}

// MakesByHand implements platformtest.HandMaker: Make models volumes,
// sandboxes and snapshots.
func (o *kitOOB) MakesByHand(kind string) bool {
	return kind == platformtest.KindVolume || kind == platformtest.KindSandbox || kind == platformtest.KindSnapshot
}
