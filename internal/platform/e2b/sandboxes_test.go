package e2b

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

func e2bTestTemplate(t *testing.T, p *Platform) string {
	t.Helper()
	tpl, err := p.Templates().Create(context.Background(), platform.TemplateSpec{Name: "base", Dockerfile: "FROM alpine\n"})
	if err != nil {
		t.Fatalf("template: %v", err)
	}
	return tpl.ID
}

func TestSandboxLifecycleOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	tpl := e2bTestTemplate(t, p)
	sb, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{
		Name: "box1", TemplateID: tpl, State: platform.StateRunning,
		Env: map[string]string{"TOKEN": "s3cret"}, Labels: map[string]string{"team": "ml"},
		Lifecycle: platform.Lifecycle{Timeout: 30 * time.Minute, OnTimeout: platform.OnTimeoutPause},
	})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	view, ok := fake.Sandbox(sb.ID)
	if !ok {
		t.Fatalf("sandbox %s not on the fake", sb.ID)
	}
	if view.Timeout != 1800 || !view.AutoPause || view.EnvVars["TOKEN"] != "s3cret" || view.Metadata["team"] != "ml" ||
		view.Metadata[platform.LabelManaged] != "true" || view.Metadata[platform.LabelName] != "box1" {
		t.Errorf("fake sandbox = %+v", view)
	}
	if sb.Status != platform.StateRunning || sb.Name != "box1" || sb.ExpiresAt.IsZero() ||
		sb.Lifecycle.OnTimeout != platform.OnTimeoutPause || sb.Lifecycle.Timeout != 30*time.Minute {
		t.Errorf("sandbox = %+v", sb)
	}

	steps := []struct {
		to         platform.SandboxState
		fakeState  string
		withMemory bool
	}{
		{platform.StatePaused, "paused", true},
		{platform.StateRunning, "running", true},
		{platform.StatePaused, "paused", true},
		{platform.StateRunning, "running", true},
	}
	for _, st := range steps {
		got, err := p.Sandboxes().SetState(ctx, sb.ID, st.to)
		if err != nil {
			t.Fatalf("SetState(%s): %v", st.to, err)
		}
		v, _ := fake.Sandbox(sb.ID)
		if got.Status != st.to || v.State != st.fakeState || (st.fakeState == "paused" && v.PausedWithMemory != st.withMemory) {
			t.Errorf("after SetState(%s): status %s, fake %+v", st.to, got.Status, v)
		}
	}
	got, err := p.Sandboxes().Update(ctx, sb.ID, lifecycleUpdate(platform.Lifecycle{Timeout: 2 * time.Hour, OnTimeout: platform.OnTimeoutPause}))
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	if v, _ := fake.Sandbox(sb.ID); v.Timeout != 7200 || got.Lifecycle.Timeout != 2*time.Hour {
		t.Errorf("after Update: fake timeout %d, sandbox %+v", v.Timeout, got.Lifecycle)
	}
	if _, err := p.Sandboxes().Update(ctx, sb.ID, lifecycleUpdate(platform.Lifecycle{Timeout: time.Hour, OnTimeout: platform.OnTimeoutKill})); !errors.Is(err, platform.ErrUnsupported) {
		t.Errorf("changing on_timeout in place: %v, want unsupported", err)
	}

	list, err := p.Sandboxes().List(ctx, platform.SandboxFilter{Labels: map[string]string{"team": "ml"}})
	if err != nil || len(list) != 1 || list[0].ID != sb.ID {
		t.Errorf("List = %+v, %v", list, err)
	}
	if err := p.Sandboxes().Delete(ctx, sb.ID); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if err := p.Sandboxes().Delete(ctx, sb.ID); err != nil {
		t.Errorf("Delete of a gone box: %v", err)
	}
	if _, err := p.Sandboxes().Get(ctx, sb.ID); !platform.IsNotFound(err) {
		t.Errorf("Get after delete: %v, want not found", err)
	}
}

func TestSandboxStoppedOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	sb, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: e2bTestTemplate(t, p), State: platform.StateStopped})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	v, _ := fake.Sandbox(sb.ID)
	if sb.Status != platform.StateStopped || v.State != "paused" || v.PausedWithMemory {
		t.Fatalf("created stopped: status %s, fake %+v", sb.Status, v)
	}
	if v.Timeout != 300 || v.TimeoutOmitted {
		t.Errorf("timeout sent = %d (omitted %v), want the 300 s default", v.Timeout, v.TimeoutOmitted)
	}
	for _, to := range []platform.SandboxState{platform.StateRunning, platform.StateStopped} {
		got, err := p.Sandboxes().SetState(ctx, sb.ID, to)
		if err != nil || got.Status != to {
			t.Fatalf("SetState(%s) = %+v, %v", to, got, err)
		}
	}
	if v, _ := fake.Sandbox(sb.ID); v.PausedWithMemory {
		t.Errorf("a stop kept memory: %+v", v)
	}
	// E2B cannot say which kind of pause it was: a read says paused, and
	// the capability matrix tells the resource so.
	if got, err := p.Sandboxes().Get(ctx, sb.ID); err != nil || got.Status != platform.StatePaused || got.PlatformStatus != "paused" {
		t.Errorf("Get = %+v, %v; want paused (the kind of pause is not reported)", got, err)
	}
	if !p.Capabilities().PauseKindUnreported {
		t.Error("capabilities do not say that E2B leaves the kind of pause unreported")
	}
	// Filters by stopped or paused both find it: E2B cannot tell them apart.
	for _, status := range []platform.SandboxState{platform.StateStopped, platform.StatePaused} {
		if list, err := p.Sandboxes().List(ctx, platform.SandboxFilter{Status: status}); err != nil || len(list) != 1 || list[0].ID != sb.ID {
			t.Errorf("List(status %s) = %+v, %v; want the paused box", status, list, err)
		}
	}
	if list, err := p.Sandboxes().List(ctx, platform.SandboxFilter{Status: platform.StateRunning}); err != nil || len(list) != 0 {
		t.Errorf("List(status running) = %+v, %v; want none", list, err)
	}
}

