package modal

import (
	"errors"
	"maps"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// template builds an image for boxes to start from.
func (f *fixture) template(t *testing.T) string {
	t.Helper()
	tpl, err := f.p.Templates().Create(f.ctx, platform.TemplateSpec{Name: "base", Image: "alpine:3.21"})
	if err != nil {
		t.Fatal(err)
	}
	return tpl.ID
}

// box makes a sandbox of spec on a fresh template.
func (f *fixture) box(t *testing.T, spec platform.SandboxSpec) *platform.Sandbox {
	t.Helper()
	if spec.TemplateID == "" && spec.FromSnapshotID == "" {
		spec.TemplateID = f.template(t)
	}
	sb, err := f.p.Sandboxes().Create(f.ctx, spec)
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	return sb
}

func TestSandboxCreate(t *testing.T) {
	f := newFixture(t, false)
	marks := platform.NewMarks("team-a")
	sb := f.box(t, platform.SandboxSpec{
		Marks: marks, Name: "agent-1", Env: map[string]string{"TOKEN": "s3cret"}, Labels: map[string]string{"env": "dev"},
		CPUCount: 2, MemoryMB: 2048, MemorySnapshots: true,
		Lifecycle: platform.Lifecycle{Timeout: time.Hour, IdleTimeout: 10 * time.Minute},
	})
	if sb.Status != platform.StateRunning || sb.Name != "agent-1" || !sb.MemorySnapshots || sb.Labels["env"] != "dev" {
		t.Fatalf("sandbox = %+v", sb)
	}
	v, _ := f.w.Sandbox(sb.ID)
	if v.Env["TOKEN"] != "s3cret" || v.MilliCPU != 2000 || v.MemoryMB != 2048 || v.TimeoutSecs != 3600 ||
		v.IdleTimeoutSecs != 600 || !v.EnableSnapshot || v.Name != "agent-1" {
		t.Fatalf("fake sandbox = %+v", v)
	}
	for k, want := range map[string]string{"env": "dev", platform.LabelCreateToken: marks.CreateToken,
		platform.LabelOwner: "team-a", platform.LabelManaged: "true", platform.LabelKind: platform.KindSandbox} {
		if v.Tags[k] != want {
			t.Fatalf("tag %s = %q, want %q (tags %v)", k, v.Tags[k], want, v.Tags)
		}
	}
	if user := platform.UserLabels(sb.Labels); !maps.Equal(user, map[string]string{"env": "dev"}) {
		t.Fatalf("user labels = %v", user)
	}
	// What Modal does not report comes back from the create's tags.
	created := f.w.Now()
	if sb.TemplateID == "" || sb.TemplateID != v.ImageID || !sb.StartedAt.Equal(created) || !sb.ExpiresAt.Equal(created.Add(time.Hour)) {
		t.Fatalf("recorded fields = template %q (image %q), started %s, expires %s; created %s",
			sb.TemplateID, v.ImageID, sb.StartedAt, sb.ExpiresAt, created)
	}
}

func TestSandboxDefaultTimeout(t *testing.T) {
	f := newFixture(t, false)
	sb := f.box(t, platform.SandboxSpec{})
	if v, _ := f.w.Sandbox(sb.ID); v.TimeoutSecs != 300 || v.MemoryMB != 0 || v.MilliCPU != 0 {
		t.Fatalf("fake sandbox = %+v, want the SDK's 300 s default and Modal's sizes", v)
	}
}

func TestSandboxFinishedReason(t *testing.T) {
	tests := []struct {
		name   string
		end    func(f *fixture, id string)
		reason string
	}{
		{name: "terminated", end: func(f *fixture, id string) { _ = f.w.TerminateSandbox(id) }, reason: "finished: terminated (exit code 137)"},
		{name: "timed out", end: func(f *fixture, _ string) { f.w.Advance(2 * time.Minute) }, reason: "finished: timed out (exit code 124)"},
		{name: "idle", end: func(f *fixture, _ string) { f.w.Advance(61 * time.Second) }, reason: "finished (exit code 0)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, false)
			sb := f.box(t, platform.SandboxSpec{Lifecycle: platform.Lifecycle{Timeout: 90 * time.Second, IdleTimeout: time.Minute}})
			tt.end(f, sb.ID)
			_, err := f.p.Sandboxes().Get(f.ctx, sb.ID)
			var nf *platform.NotFoundError
			if !errors.As(err, &nf) || nf.Reason != tt.reason {
				t.Fatalf("Get = %v, want not found: %s", err, tt.reason)
			}
		})
	}
}

func TestSandboxLabelsUpdate(t *testing.T) {
	f := newFixture(t, false)
	sb := f.box(t, platform.SandboxSpec{Marks: platform.NewMarks("o"), Labels: map[string]string{"a": "1", "b": "2"}, MemorySnapshots: true})
	labels := map[string]string{"b": "3", "c": "4", platform.LabelOwner: "hijack"}
	got, err := f.p.Sandboxes().Update(f.ctx, sb.ID, platform.SandboxUpdate{Labels: &labels})
	if err != nil {
		t.Fatal(err)
	}
	if user := platform.UserLabels(got.Labels); !maps.Equal(user, map[string]string{"b": "3", "c": "4"}) {
		t.Fatalf("user labels = %v", user)
	}
	if got.Labels[platform.LabelOwner] != "o" || !got.MemorySnapshots || got.Labels[platform.LabelCreateToken] != sb.Labels[platform.LabelCreateToken] {
		t.Fatalf("reserved tags lost: %v", got.Labels)
	}
	cpu := int64(4)
	if _, err := f.p.Sandboxes().Update(f.ctx, sb.ID, platform.SandboxUpdate{CPUCount: &cpu}); !errors.Is(err, platform.ErrUnsupported) {
		t.Fatalf("cpu update: %v, want unsupported", err)
	}
	if _, err := f.p.Sandboxes().SetState(f.ctx, sb.ID, platform.StatePaused); !errors.Is(err, platform.ErrUnsupported) {
		t.Fatalf("pause: %v, want unsupported", err)
	}
}

