package docker

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/events"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/volume"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// sandboxTestTemplate builds a template for one test: the agent, started
// by start_cmd, ready once /ready exists, with a default size.
func sandboxTestTemplate(t *testing.T, p *Platform, readyCmd string) *platform.Template {
	t.Helper()
	return templateTestCreate(t, p, platform.TemplateSpec{
		Name: templateTestName("tpl"), Dockerfile: templateTestDockerfile, ContextDir: templateTestContext(t, "data"),
		StartCmd: `["/agent"]`, ReadyCmd: readyCmd, CPUCount: 1, MemoryMB: 128,
		Labels: map[string]string{"template-label": "not the sandbox's"},
	})
}

// sandboxTestCreate creates a named sandbox removed when the test ends.
func sandboxTestCreate(t *testing.T, p *Platform, spec platform.SandboxSpec) *platform.Sandbox {
	t.Helper()
	if spec.Name == "" {
		spec.Name = templateTestName("box")
	}
	sandboxTestCleanup(t, p.api, spec.Name)
	sb, err := p.Sandboxes().Create(t.Context(), spec)
	if err != nil {
		t.Fatalf("creating sandbox %s: %v", spec.Name, err)
	}
	return sb
}

// sandboxTestWantStatus checks a sandbox and a fresh read of it.
func sandboxTestWantStatus(t *testing.T, p *Platform, sb *platform.Sandbox, id string, status platform.SandboxState, raw string) {
	t.Helper()
	if sb.ID != id {
		t.Errorf("id = %s, want the same container %s", sb.ID, id)
	}
	got, err := p.Sandboxes().Get(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*platform.Sandbox{sb, got} {
		if s.Status != status || s.PlatformStatus != raw {
			t.Errorf("status %s (%s), want %s (%s)", s.Status, s.PlatformStatus, status, raw)
		}
	}
}

func TestSandboxStateTransitions(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := templateTestPlatform(t)
	tmpl := sandboxTestTemplate(t, p, "/agent cat /ready")
	sb := sandboxTestCreate(t, p, platform.SandboxSpec{TemplateID: tmpl.ID, State: platform.StateRunning})
	id := sb.ID
	sandboxTestWantStatus(t, p, sb, id, platform.StateRunning, "running")
	if sb.StartedAt.IsZero() || sb.CreatedAt.IsZero() || !sb.ExpiresAt.IsZero() {
		t.Errorf("times: created %v started %v expires %v", sb.CreatedAt, sb.StartedAt, sb.ExpiresAt)
	}
	c, err := p.api.ContainerInspect(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if c.State.Health == nil || c.State.Health.Status != container.Healthy {
		t.Errorf("Create returned before the ready_cmd passed: health %+v", c.State.Health)
	}
	if !reflect.DeepEqual([]string(c.Config.Cmd), []string{"/agent"}) || c.HostConfig.RestartPolicy.Name != "no" {
		t.Errorf("cmd %q, restart policy %q", c.Config.Cmd, c.HostConfig.RestartPolicy.Name)
	}

	// Every transition between the three states, in place.
	steps := []struct {
		to  platform.SandboxState
		raw string
	}{
		{platform.StatePaused, "paused"},   // running → paused
		{platform.StateStopped, "exited"},  // paused → stopped
		{platform.StateRunning, "running"}, // stopped → running
		{platform.StateStopped, "exited"},  // running → stopped
		{platform.StatePaused, "paused"},   // stopped → paused
		{platform.StateRunning, "running"}, // paused → running
		{platform.StateRunning, "running"}, // no change
	}
	from := platform.StateRunning
	for _, step := range steps {
		t.Run(string(from)+"->"+string(step.to), func(t *testing.T) {
			got, err := p.Sandboxes().SetState(ctx, id, step.to)
			if err != nil {
				t.Fatal(err)
			}
			sandboxTestWantStatus(t, p, got, id, step.to, step.raw)
		})
		from = step.to
	}
	if _, err := p.Sandboxes().SetState(ctx, id, platform.StateFailed); err == nil {
		t.Error("SetState to failed accepted")
	}
}

func TestSandboxCreateInState(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := templateTestPlatform(t)
	tmpl := sandboxTestTemplate(t, p, "")
	tests := []struct {
		state     platform.SandboxState
		raw       string
		neverRuns bool
	}{
		{platform.StateStopped, "created", true},
		{platform.StatePaused, "paused", false},
		{"", "running", false}, // default
	}
	for _, tt := range tests {
		t.Run(string(tt.state), func(t *testing.T) {
			sb := sandboxTestCreate(t, p, platform.SandboxSpec{TemplateID: tmpl.ID, State: tt.state})
			want := tt.state
			if want == "" {
				want = platform.StateRunning
			}
			sandboxTestWantStatus(t, p, sb, sb.ID, want, tt.raw)
			if sb.StartedAt.IsZero() != tt.neverRuns {
				t.Errorf("started at %v", sb.StartedAt)
			}
			if err := p.Sandboxes().Delete(ctx, sb.ID); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// Deleting a running box kills it at once, with no stop and its grace
// period, as the engine's events show: a kill with SIGKILL, none with
// SIGTERM, no stop, and the agent dying of the kill (137), where a stop
// would have let it end on its own (0).
func TestSandboxDeleteRunningKillsAndIsIdempotent(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := templateTestPlatform(t)
	tmpl := sandboxTestTemplate(t, p, "")
	sb := sandboxTestCreate(t, p, platform.SandboxSpec{TemplateID: tmpl.ID})

	watch := acctest.WatchDockerEvents(t, p.api, sb.ID)
	if err := p.Sandboxes().Delete(ctx, sb.ID); err != nil {
		t.Fatal(err)
	}
	var seen []string
	for {
		ev := watch.Next()
		seen = append(seen, string(ev.Action)+" "+fmt.Sprint(ev.Actor.Attributes["signal"], ev.Actor.Attributes["exitCode"]))
		switch ev.Action {
		case events.ActionKill:
			if sig := ev.Actor.Attributes["signal"]; sig != "9" {
				t.Errorf("the engine sent signal %s, want only SIGKILL (9)", sig)
			}
		case events.ActionStop:
			t.Error("the engine stopped the box, giving it a grace period")
		case events.ActionDie:
			if code := ev.Actor.Attributes["exitCode"]; code != "137" {
				t.Errorf("the box exited with code %s, want 137 (killed)", code)
			}
		}
		if ev.Action == events.ActionDestroy {
			break
		}
	}
	if !slices.ContainsFunc(seen, func(e string) bool { return strings.HasPrefix(e, "kill ") }) {
		t.Errorf("no kill among the engine's events %q", seen)
	}

	_, err := p.Sandboxes().Get(ctx, sb.ID)
	var nf *platform.NotFoundError
	if !errors.As(err, &nf) || nf.Kind != "sandbox" || nf.ID != sb.ID {
		t.Errorf("Get after Delete: %v, want a sandbox NotFoundError", err)
	}
	if err := p.Sandboxes().Delete(ctx, sb.ID); err != nil {
		t.Errorf("second Delete: %v", err)
	}
	if _, err := p.Sandboxes().SetState(ctx, sb.ID, platform.StateRunning); !platform.IsNotFound(err) {
		t.Errorf("SetState after Delete: %v, want not found", err)
	}
}

// A named box is taken up again only by the create that made it (its
// request retried after a lost answer); any other create of the name fails
// with a NotOwnedError, whoever made the container.
func TestSandboxNameOwnership(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := templateTestPlatform(t)
	tmpl := sandboxTestTemplate(t, p, "")
	name := templateTestName("box")
	spec := platform.SandboxSpec{Name: name, TemplateID: tmpl.ID, State: platform.StateStopped, Marks: platform.NewMarks("team-a")}
	first := sandboxTestCreate(t, p, spec)

	// The same create again (its answer was lost), now asking for running:
	// the same container is taken up.
	spec.State = platform.StateRunning
	again, err := p.Sandboxes().Create(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if again.ID != first.ID || again.Status != platform.StateRunning || again.Name != name {
		t.Errorf("second create: %+v; want %s running", again, first.ID)
	}

	// Another create of the name (another state, a second resource, a
	// create_before_destroy replacement) is refused, and makes nothing.
	other := spec
	other.Marks = platform.NewMarks("team-a")
	_, err = p.Sandboxes().Create(ctx, other)
	var notOwned *platform.NotOwnedError
	if !errors.As(err, &notOwned) || notOwned.ID != first.ID || !strings.Contains(err.Error(), "terraform import") {
		t.Errorf("create by another create: %v, want a NotOwnedError naming %s with the import command", err, first.ID)
	}
	list, err := p.Sandboxes().List(ctx, platform.SandboxFilter{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, sb := range list {
		if sb.Name == name {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d sandboxes named %s, want 1", n, name)
	}

	// A container of the name that the provider did not make is not taken.
	foreign := templateTestName("foreign")
	sandboxTestCleanup(t, p.api, foreign)
	if _, err := p.api.ContainerCreate(ctx, &container.Config{Image: tmpl.BuildID}, nil, nil, nil, foreign); err != nil {
		t.Fatal(err)
	}
	_, err = p.Sandboxes().Create(ctx, platform.SandboxSpec{Name: foreign, TemplateID: tmpl.ID})
	if !errors.Is(err, platform.ErrConflict) || !strings.Contains(err.Error(), "not made by this provider") {
		t.Errorf("create over a foreign container: %v, want a conflict", err)
	}
}

func TestSandboxRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := templateTestPlatform(t)
	tmpl := sandboxTestTemplate(t, p, "/agent cat /ready")

	vols := []string{templateTestName("vol"), templateTestName("vol")}
	for _, v := range vols {
		if _, err := p.api.VolumeCreate(ctx, volume.CreateOptions{Name: v}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = p.api.VolumeRemove(context.Background(), v, true) })
	}
	mounts := []platform.VolumeMount{
		{VolumeID: vols[0], Path: "/data", ReadOnly: false},
		{VolumeID: vols[1], Path: "/ref", ReadOnly: true},
	}
	labels := map[string]string{"team": "infra", "purpose": "test"}
	sb := sandboxTestCreate(t, p, platform.SandboxSpec{
		TemplateID: tmpl.ID, Labels: labels, VolumeMounts: mounts,
		Env: map[string]string{"GREETING": "hello", "AGENT_LOG": "/data/log"},
	})
	if sb.TemplateID != tmpl.ID || sb.FromSnapshotID != "" {
		t.Errorf("template %q, snapshot %q", sb.TemplateID, sb.FromSnapshotID)
	}
	if !reflect.DeepEqual(sb.Labels, labels) {
		t.Errorf("labels = %v, want %v (the template's labels are not the sandbox's)", sb.Labels, labels)
	}
	if !reflect.DeepEqual(sb.VolumeMounts, mounts) {
		t.Errorf("mounts = %+v, want %+v", sb.VolumeMounts, mounts)
	}
	// Size: the template's default.
	if sb.CPUCount != 1 || sb.MemoryMB != 128 {
		t.Errorf("size %d CPU %d MB, want the template's 1 CPU 128 MB", sb.CPUCount, sb.MemoryMB)
	}
	c, err := p.api.ContainerInspect(ctx, sb.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(c.Config.Env, "GREETING=hello") {
		t.Errorf("env %q lacks GREETING=hello", c.Config.Env)
	}
	for k, want := range map[string]string{
		platform.LabelManaged: "true", platform.LabelKind: "sandbox", platform.LabelName: sb.Name,
		labelTemplateID: tmpl.ID, labelFromSnapshotID: "",
	} {
		if got, ok := c.Config.Labels[k]; !ok || got != want {
			t.Errorf("container label %s = %q, want %q", k, got, want)
		}
	}

	// Resize in place.
	resized, err := p.Sandboxes().Update(ctx, sb.ID, platform.SandboxUpdate{CPUCount: ptrInt64(2), MemoryMB: ptrInt64(64)})
	if err != nil {
		t.Fatal(err)
	}
	if resized.ID != sb.ID || resized.CPUCount != 2 || resized.MemoryMB != 64 || resized.Status != platform.StateRunning {
		t.Errorf("after resize: %+v", resized)
	}

	// List filters by the user's labels and by status.
	tests := []struct {
		name   string
		filter platform.SandboxFilter
		want   bool
	}{
		{"label", platform.SandboxFilter{Labels: map[string]string{"team": "infra"}}, true},
		{"label and status", platform.SandboxFilter{Labels: map[string]string{"team": "infra"}, Status: platform.StateRunning}, true},
		{"other status", platform.SandboxFilter{Labels: map[string]string{"team": "infra"}, Status: platform.StatePaused}, false},
		{"other value", platform.SandboxFilter{Labels: map[string]string{"team": "web"}}, false},
		{"inherited label is not the user's", platform.SandboxFilter{Labels: map[string]string{"template-label": "not the sandbox's"}}, false},
	}
	for _, tt := range tests {
		t.Run("list by "+tt.name, func(t *testing.T) {
			list, err := p.Sandboxes().List(ctx, tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			found := slices.ContainsFunc(list, func(s platform.Sandbox) bool { return s.ID == sb.ID })
			if found != tt.want {
				t.Errorf("found = %v, want %v", found, tt.want)
			}
		})
	}
}

func TestSandboxCreateRefusals(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := templateTestPlatform(t)
	tmpl := sandboxTestTemplate(t, p, "")
	name := templateTestName("box")
	sandboxTestCleanup(t, p.api, name)
	tests := []struct {
		name string
		spec platform.SandboxSpec
		kind string // of the NotFoundError, "" for another error
	}{
		{"missing template", platform.SandboxSpec{Name: name, TemplateID: TemplateID(templateTestName("gone"))}, "template"},
		{"missing snapshot", platform.SandboxSpec{Name: name, FromSnapshotID: "sha256:" + strings.Repeat("0", 64)}, "snapshot"},
		{"missing volume", platform.SandboxSpec{Name: name, TemplateID: tmpl.ID,
			VolumeMounts: []platform.VolumeMount{{VolumeID: templateTestName("novol"), Path: "/data"}}}, "volume"},
		{"disk size", platform.SandboxSpec{Name: name, TemplateID: tmpl.ID, DiskMB: 1024}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sb, err := p.Sandboxes().Create(ctx, tt.spec)
			if err == nil || sb != nil {
				t.Fatalf("created %+v, %v", sb, err)
			}
			var nf *platform.NotFoundError
			if tt.kind != "" && (!errors.As(err, &nf) || nf.Kind != tt.kind) {
				t.Errorf("error %v, want a %s NotFoundError", err, tt.kind)
			}
			if tt.kind == "" && !errors.Is(err, platform.ErrUnsupported) {
				t.Errorf("error %v, want unsupported", err)
			}
			// Nothing was made: no volume conjured up, no container.
			if _, err := p.api.ContainerInspect(ctx, name); err == nil {
				t.Errorf("a container %s exists after a refused create", name)
			}
			for _, m := range tt.spec.VolumeMounts {
				if _, err := p.api.VolumeInspect(ctx, m.VolumeID); err == nil {
					_ = p.api.VolumeRemove(ctx, m.VolumeID, true)
					t.Errorf("the engine made the missing volume %s", m.VolumeID)
				}
			}
		})
	}
}

// A create whose context ends while the box's ready_cmd still fails (in
// its start period, before the engine's verdict) fails saying the box is not
// ready, with the check's latest output, and returns the box.
//
// The context ends once the create has read the box with a failed check on
// record, not at a fixed time: on a slow machine the engine may not have run
// the check yet when a fixed timeout passed. The engine runs it every
// readyInterval; its failures count only after readyStartPeriod (30 s),
// whose end would turn the error into an unhealthy verdict. That start
// period is the test's real bound: ten times more than an idle machine
// takes to run the check once.
func TestSandboxNotReadyReturnsTheBox(t *testing.T) {
	t.Parallel()
	p := templateTestPlatform(t)
	tmpl := sandboxTestTemplate(t, p, "/agent cat /never")
	name := templateTestName("box")
	sandboxTestCleanup(t, p.api, name)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	boxes := maskedSandboxes{&sandboxes{api: p.api, readHook: func(c container.InspectResponse) {
		if h := c.State.Health; h != nil && slices.ContainsFunc(h.Log, func(r *container.HealthcheckResult) bool { return r.ExitCode != 0 }) {
			cancel()
		}
	}}}
	sb, err := boxes.Create(ctx, platform.SandboxSpec{Name: name, TemplateID: tmpl.ID})
	if err == nil || !strings.Contains(err.Error(), "is not ready (health starting)") || !strings.Contains(err.Error(), "last ready_cmd exit code 1") {
		t.Errorf("error = %v, want not ready with the check's output", err)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want the end of the create's context", err)
	}
	if sb == nil || sb.ID == "" || sb.Name != name {
		t.Fatalf("sandbox = %+v, want the box that exists, for the caller to save", sb)
	}
	if got, err := p.Sandboxes().Get(t.Context(), sb.ID); err != nil || got.Status != platform.StateRunning {
		t.Errorf("Get = %+v, %v", got, err)
	}
}

func TestSandboxFromSnapshotImage(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := templateTestPlatform(t)
	tmpl := sandboxTestTemplate(t, p, "/agent cat /ready")
	src := sandboxTestCreate(t, p, platform.SandboxSpec{TemplateID: tmpl.ID, Labels: map[string]string{"origin": "yes"},
		Env: map[string]string{"AGENT_FILES": "/ready=yes;/work/state=saved"}})

	// On Docker a snapshot is an image committed of the box (an image
	// committed by hand is refused: TestCheckSource).
	committed, err := p.Snapshots().Create(ctx, platform.SnapshotSpec{SandboxID: src.ID})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = p.api.ImageRemove(context.Background(), committed.ID, image.RemoveOptions{Force: true, PruneChildren: true})
	})

	sb := sandboxTestCreate(t, p, platform.SandboxSpec{FromSnapshotID: committed.ID, Labels: map[string]string{"restored": "yes"}})
	if sb.FromSnapshotID != committed.ID || sb.TemplateID != "" {
		t.Errorf("restored box: snapshot %q template %q; want %q and none", sb.FromSnapshotID, sb.TemplateID, committed.ID)
	}
	if want := map[string]string{"restored": "yes"}; !reflect.DeepEqual(sb.Labels, want) {
		t.Errorf("labels = %v, want only the new box's %v", sb.Labels, want)
	}
	// The snapshot image carries the source box's start command and
	// readiness check: the restored box runs and passes it.
	c, err := p.api.ContainerInspect(ctx, sb.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sb.Status != platform.StateRunning || c.State.Health == nil || c.State.Health.Status != container.Healthy {
		t.Errorf("restored box %s, health %+v", sb.Status, c.State.Health)
	}
	if c.Config.Labels[labelFromSnapshotID] != committed.ID {
		t.Errorf("label %s = %q", labelFromSnapshotID, c.Config.Labels[labelFromSnapshotID])
	}
}
