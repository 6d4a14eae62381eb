package modalfake

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	modalsdk "github.com/modal-labs/modal-client/go"
	"google.golang.org/grpc/codes"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

// kitApp is the Modal app of every kit instance's sandboxes.
const kitApp = "sbx-kit"

// kitAppEnv is where a command configured from the environment alone
// finds the instance's app: the modal block's app has no environment
// variable of its own.
const kitAppEnv = "SBX_TEST_MODAL_APP"

// kitImage is the registry image kit templates build from: it stands for
// the quickstart agent image with its CMD (the fake runs nothing).
const kitImage = "ghcr.io/sbxhq/sbx-agent:1.0"

// kitRetryAfter is the wait a throttle asks for; the SDK waits it for real.
const kitRetryAfter = 100 * time.Millisecond

// kitServer is the test binary's one server, the one RunKitTests started:
// Modal's SDK finds its server only through the process's environment
// (MODAL_SERVER_URL), so every instance is a workspace of its own on it.
var kitServer struct {
	sync.Mutex
	s *Server
}

// RunKitTests is RunTests for a package whose tests use Kit: it also makes
// the server the one the kit's instances are workspaces of. started, when
// not nil, gets the server too.
func RunKitTests(m *testing.M, started func(*Server)) int {
	return RunTests(m, func(s *Server) {
		kitServer.Lock()
		kitServer.s = s
		kitServer.Unlock()
		if started != nil {
			started(s)
		}
	})
}

// Kit is Modal under test: each instance a workspace of its own (its own
// tokens, clock and objects) on the test binary's server, which the
// package's TestMain starts with RunKitTests. def is modal.Definition()
// (this package cannot import the platform, whose tests import it).
func Kit(def platform.Definition) platformtest.Kit { return kit{def: def} }

type kit struct{ def platform.Definition }

func (k kit) Name() string { return k.def.Name }

// Profile is Modal as the tests know it, fake or real.
func (k kit) Profile() platformtest.Profile {
	caps := k.def.Capabilities()
	return platformtest.Profile{
		Definition: k.def,
		// A Modal template is an Image built from a registry reference.
		TemplateConfig: func(_ *testing.T, name, image string) string {
			return fmt.Sprintf("  name  = %q\n  image = %q\n", name, image)
		},
		ImageTemplates: true,
		ImportStateVerifyIgnore: map[string][]string{
			"sbx_sandbox": unreported(caps, "sandbox"),
			// Modal Images have no name: it is kept in state only.
			"sbx_template": append(unreported(caps, "template"), "name"),
			"sbx_volume":   unreported(caps, "volume"),
			"sbx_snapshot": unreported(caps, "snapshot"),
		},
	}
}

// Start: the workspace is slow and asynchronous by default, as Modal is
// (async.go); the instant pace settles every object at once.
func (k kit) Start(t *testing.T, opts platformtest.KitOptions) *platformtest.Instance {
	t.Helper()
	opts.CheckSettings(t, k.def.Name)
	kitServer.Lock()
	srv := kitServer.s
	kitServer.Unlock()
	if srv == nil {
		t.Fatal("modalfake's kit needs the test binary's TestMain to call modalfake.RunKitTests: " +
			"Modal's SDK finds its server only through the process's environment")
	}
	ws := srv.NewWorkspace(t)
	// The slow pace is the workspace's default; Instant is the test's choice.
	if opts.Pace.IsInstant() {
		ws.Instant()
	}
	plat := platformtest.Configure(t, k.def, map[string]string{"token_id": ws.TokenID(), "token_secret": ws.TokenSecret(), "app": kitApp})
	in := k.Profile().Instance(t, kitImage)
	in.Owner = opts.Owner
	in.PlatformBlock = func(inner ...string) string {
		return fmt.Sprintf("  modal {\n    token_id     = %q\n    token_secret = %q\n    app          = %q\n%s  }\n",
			ws.TokenID(), ws.TokenSecret(), kitApp, platformtest.InnerLines(inner))
	}
	// The modal block's app has no environment variable of its own: the
	// kit's Definition reads it from kitAppEnv, so a command configured
	// from the environment alone (the orphans command run in-process
	// with it) looks in the instance's app.
	in.Env = []string{"MODAL_TOKEN_ID=" + ws.TokenID(), "MODAL_TOKEN_SECRET=" + ws.TokenSecret(), kitAppEnv + "=" + kitApp}
	in.Definition = platformtest.ReadingEnv(k.def, map[string]string{"app": kitAppEnv})
	in.Hooks = acctest.NoWaitHooks()
	// The provider judges retention deadlines on the workspace's
	// clock, so a test that moves it (ws.Advance) moves the
	// provider's too.
	in.Clock = ws
	in.Capabilities = plat.Capabilities()
	in.OutOfBand = &kitOOB{ByClient: platformtest.ByClient{Platform: plat}, ws: ws}
	in.Objects = func(*testing.T) []platformtest.Object { return ws.kitObjects() }
	in.Faults = kitFaults{ws}
	in.FaultPlan = kitFaultPlan()
	in.SpecViolations = ws.Violations
	return in
}