// TestSandboxPauseKindSwitchOnFake: paused and stopped switch in place, on
// the same box, by resuming it and pausing it again with the other memory
// flag; the fake records the flag of every pause.
func TestSandboxPauseKindSwitchOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	sb, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: e2bTestTemplate(t, p), State: platform.StatePaused,
		Lifecycle: platform.Lifecycle{Timeout: 45 * time.Minute}})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	steps := []struct {
		to         platform.SandboxState
		fakeState  string
		withMemory bool
		pauses     int // pause requests so far
		connects   int // resumes so far
	}{
		{platform.StateStopped, "paused", false, 2, 1},
		{platform.StatePaused, "paused", true, 3, 2},
		{platform.StateStopped, "paused", false, 4, 3},
		{platform.StateRunning, "running", false, 4, 4},
		{platform.StatePaused, "paused", true, 5, 4},
	}
	if v, _ := fake.Sandbox(sb.ID); sb.Status != platform.StatePaused || v.PauseCount != 1 || !v.PausedWithMemory {
		t.Fatalf("created paused: status %s, fake %+v", sb.Status, v)
	}
	for _, st := range steps {
		got, err := p.Sandboxes().SetState(ctx, sb.ID, st.to)
		if err != nil {
			t.Fatalf("SetState(%s): %v", st.to, err)
		}
		v, ok := fake.Sandbox(sb.ID)
		if !ok || got.ID != sb.ID || len(fake.Sandboxes()) != 1 {
			t.Fatalf("SetState(%s) did not keep the box in place: got %s, want %s; %d boxes", st.to, got.ID, sb.ID, len(fake.Sandboxes()))
		}
		if got.Status != st.to || v.State != st.fakeState || v.PauseCount != st.pauses ||
			(st.fakeState == "paused" && v.PausedWithMemory != st.withMemory) {
			t.Errorf("after SetState(%s): status %s, fake state %s, %d pauses, last with memory %v; want %s, %d pauses, memory %v",
				st.to, got.Status, v.State, v.PauseCount, v.PausedWithMemory, st.fakeState, st.pauses, st.withMemory)
		}
		if n := fake.Requests("POST /sandboxes/{sandboxID}/connect"); n != st.connects {
			t.Errorf("after SetState(%s): %d resumes, want %d", st.to, n, st.connects)
		}
		if st.fakeState == "running" && v.Timeout != 2700 {
			t.Errorf("resumed with timeout %d s, want the 2700 s the box was made with", v.Timeout)
		}
	}
}

func TestSandboxOutOfBandOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	sb, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: e2bTestTemplate(t, p)})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	fake.PauseOutOfBand(sb.ID)
	if got, err := p.Sandboxes().Get(ctx, sb.ID); err != nil || got.Status != platform.StatePaused || !got.ExpiresAt.IsZero() {
		t.Errorf("after an out-of-band pause: %+v, %v", got, err)
	}
	fake.KillOutOfBand(sb.ID)
	if _, err := p.Sandboxes().Get(ctx, sb.ID); !platform.IsNotFound(err) {
		t.Errorf("after an out-of-band kill: %v, want not found", err)
	}
}

func TestSandboxRefusalsOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	tpl := e2bTestTemplate(t, p)
	for name, spec := range map[string]platform.SandboxSpec{
		"cpu":  {TemplateID: tpl, CPUCount: 2},
		"idle": {TemplateID: tpl, Lifecycle: platform.Lifecycle{IdleTimeout: time.Minute}},
	} {
		if _, err := p.Sandboxes().Create(context.Background(), spec); !errors.Is(err, platform.ErrUnsupported) {
			t.Errorf("%s: %v, want unsupported", name, err)
		}
	}
	if n := len(fake.Sandboxes()); n != 0 {
		t.Errorf("refused creates made %d sandboxes", n)
	}
}

func TestSandboxCreateAnswerLostOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	tpl := e2bTestTemplate(t, p)
	fake.Inject("POST /sandboxes", e2bfake.Fault{DropAfterHandling: true})
	sb, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{Name: "once", TemplateID: tpl})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if all := fake.Sandboxes(); len(all) != 1 || all[0].ID != sb.ID {
		t.Fatalf("fake has %d sandboxes (%+v), want exactly the one returned (%s)", len(all), all, sb.ID)
	}
	if n := fake.Requests("POST /sandboxes"); n != 1 {
		t.Errorf("POST /sandboxes sent %d times, want 1 (the lost answer is looked up, not re-sent)", n)
	}
	// Another create of the same name (a create_before_destroy replacement,
	// another state) is not this create: it never takes the box over, it
	// makes its own beside it, as E2B allows.
	again, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{Name: "once", TemplateID: tpl})
	if err != nil {
		t.Fatalf("second Create: %v", err)
	}
	if all := fake.Sandboxes(); len(all) != 2 || again.ID == sb.ID {
		t.Errorf("after another create of the same name: %d sandboxes, id %s (first %s); want a second box", len(all), again.ID, sb.ID)
	}
}

// lifecycleUpdate is an in-place change of lc's settings.
func lifecycleUpdate(lc platform.Lifecycle) platform.SandboxUpdate {
	return platform.SandboxUpdate{Lifecycle: &platform.LifecycleUpdate{Lifecycle: lc}}
}
