package fly

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/lostcreate"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

func TestSandboxCreateStates(t *testing.T) {
	for _, want := range []platform.SandboxState{platform.StateRunning, platform.StatePaused, platform.StateStopped} {
		t.Run(string(want), func(t *testing.T) {
			f := newFixture(t, flyfake.Options{}, Config{Region: "ams"})
			sb := f.box(t, platform.SandboxSpec{Name: "box", State: want, Env: map[string]string{"A": "1"},
				Labels: map[string]string{"team": "x"}, CPUCount: 2, MemoryMB: 1024})
			if sb.Status != want || sb.Region != "ams" || sb.CPUCount != 2 || sb.MemoryMB != 1024 || sb.Env["A"] != "1" {
				t.Fatalf("got %+v", sb)
			}
			if sb.Labels["team"] != "x" || sb.Labels[platform.LabelManaged] != "true" || sb.TemplateID != "base=alpine:3.20" {
				t.Fatalf("labels %v template %q", sb.Labels, sb.TemplateID)
			}
			m, _ := f.srv.Machine(sb.ID)
			if m.Image != "alpine:3.20" {
				t.Fatalf("image %q", m.Image)
			}
		})
	}
}

func TestSandboxSetStateAndUpdateInPlace(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, flyfake.Options{}, Config{})
	sb := f.box(t, platform.SandboxSpec{Name: "box", Env: map[string]string{"A": "1"}})
	boxes := f.p.Sandboxes()
	steps := []platform.SandboxState{platform.StatePaused, platform.StateRunning, platform.StateStopped, platform.StatePaused, platform.StateStopped, platform.StateRunning}
	for _, st := range steps {
		got, err := boxes.SetState(ctx, sb.ID, st)
		if err != nil || got.Status != st || got.ID != sb.ID {
			t.Fatalf("SetState %s: %+v, %v", st, got, err)
		}
	}
	before, _ := f.srv.Machine(sb.ID)
	env := map[string]string{"A": "2"}
	labels := map[string]string{"new": "y"}
	cpus, mem := int64(2), int64(1024)
	got, err := boxes.Update(ctx, sb.ID, platform.SandboxUpdate{Env: &env, Labels: &labels, CPUCount: &cpus, MemoryMB: &mem})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := f.srv.Machine(sb.ID)
	if got.ID != sb.ID || got.Env["A"] != "2" || got.Labels["new"] != "y" || got.CPUCount != 2 || got.MemoryMB != 1024 || got.Status != platform.StateRunning {
		t.Fatalf("updated %+v", got)
	}
	if len(after.Versions) != len(before.Versions)+1 || after.Metadata[platform.LabelCreateToken] == "" {
		t.Fatalf("versions %v → %v, metadata %v", before.Versions, after.Versions, after.Metadata)
	}
	// A stopped box stays stopped through an update (skip_launch).
	if _, err := boxes.SetState(ctx, sb.ID, platform.StateStopped); err != nil {
		t.Fatal(err)
	}
	labels = map[string]string{"new": "z"}
	got, err = boxes.Update(ctx, sb.ID, platform.SandboxUpdate{Labels: &labels})
	if err != nil || got.Status != platform.StateStopped || got.Labels["new"] != "z" || got.ID != sb.ID {
		t.Fatalf("stopped update: %+v, %v", got, err)
	}
	// A paused box stays paused through an update.
	if _, err := boxes.SetState(ctx, sb.ID, platform.StatePaused); err != nil {
		t.Fatal(err)
	}
	env = map[string]string{"A": "3"}
	got, err = boxes.Update(ctx, sb.ID, platform.SandboxUpdate{Env: &env})
	if err != nil || got.Status != platform.StatePaused || got.Env["A"] != "3" {
		t.Fatalf("paused update: %+v, %v", got, err)
	}
}