func TestSandboxDelete(t *testing.T) {
	f := newFixture(t, false)
	sb := f.box(t, platform.SandboxSpec{})
	for i := range 2 { // the second finds it gone already
		if err := f.p.Sandboxes().Delete(f.ctx, sb.ID); err != nil {
			t.Fatalf("delete %d: %v", i, err)
		}
	}
	if v, _ := f.w.Sandbox(sb.ID); !v.Finished {
		t.Fatalf("sandbox still running: %+v", v)
	}
	if _, err := f.p.Sandboxes().Get(f.ctx, sb.ID); !platform.IsNotFound(err) {
		t.Fatalf("Get: %v, want not found", err)
	}
	if err := f.p.Sandboxes().Delete(f.ctx, "sb-NEVERMADE0000000000000000"); err != nil {
		t.Fatalf("delete of an unknown id: %v", err)
	}
}

func TestSandboxList(t *testing.T) {
	f := newFixture(t, false)
	if got, err := f.p.Sandboxes().List(f.ctx, platform.SandboxFilter{}); err != nil || len(got) != 0 {
		t.Fatalf("List before any app = %v, %v", got, err)
	}
	tpl := f.template(t)
	a := f.box(t, platform.SandboxSpec{TemplateID: tpl, Labels: map[string]string{"team": "a"}})
	b := f.box(t, platform.SandboxSpec{TemplateID: tpl, Labels: map[string]string{"team": "b"}})
	got, err := f.p.Sandboxes().List(f.ctx, platform.SandboxFilter{Labels: map[string]string{"team": "b"}})
	if err != nil || len(got) != 1 || got[0].ID != b.ID {
		t.Fatalf("List team=b = %+v, %v; want %s", got, err, b.ID)
	}
	all, err := f.p.Sandboxes().List(f.ctx, platform.SandboxFilter{})
	if err != nil || len(all) != 2 {
		t.Fatalf("List all = %+v, %v", all, err)
	}
	_ = f.w.TerminateSandbox(a.ID)
	if all, _ := f.p.Sandboxes().List(f.ctx, platform.SandboxFilter{}); len(all) != 1 || all[0].ID != b.ID {
		t.Fatalf("List after a finished = %+v", all)
	}
	inv, err := f.p.Extensions().Inventory.ListManaged(f.ctx)
	if err != nil || len(inv.Objects) != 1 || inv.Objects[0].ID != b.ID || len(inv.Unchecked) != 3 {
		t.Fatalf("ListManaged = %+v, %v", inv, err)
	}
}

func TestSandboxNameTaken(t *testing.T) {
	f := newFixture(t, false)
	tpl := f.template(t)
	first := f.box(t, platform.SandboxSpec{TemplateID: tpl, Name: "worker", Marks: platform.NewMarks("")})
	_, err := f.p.Sandboxes().Create(f.ctx, platform.SandboxSpec{TemplateID: tpl, Name: "worker", Marks: platform.NewMarks("")})
	var no *platform.NotOwnedError
	if !errors.As(err, &no) || no.ID != first.ID {
		t.Fatalf("second create: %v, want not owned naming %s", err, first.ID)
	}
}

func TestSandboxLostCreate(t *testing.T) {
	f := newFixture(t, false)
	tpl := f.template(t)
	// Every attempt the SDK makes (one and three retries) loses its answer.
	f.w.DropAnswer("SandboxCreateV2", 4)
	marks := platform.NewMarks("o")
	sb, err := f.p.Sandboxes().Create(f.ctx, platform.SandboxSpec{TemplateID: tpl, Marks: marks})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if sb.Labels[platform.LabelCreateToken] != marks.CreateToken || len(f.w.Sandboxes()) != 1 {
		t.Fatalf("found %+v; fake holds %d sandboxes", sb, len(f.w.Sandboxes()))
	}
}

func TestSandboxThrottled(t *testing.T) {
	f := newFixture(t, false)
	tpl := f.template(t)
	f.w.Throttle("SandboxCreateV2", 2, 100*time.Millisecond)
	if _, err := f.p.Sandboxes().Create(f.ctx, platform.SandboxSpec{TemplateID: tpl}); err != nil {
		t.Fatalf("Create: %v", err)
	}
	if n := f.w.Calls("SandboxCreateV2"); n != 3 {
		t.Fatalf("SandboxCreateV2 calls = %d, want 3", n)
	}
}

func TestMissingCredentials(t *testing.T) {
	p, err := New(Config{App: "x"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = p.Close() }()
	_, err = p.Sandboxes().Create(t.Context(), platform.SandboxSpec{TemplateID: "im-x"})
	if !errors.Is(err, errMissingCredentials) {
		t.Fatalf("error = %v, want missing credentials", err)
	}
}