// unreported are the attributes of kind ("sandbox", "template", "snapshot",
// "volume") that Modal's attribute table marks Unreported: the SDK does
// not report them, so an import cannot read them back. Nested rows
// ("volume_mount.read_only") are covered by their top-level attribute
// (ImportStateVerifyIgnore matches prefixes). The list follows the table,
// so a row that becomes reported is compared from then on.
func unreported(caps platform.Capabilities, kind string) []string {
	ignore := []string{"timeouts"}
	seen := map[string]bool{"timeouts": true}
	for key, a := range caps.Attributes {
		rest, ok := strings.CutPrefix(key, kind+".")
		if !ok || !a.Unreported {
			continue
		}
		top, _, _ := strings.Cut(rest, ".")
		if !seen[top] {
			seen[top] = true
			ignore = append(ignore, top)
		}
	}
	sort.Strings(ignore)
	return ignore
}

// kitObjects are the workspace's live objects: running sandboxes with their
// tags, volumes (a Modal volume's id in state is its name), every image
// built (templates, and filesystem snapshots, which are images made from a
// sandbox; Modal lists no images, the fake knows them) and memory
// snapshots. A registry image pulled as it is (the base every template of
// it is built on, the provider's marks a layer above) is Modal's copy of
// the registry's, shared by every build on it: not an object anyone made.
func (w *Workspace) kitObjects() []platformtest.Object {
	var out []platformtest.Object
	for _, sb := range w.Sandboxes() {
		if !sb.Finished {
			out = append(out, platformtest.Object{Kind: platformtest.KindSandbox, ID: sb.ID, Name: sb.Name, Labels: sb.Tags})
		}
	}
	for _, v := range w.Volumes() {
		out = append(out, platformtest.Object{Kind: platformtest.KindVolume, ID: v.Name, Name: v.Name})
	}
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	for _, img := range w.images {
		if img.registryPull() {
			continue
		}
		kind := platformtest.KindTemplate
		if img.fromSandbox != "" {
			kind = platformtest.KindSnapshot
		}
		out = append(out, platformtest.Object{Kind: kind, ID: img.id})
	}
	for _, sn := range w.memSnaps {
		out = append(out, platformtest.Object{Kind: platformtest.KindSnapshot, ID: sn.id})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Kind < out[j].Kind })
	return out
}

// kitFaults queues faults on the workspace's RPCs: a 429 is
// RESOURCE_EXHAUSTED with Modal's RPCRetryPolicy detail, a 500 INTERNAL, a
// 503 UNAVAILABLE, a drop before acting cuts the call's connection, a held
// call waits in front of the handler, all without acting; a drop after
// acting answers UNAVAILABLE once the handler acted.
type kitFaults struct{ ws *Workspace }

func (f kitFaults) Inject(method string, x platformtest.Fault) {
	n := max(x.Times, 1)
	steps := make([]Step, n)
	for i := range steps {
		steps[i] = kitStep(x)
	}
	f.ws.Sequence(method, steps...)
}

func (f kitFaults) Hits(method string) int { return f.ws.Calls(method) }

func kitStep(f platformtest.Fault) Step {
	st := kitStepKind(f)
	st.SparesRetry = f.SparesRetry
	return st
}

// kitStepKind is the fake's step of f's kind.
func kitStepKind(f platformtest.Fault) Step {
	switch f.Kind {
	case platformtest.FaultRateLimit:
		return Step{Code: codes.ResourceExhausted, RetryAfter: kitRetryAfter}
	case platformtest.FaultServerError:
		return Step{Code: codes.Internal}
	case platformtest.FaultUnavailable:
		return Step{Code: codes.Unavailable}
	case platformtest.FaultDropBefore:
		return Step{DropRequest: true}
	case platformtest.FaultDropAfter:
		return Step{DropAnswer: true}
	case platformtest.FaultLatency:
		return Step{Hold: f.Latency}
	case platformtest.FaultSlowAnswer:
		return Step{HoldAnswer: f.Latency}
	default:
		return Step{}
	}
}

// kitOOB acts on the fake as the modal CLI or dashboard would.
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
type kitOOB struct {
	platformtest.ByClient
	ws *Workspace
}

var _ platformtest.OutOfBand = (*kitOOB)(nil)