func TestSandboxColdBootNote(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, flyfake.Options{}, Config{})
	sb := f.box(t, platform.SandboxSpec{State: platform.StatePaused})
	f.srv.LoseSuspendSnapshot(sb.ID)
	got, err := f.p.Sandboxes().Get(ctx, sb.ID)
	if err != nil || got.Status != platform.StatePaused || !strings.Contains(got.PlatformStatus, "cold boot") {
		t.Fatalf("%+v, %v", got, err)
	}
	got, err = f.p.Sandboxes().SetState(ctx, sb.ID, platform.StateRunning)
	if err != nil || got.Status != platform.StateRunning || !strings.Contains(got.PlatformStatus, "resumed with a cold boot") {
		t.Fatalf("%+v, %v", got, err)
	}
	if m, _ := f.srv.Machine(sb.ID); m.ColdBoots != 1 {
		t.Fatalf("cold boots %d", m.ColdBoots)
	}
	// A later suspend and resume keeps the memory: no note.
	if _, err := f.p.Sandboxes().SetState(ctx, sb.ID, platform.StatePaused); err != nil {
		t.Fatal(err)
	}
	got, err = f.p.Sandboxes().SetState(ctx, sb.ID, platform.StateRunning)
	if err != nil || strings.Contains(got.PlatformStatus, "cold") {
		t.Fatalf("%+v, %v", got, err)
	}
}

func TestSandboxDeleteAndList(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, flyfake.Options{}, Config{})
	a := f.box(t, platform.SandboxSpec{Labels: map[string]string{"k": "a"}})
	f.box(t, platform.SandboxSpec{Labels: map[string]string{"k": "b"}, State: platform.StateStopped})
	// Fly's list may lag a create: the first list after them omits the
	// new machines (the fake models it for one list).
	if got, err := f.p.Sandboxes().List(ctx, platform.SandboxFilter{}); err != nil || len(got) != 0 {
		t.Fatalf("first list %+v, %v: want the new boxes missing", got, err)
	}
	got, err := f.p.Sandboxes().List(ctx, platform.SandboxFilter{Labels: map[string]string{"k": "a"}})
	if err != nil || len(got) != 1 || got[0].ID != a.ID {
		t.Fatalf("%+v, %v", got, err)
	}
	if err := f.p.Sandboxes().Delete(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if err := f.p.Sandboxes().Delete(ctx, a.ID); err != nil {
		t.Fatal("second delete:", err)
	}
	if _, err := f.p.Sandboxes().Get(ctx, a.ID); !platform.IsNotFound(err) {
		t.Fatalf("get after delete: %v", err)
	}
	inv, err := f.p.Extensions().Inventory.ListManaged(ctx)
	if err != nil || len(inv.Objects) != 1 || len(inv.Unchecked) != 3 {
		t.Fatalf("inventory %+v, %v", inv, err)
	}
}

// A 408 on create after the machine was made: found by its create token,
// never created twice.
func TestSandboxLostCreate(t *testing.T) {
	cases := []struct {
		name  string
		fault flyfake.Fault
	}{
		{"408 after handling", flyfake.Fault{Status: http.StatusRequestTimeout, AfterHandling: true}},
		{"dropped answer", flyfake.Fault{DropAfterHandling: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, flyfake.Options{}, Config{})
			f.srv.Inject("POST /apps/{app_name}/machines", tc.fault)
			sb := f.box(t, platform.SandboxSpec{Name: "lost"})
			if f.srv.MachineCreates() != 1 || sb.Status != platform.StateRunning {
				t.Fatalf("creates %d, box %+v", f.srv.MachineCreates(), sb)
			}
		})
	}
	t.Run("not made", func(t *testing.T) {
		f := newFixture(t, flyfake.Options{}, Config{})
		f.srv.Inject("POST /apps/{app_name}/machines", flyfake.Fault{DropBeforeHandling: true, Times: 10})
		_, err := f.p.Sandboxes().Create(context.Background(), platform.SandboxSpec{TemplateID: f.template(t), Marks: platform.NewMarks("o")})
		var lost *lostcreate.Error
		if !errors.As(err, &lost) || !errors.Is(err, rest.ErrMaybeApplied) || f.srv.MachineCreates() != 0 {
			t.Fatalf("err %v, creates %d", err, f.srv.MachineCreates())
		}
	})
}

