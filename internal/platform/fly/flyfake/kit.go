package flyfake

import (
	"fmt"
	"io"
	"net/http"
	"path"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

// The token and app of every kit instance's fake.
const (
	kitToken = "fly_kit_token_5b2d"
	kitApp   = "sbx-kit"
)

// kitImage is the image kit templates record: it stands for the
// quickstart agent baked with its ENTRYPOINT (the fake runs nothing).
const kitImage = "registry.fly.io/sbx-agent:1.0"

// kitAPIURLEnv is where a command configured from the environment alone
// finds the instance's API root: the fly block's api_url has no
// environment variable of its own.
const kitAPIURLEnv = "FLY_API_URL"

// Kit is Fly.io under test: each instance a fake of its own with one app.
// def is fly.Definition() (this package cannot import the platform, whose
// tests import it).
func Kit(def platform.Definition) platformtest.Kit { return kit{def: def} }

type kit struct{ def platform.Definition }

func (k kit) Name() string { return k.def.Name }

// Profile is Fly.io as the tests know it, fake or real.
func (k kit) Profile() platformtest.Profile {
	return platformtest.Profile{
		Definition: k.def,
		// A Fly template is a record of an image reference (Fly has no
		// template or build API): no dockerfile, commands or sizes.
		TemplateConfig: func(_ *testing.T, name, image string) string {
			return fmt.Sprintf("  name  = %q\n  image = %q\n", name, image)
		},
		ImageTemplates: true,
		// Fly has no template API: a template is a record in state.
		TemplatesInStateOnly: true,
		ImportStateVerifyIgnore: map[string][]string{
			// Fly volume snapshots have no name (SnapshotNamesUnique is
			// false for that reason): the name is kept in state only.
			"sbx_snapshot": {"name"},
		},
	}
}

func (k kit) Start(t *testing.T, opts platformtest.KitOptions) *platformtest.Instance {
	t.Helper()
	opts.CheckSettings(t, k.def.Name)
	fo := Options{APIToken: kitToken, Apps: []string{kitApp}}
	// The slow pace is the fake's default; Instant is the test's choice.
	fo.Instant = opts.Pace.IsInstant()
	fake := New(t, fo)
	plat := platformtest.Configure(t, k.def, map[string]string{"api_token": kitToken, "app": kitApp, "api_url": fake.URL()})
	in := k.Profile().Instance(t, kitImage)
	in.Owner = opts.Owner
	in.PlatformBlock = func(inner ...string) string {
		return fmt.Sprintf("  fly {\n    api_token = %q\n    app       = %q\n    api_url   = %q\n%s  }\n",
			kitToken, kitApp, fake.URL(), platformtest.InnerLines(inner))
	}
	in.Env = []string{"FLY_API_TOKEN=" + kitToken, "FLY_APP=" + kitApp, kitAPIURLEnv + "=" + fake.URL()}
	in.Definition = platformtest.ReadingEnv(k.def, map[string]string{"api_url": kitAPIURLEnv})
	in.Hooks = acctest.NoWaitHooks()
	in.Capabilities = plat.Capabilities()
	in.OutOfBand = &kitOOB{ByClient: platformtest.ByClient{Platform: plat}, fake: fake, plat: plat}
	in.Objects = func(*testing.T) []platformtest.Object { return kitObjects(fake) }
	in.Faults = kitFaults{fake}
	in.FaultPlan = kitFaultPlan()
	in.SpecViolations = fake.SpecViolations
	return in
}

// kitObjects are the live objects the fake holds: machines with their
// metadata, volumes not destroyed or scheduled for it, and the on-demand
// snapshots (by the provider's id, "<volume>:<snapshot>"; Fly's daily
// automatic ones are Fly's). A Fly template is a record in state: none.
func kitObjects(fake *Server) []platformtest.Object {
	var out []platformtest.Object
	for _, m := range fake.Machines() {
		if !m.Destroyed {
			out = append(out, platformtest.Object{Kind: platformtest.KindSandbox, ID: m.ID, Name: m.Name, Labels: m.Metadata})
		}
	}
	for _, v := range fake.Volumes() {
		if v.State == VolumeScheduledDestroy || v.State == VolumeDestroyed {
			continue
		}
		out = append(out, platformtest.Object{Kind: platformtest.KindVolume, ID: v.ID, Name: v.Name})
		for _, s := range fake.Snapshots(v.ID) {
			if !s.Automatic {
				out = append(out, platformtest.Object{Kind: platformtest.KindSnapshot, ID: v.ID + ":" + s.ID})
			}
		}
	}
	return out
}

// kitFaults injects through the fake's fault queue: a 429 carries
// Retry-After, as Fly's proxy sends it.
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

// kitOOB acts on the fake as flyctl or the Fly dashboard would.
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
type kitOOB struct {
	platformtest.ByClient
	fake *Server
	plat platform.Platform
}

var _ platformtest.OutOfBand = (*kitOOB)(nil)

func (o *kitOOB) SandboxState(t *testing.T, id string) platform.SandboxState {
	t.Helper()
	m, ok := o.fake.Machine(id)
	if !ok {
		t.Fatalf("fly fake: no machine %s", id)
	}
	switch m.State {
	case StateStarted:
		return platform.StateRunning
	case StateSuspended:
		return platform.StatePaused
	case StateStopped:
		return platform.StateStopped
	default:
		return platform.SandboxState(m.State)
	}
}

func (o *kitOOB) SetSandboxState(t *testing.T, id string, state platform.SandboxState) {
	t.Helper()
	switch state {
	case platform.StatePaused:
		o.fake.SuspendOutOfBand(id)
	case platform.StateStopped:
		o.fake.StopOutOfBand(id)
	default:
		// flyctl machine start: the Machines API's start.
		if _, err := o.plat.Sandboxes().SetState(t.Context(), id, state); err != nil {
			t.Fatalf("fly: setting machine %s to %s: %v", id, state, err)
		}
	}
}

// snapshotOf splits the provider's snapshot id ("<volume>:<snapshot>").
func kitSnapshotOf(id string) (volumeID, snapID string) {
	if v, s, ok := strings.Cut(id, ":"); ok {
		return v, s
	}
	return "", id
}

func (o *kitOOB) Delete(t *testing.T, kind, id string) {
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

func (o *kitOOB) Exists(t *testing.T, kind, id string) bool {
	t.Helper()
	switch kind {
	case platformtest.KindSandbox:
		m, ok := o.fake.Machine(id)
		return ok && !m.Destroyed
	case platformtest.KindVolume:
		v, ok := o.fake.Volume(id)
		return ok && v.State == VolumeCreated
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
func (o *kitOOB) snapshot(id string) (SnapshotView, bool) {
	volID, snapID := kitSnapshotOf(id)
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
	return SnapshotView{}, false
}

// agentFilesOf is what machine m's agent writes in this model.
func agentFilesOf(m MachineView) map[string]string { return platformtest.AgentFiles(m.Env) }

func (o *kitOOB) ReadSandboxFile(t *testing.T, sandboxID, p string) (string, bool) {
	t.Helper()
	m, ok := o.fake.Machine(sandboxID)
	if !ok || m.Destroyed || m.State != StateStarted {
		return "", false
	}
	c, ok := agentFilesOf(m)[p]
	return c, ok
}

func (o *kitOOB) ReadVolumeFile(t *testing.T, volumeID, p string) (string, bool) {
	t.Helper()
	v, ok := o.fake.Volume(volumeID)
	if !ok || v.State != VolumeCreated {
		return "", false
	}
	return o.volumeFile(volumeID, strings.TrimPrefix(path.Clean("/"+p), "/"), 0)
}

func (o *kitOOB) volumeFile(volumeID, rel string, depth int) (string, bool) {
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

// Make makes a volume or a machine through the Machines API with a plain
// request, as flyctl would: a volume of 1 GB in the fake's default region
// (Fly volumes carry no labels); a machine from the image f.SourceID (a
// template's id, "<name>=<image>", names the image it records) with the
// labels as its metadata (`fly machine run <image> --name … --metadata
// k=v`), started, with Fly's default size; a snapshot of the volume
// f.SourceID (`fly volumes snapshots create`: POST
// /apps/{app}/volumes/{id}/snapshots, which answers with no body, so the
// new snapshot is found among the volume's, as `fly volumes snapshots
// list` would show it), its id as the provider writes it, "<volume>:<snapshot>".
func (o *kitOOB) Make(t *testing.T, f platformtest.Foreign) string {
	t.Helper()
	header := http.Header{"Authorization": {"Bearer " + kitToken}}
	var out struct {
		ID string `json:"id"`
	}
	switch f.Kind {
	case platformtest.KindVolume:
		platformtest.PostJSON(t, o.fake.URL()+"/v1/apps/"+kitApp+"/volumes", header,
			map[string]any{"name": f.Name, "size_gb": 1, "region": "iad"}, &out)
		return out.ID
	case platformtest.KindSandbox:
		image := f.SourceID
		if _, img, ok := strings.Cut(image, "="); ok {
			image = img
		}
		cfg := map[string]any{"image": image}
		if len(f.Labels) > 0 {
			cfg["metadata"] = f.Labels
		}
		platformtest.PostJSON(t, o.fake.URL()+"/v1/apps/"+kitApp+"/machines", header,
			map[string]any{"name": f.Name, "region": "iad", "config": cfg}, &out)
		// `fly machine run` waits for the machine to start (unless
		// --detach): what it leaves behind is a started machine.
		o.waitStarted(t, header, out.ID)
		return out.ID
	case platformtest.KindSnapshot:
		before := map[string]bool{}
		for _, sn := range o.fake.Snapshots(f.SourceID) {
			before[sn.ID] = true
		}
		platformtest.PostJSON(t, o.fake.URL()+"/v1/apps/"+kitApp+"/volumes/"+f.SourceID+"/snapshots", header, map[string]any{}, nil)
		for _, sn := range o.fake.Snapshots(f.SourceID) {
			if !before[sn.ID] {
				return f.SourceID + ":" + sn.ID
			}
		}
		t.Fatalf("fly kit: the snapshot taken of volume %s by hand is not among its snapshots", f.SourceID)
	}
	t.Fatalf("fly kit: making a %s by hand is not modelled (volumes, machines and snapshots are)", f.Kind)
	return ""
}

// waitStarted waits, as flyctl does after a create, with GET
// /apps/{app}/machines/{id}/wait?state=started.
func (o *kitOOB) waitStarted(t *testing.T, header http.Header, id string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet,
		o.fake.URL()+"/v1/apps/"+kitApp+"/machines/"+id+"/wait?state=started&timeout=60", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("fly kit: waiting for machine %s to start: %v", id, err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("fly kit: waiting for machine %s to start: %s: %s", id, resp.Status, body)
	}
}

// MakesByHand implements platformtest.HandMaker: Make models volumes,
// machines and snapshots.
func (o *kitOOB) MakesByHand(kind string) bool {
	return kind == platformtest.KindVolume || kind == platformtest.KindSandbox || kind == platformtest.KindSnapshot
}