// SandboxState: Modal has no pause or stop, only running and finished.
func (o *kitOOB) SandboxState(t *testing.T, id string) platform.SandboxState {
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

func (o *kitOOB) SetSandboxState(t *testing.T, id string, state platform.SandboxState) {
	t.Helper()
	// The capability table refuses every state but running, so the suite
	// never asks for one; a sandbox is running from its create on.
	if state != platform.StateRunning || o.SandboxState(t, id) != platform.StateRunning {
		t.Fatalf("modal: cannot move sandbox %s to %s (Modal has no pause or stop)", id, state)
	}
}

func (o *kitOOB) Delete(t *testing.T, kind, id string) {
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
func (o *kitOOB) deleteVolume(name string) error {
	client, err := modalsdk.NewClientWithOptions(&modalsdk.ClientParams{TokenID: o.ws.TokenID(), TokenSecret: o.ws.TokenSecret()})
	if err != nil {
		return err
	}
	defer client.Close()
	return client.Volumes.Delete(context.Background(), name, nil)
}

func (o *kitOOB) Exists(t *testing.T, kind, id string) bool {
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
func agentFilesOf(sb SandboxView) map[string]string { return platformtest.AgentFiles(sb.Env) }

func (o *kitOOB) ReadSandboxFile(t *testing.T, sandboxID, p string) (string, bool) {
	t.Helper()
	sb, ok := o.ws.Sandbox(sandboxID)
	if !ok || sb.Finished {
		return "", false
	}
	return o.sandboxFile(sb, p, 0)
}

// sandboxFile is what sb holds at p: what its agent wrote, else what the
// sandbox it was started or restored from held.
func (o *kitOOB) sandboxFile(sb SandboxView, p string, depth int) (string, bool) {
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

func (o *kitOOB) ReadVolumeFile(t *testing.T, volumeID, p string) (string, bool) {
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

// registryPull says the image is a registry image pulled as it is: FROM
// lines only, on no image of the workspace.
func (img *image) registryPull() bool {
	if img.baseImageID != "" || img.fromSandbox != "" || len(img.commands) == 0 {
		return false
	}
	for _, c := range img.commands {
		if !strings.HasPrefix(strings.TrimSpace(c), "FROM ") {
			return false
		}
	}
	return true
}

// Make makes a volume (a Modal volume's id in state is its name) or a
// sandbox of the kit's app from the image f.SourceID as another client
// would; Modal volumes carry no labels. Snapshots made by hand are not
// modelled here yet.
func (o *kitOOB) Make(t *testing.T, f platformtest.Foreign) string {
	t.Helper()
	switch f.Kind {
	case platformtest.KindVolume:
		o.ws.CreateVolume(f.Name)
		return f.Name
	case platformtest.KindSandbox:
		id, err := o.makeSandbox(f)
		if err != nil {
			t.Fatalf("modal kit: making a sandbox by hand: %v", err)
		}
		return id
	}
	t.Fatalf("modal kit: making a %s by hand is not modelled (volumes and sandboxes are)", f.Kind)
	return ""
}

// MakesByHand implements platformtest.HandMaker: Make models volumes and
// sandboxes.
func (o *kitOOB) MakesByHand(kind string) bool {
	return kind == platformtest.KindVolume || kind == platformtest.KindSandbox
}

// makeSandbox makes a box as a user's own program on Modal's SDK would:
// the app looked up by name, the image by id, a create with the SDK's
// defaults (300 s timeout) and the name, then the labels set as tags with
// SandboxTagsSet (the SDKs' set_tags / SetTags), none of the provider's.
func (o *kitOOB) makeSandbox(f platformtest.Foreign) (string, error) {
	ctx := context.Background()
	client, err := modalsdk.NewClientWithOptions(&modalsdk.ClientParams{TokenID: o.ws.TokenID(), TokenSecret: o.ws.TokenSecret()})
	if err != nil {
		return "", err
	}
	defer client.Close()
	app, err := client.Apps.FromName(ctx, kitApp, &modalsdk.AppFromNameParams{CreateIfMissing: true})
	if err != nil {
		return "", err
	}
	img, err := client.Images.FromID(ctx, f.SourceID, nil)
	if err != nil {
		return "", err
	}
	sb, err := client.Sandboxes.Create(ctx, app, img, &modalsdk.SandboxCreateParams{Name: f.Name})
	if err != nil {
		return "", err
	}
	defer func() { _ = sb.Detach() }()
	if len(f.Labels) > 0 {
		if err := sb.SetTags(ctx, f.Labels, nil); err != nil {
			return sb.SandboxID, err
		}
	}
	return sb.SandboxID, nil
}