func TestSandboxRegionRule(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, flyfake.Options{}, Config{Region: "iad"})
	vol := f.volume(t, platform.VolumeSpec{Region: "ams"})
	rules := f.p.Extensions().SandboxRules
	cases := []struct {
		name   string
		region string
		mounts int
		want   int
	}{
		{"same region", "ams", 1, 0},
		{"provider region differs", "", 1, 1},
		{"two mounts", "ams", 2, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var mounts []platform.VolumeMount
			for range tc.mounts {
				mounts = append(mounts, platform.VolumeMount{VolumeID: vol.ID, Path: "/data"})
			}
			got := rules.CheckSandbox(ctx, platform.SandboxPlan{Spec: platform.SandboxSpec{Region: tc.region, VolumeMounts: mounts}, MountsKnown: true, Creating: true})
			if len(got) != tc.want {
				t.Fatalf("problems %+v", got)
			}
		})
	}
	_, err := f.p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: f.template(t), VolumeMounts: []platform.VolumeMount{{VolumeID: vol.ID, Path: "/data"}}})
	if err == nil || !strings.Contains(err.Error(), "region") {
		t.Fatalf("create across regions: %v", err)
	}
}

func TestRateLimitedApply(t *testing.T) {
	ctx := context.Background()
	// The client's pacing and the fake's rate limits run on one virtual
	// clock, which moves on only while every create waits in Sleep: each
	// request reaches the fake at the instant the pacing chose, however
	// slowly the machine sends it (on the wall clock, a loaded runner
	// delays the first requests of a burst more than the fourth, which then
	// arrives early and is a 429).
	vc := newVirtualClock(t0)
	f := newFixture(t, flyfake.Options{RateLimits: true, RateClock: vc}, Config{Sleep: vc.Sleep, PaceNow: vc.Now})
	tpl := f.template(t)
	// Eight creates at once, as terraform's parallelism sends them.
	errs := make(chan error, 8)
	for range 8 {
		vc.Go(func() {
			_, err := f.p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: tpl, Marks: platform.NewMarks("o")})
			errs <- err
		})
	}
	giveUp := time.After(clock.Patience) // only if a create never ends
	for range 8 {
		select {
		case err := <-errs:
			if err != nil {
				t.Fatal(err)
			}
		case <-giveUp:
			t.Fatal("the creates did not end")
		}
	}
	if n := len(f.srv.Machines()); n != 8 {
		t.Fatalf("%d machines", n)
	}
	if n := f.srv.RateLimited(); n != 0 {
		t.Fatalf("%d requests were rate limited", n)
	}
	// Past a burst of 3, five more creates at 0.9/s: the pacing waited.
	if waited := vc.Now().Sub(t0); waited < 5*time.Second {
		t.Fatalf("the creates were paced over %s; want at least 5s", waited)
	}
}

// virtualClock is time for goroutines that wait only in its Sleep (or in
// HTTP calls): the goroutines started with Go count as busy until they
// sleep or end, and once none is busy the clock jumps to the earliest
// wake-up and wakes those due. No wall-clock time passes in a Sleep.
type virtualClock struct {
	mu       sync.Mutex
	now      time.Time
	busy     int
	sleepers []*virtualSleeper
}

type virtualSleeper struct {
	wake time.Time
	ch   chan struct{}
}

func newVirtualClock(start time.Time) *virtualClock { return &virtualClock{now: start} }

func (c *virtualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Go runs f in a goroutine counted busy until it sleeps or ends.
func (c *virtualClock) Go(f func()) {
	c.mu.Lock()
	c.busy++
	c.mu.Unlock()
	go func() {
		defer func() {
			c.mu.Lock()
			c.busy--
			c.advance()
			c.mu.Unlock()
		}()
		f()
	}()
}

// Sleep waits until the clock has moved d on, or ctx ends.
func (c *virtualClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	c.mu.Lock()
	s := &virtualSleeper{wake: c.now.Add(d), ch: make(chan struct{})}
	c.sleepers = append(c.sleepers, s)
	c.busy--
	c.advance()
	c.mu.Unlock()
	select {
	case <-s.ch:
		return nil
	case <-ctx.Done():
		c.mu.Lock()
		defer c.mu.Unlock()
		if i := slices.Index(c.sleepers, s); i >= 0 {
			c.sleepers = slices.Delete(c.sleepers, i, i+1)
			c.busy++
		}
		return ctx.Err()
	}
}

// advance, with mu held, moves the clock to the earliest wake-up once no
// goroutine is busy, and wakes those due (busy again).
func (c *virtualClock) advance() {
	if c.busy > 0 || len(c.sleepers) == 0 {
		return
	}
	next := c.sleepers[0].wake
	for _, s := range c.sleepers[1:] {
		if s.wake.Before(next) {
			next = s.wake
		}
	}
	if next.After(c.now) {
		c.now = next
	}
	kept := c.sleepers[:0]
	for _, s := range c.sleepers {
		if s.wake.After(c.now) {
			kept = append(kept, s)
			continue
		}
		close(s.ch)
		c.busy++
	}
	c.sleepers = kept
}

func TestAppCreatedInOrg(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, flyfake.Options{Apps: []string{}}, Config{App: "fresh", Org: "personal"})
	f.box(t, platform.SandboxSpec{})
	if apps := f.srv.Apps(); len(apps) != 1 || apps[0] != "fresh" {
		t.Fatalf("apps %v", apps)
	}
	g := newFixture(t, flyfake.Options{Apps: []string{}}, Config{App: "missing"})
	_, err := g.p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: "alpine"})
	if err == nil || !strings.Contains(err.Error(), "org") {
		t.Fatalf("no org: %v", err)
	}
}

func TestPacing(t *testing.T) {
	cases := []struct {
		method, path, key string
		rate              float64
	}{
		{"GET", "/apps/a/machines/m1", "GET apps/{app}/machines/{id} m1", 5},
		{"POST", "/apps/a/machines/m1/start", "POST apps/{app}/machines/{id}/start m1", 1},
		{"POST", "/apps/a/machines", "POST apps/{app}/machines a", 1},
		{"GET", "/apps/a/machines/m1/wait", "GET apps/{app}/machines/{id}/wait m1", 1},
	}
	for _, tc := range cases {
		got := pacing(tc.method, tc.path)
		if got.Key != tc.key || got.Rate != tc.rate*paceMargin {
			t.Errorf("%s %s: %+v", tc.method, tc.path, got)
		}
	}
}

func TestSandboxDefaultGuestReadsUnset(t *testing.T) {
	f := newFixture(t, flyfake.Options{}, Config{Region: "ams"})
	for _, c := range []struct{ cpus, mem, wantCPUs, wantMem int64 }{
		{0, 0, 0, 0},     // Fly's default guest: shared-cpu-1x, 256 MB
		{1, 256, 0, 0},   // the same, stated
		{2, 0, 2, 0},     // 256 MB per CPU is what a create without memory makes
		{1, 512, 0, 512}, // a size of its own reads back
		{2, 1024, 2, 1024},
	} {
		sb := f.box(t, platform.SandboxSpec{CPUCount: c.cpus, MemoryMB: c.mem})
		if sb.CPUCount != c.wantCPUs || sb.MemoryMB != c.wantMem {
			t.Errorf("cpus %d memory %d: read %d, %d; want %d, %d", c.cpus, c.mem, sb.CPUCount, sb.MemoryMB, c.wantCPUs, c.wantMem)
		}
		m, _ := f.srv.Machine(sb.ID)
		if m.CPUs == 0 || m.MemoryMB == 0 {
			t.Errorf("cpus %d memory %d: Fly's machine has guest %d, %d", c.cpus, c.mem, m.CPUs, m.MemoryMB)
		}
	}
}

func TestSandboxGuestRule(t *testing.T) {
	for _, c := range []struct {
		cpus, mem int64
		want      string
	}{
		{0, 0, ""}, {1, 256, ""}, {2, 512, ""}, {16, 32768, ""},
		{0, 4096, ""}, // the CPU count is unset or unknown
		{3, 0, "cpu_count"}, {2, 256, "memory_mb"}, {1, 4096, "memory_mb"},
	} {
		got := guestProblems(c.cpus, c.mem)
		if (c.want == "") != (len(got) == 0) || (c.want != "" && got[0].Attribute != c.want) {
			t.Errorf("cpus %d memory %d: problems %+v, want one on %q", c.cpus, c.mem, got, c.want)
		}
	}
	f := newFixture(t, flyfake.Options{}, Config{})
	got := f.p.Extensions().SandboxRules.CheckSandbox(context.Background(),
		platform.SandboxPlan{Spec: platform.SandboxSpec{CPUCount: 2, MemoryMB: 256}, MountsKnown: true})
	if len(got) != 1 || got[0].Attribute != "memory_mb" {
		t.Fatalf("problems %+v", got)
	}
}
