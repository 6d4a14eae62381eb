package e2b

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// e2bLagClock is the fake's clock, moved only by the waits the client asks
// for: a wait is recorded and advances the clock, so a listing lag passes
// exactly as far as the client's backoff has waited, and nothing sleeps.
type e2bLagClock struct {
	*clock.Fake
	mu    sync.Mutex
	waits []time.Duration
}

func (c *e2bLagClock) sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.waits = append(c.waits, d)
	c.mu.Unlock()
	c.Advance(d)
	return ctx.Err()
}

func (c *e2bLagClock) waited() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.waits...)
}

// e2bLagPlatform is a platform over a fake whose listings lag every create
// by lag. Its waits (Config.Sleep, which lookups after a lost answer use
// when no LookupSleep is set) move the fake's clock.
func e2bLagPlatform(t *testing.T, lag time.Duration) (*Platform, *e2bfake.Server, *e2bLagClock) {
	t.Helper()
	clock := &e2bLagClock{Fake: clock.NewFake(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))}
	fake := e2bfake.New(t, e2bfake.Options{APIKey: e2bTestKey, Clock: clock, ListLag: lag, BuildPolls: 1})
	p, err := New(Config{
		APIKey: e2bTestKey, APIURL: fake.URL(), Tier: TierPro, MaxRetries: 4,
		Sleep:        clock.sleep,
		PollSleep:    func(ctx context.Context, _ time.Duration) error { return ctx.Err() },
		PollInterval: time.Millisecond,
	})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() {
		if v := fake.SpecViolations(); len(v) > 0 {
			t.Errorf("requests or responses broke the E2B spec:\n%v", v)
		}
	})
	return p, fake, clock
}

// e2bLostCreateBound is the most the lookups after a lost create answer
// may wait in all: a few lookups over 10 to 15 s.
const e2bLostCreateBound = 15 * time.Second

// e2bLagKind is one kind of create that looks its object up after a lost answer.
type e2bLagKind struct {
	name string
	// route is the create's route on the fake; list its lookups' route.
	route, list string
	// setup makes what the create needs (a template, a box) and returns an argument for create.
	setup func(t *testing.T, p *Platform) string
	// create makes the object and returns its id.
	create func(ctx context.Context, p *Platform, arg string, marks platform.Marks) (string, error)
	// ids lists the objects of the kind on the fake, by id.
	ids func(fake *e2bfake.Server) []string
	// hint is what the lost-create error must name so the object can be found.
	hint func(arg string, marks platform.Marks) []string
}

var e2bLagKinds = []e2bLagKind{
	{
		name: "sandbox", route: "POST /sandboxes", list: "GET /v2/sandboxes",
		setup: e2bTestTemplate,
		create: func(ctx context.Context, p *Platform, tpl string, marks platform.Marks) (string, error) {
			sb, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{Name: "lagged", TemplateID: tpl, Marks: marks})
			if err != nil {
				return "", err
			}
			return sb.ID, nil
		},
		ids: func(fake *e2bfake.Server) []string {
			var ids []string
			for _, v := range fake.Sandboxes() {
				ids = append(ids, v.ID)
			}
			return ids
		},
		hint: func(_ string, marks platform.Marks) []string {
			return []string{`sandbox "lagged"`, platform.LabelCreateToken + "=" + marks.CreateToken, `orphans --owner "ci-agents"`}
		},
	},
	{
		name: "volume", route: "POST /volumes", list: "GET /volumes",
		setup: func(*testing.T, *Platform) string { return "" },
		create: func(ctx context.Context, p *Platform, _ string, _ platform.Marks) (string, error) {
			v, err := p.Volumes().Create(ctx, platform.VolumeSpec{Name: "lagged"})
			if err != nil {
				return "", err
			}
			return v.ID, nil
		},
		ids: func(fake *e2bfake.Server) []string {
			var ids []string
			for _, v := range fake.Volumes() {
				ids = append(ids, v.ID)
			}
			return ids
		},
		hint: func(string, platform.Marks) []string { return []string{`volume "lagged"`, "sbx_volume"} },
	},
	{
		name: "template", route: "POST /v3/templates", list: "GET /v2/templates",
		setup: func(*testing.T, *Platform) string { return "" },
		create: func(ctx context.Context, p *Platform, _ string, _ platform.Marks) (string, error) {
			tpl, err := p.Templates().Create(ctx, platform.TemplateSpec{Name: "lagged", Image: "alpine:3"})
			if err != nil {
				return "", err
			}
			if tpl.Status != "ready" {
				return "", errors.New("the template's build is " + tpl.Status + ", not ready")
			}
			return tpl.ID, nil
		},
		ids: func(fake *e2bfake.Server) []string {
			var ids []string
			for _, v := range fake.Templates() {
				if v.Name == "lagged" {
					ids = append(ids, v.ID)
				}
			}
			return ids
		},
		hint: func(string, platform.Marks) []string { return []string{`template "lagged"`, "sbx_template"} },
	},
	{
		name: "snapshot", route: "POST /sandboxes/{sandboxID}/snapshots", list: "GET /snapshots",
		setup: func(t *testing.T, p *Platform) string {
			t.Helper()
			box, err := p.Sandboxes().Create(context.Background(), platform.SandboxSpec{TemplateID: e2bTestTemplate(t, p)})
			if err != nil {
				t.Fatalf("sandbox: %v", err)
			}
			return box.ID
		},
		create: func(ctx context.Context, p *Platform, box string, _ platform.Marks) (string, error) {
			snap, err := p.Snapshots().Create(ctx, platform.SnapshotSpec{SandboxID: box, Name: "lagged", IncludeMemory: true})
			if err != nil {
				return "", err
			}
			return snap.ID, nil
		},
		ids: func(fake *e2bfake.Server) []string {
			var ids []string
			for _, v := range fake.Snapshots() {
				ids = append(ids, v.SnapshotID)
			}
			return ids
		},
		hint: func(box string, _ platform.Marks) []string {
			return []string{`snapshot "lagged"`, "of sandbox " + box, "sbx_snapshots"}
		},
	},
}

// A create whose answer is lost while E2B's listing lags it by a few
// seconds finds the object it made by looking again with backoff, and never
// sends the create a second time: exactly one object, one POST.
func TestLostCreateFoundThroughListLagOnFake(t *testing.T) {
	const lag = 5 * time.Second
	for _, kind := range e2bLagKinds {
		t.Run(kind.name, func(t *testing.T) {
			p, fake, clock := e2bLagPlatform(t, lag)
			arg := kind.setup(t, p)
			waitsBefore := len(clock.waited())
			fake.Inject(kind.route, e2bfake.Fault{DropAfterHandling: true})
			id, err := kind.create(context.Background(), p, arg, platform.NewMarks("ci-agents"))
			if err != nil {
				t.Fatalf("Create: %v", err)
			}
			if n := fake.Requests(kind.route); n != 1 {
				t.Errorf("%s sent %d times, want 1 (the lost create looked up, never sent again)", kind.route, n)
			}
			if ids := kind.ids(fake); len(ids) != 1 || ids[0] != id {
				t.Errorf("fake holds %s objects %v, want exactly the one returned (%s)", kind.name, ids, id)
			}
			waits := clock.waited()[waitsBefore:]
			var total time.Duration
			for _, w := range waits {
				total += w
			}
			if total < lag || total > e2bLostCreateBound {
				t.Errorf("lookups waited %v (%s in all), want at least the %s lag and at most %s", waits, total, lag, e2bLostCreateBound)
			}
		})
	}
}

// A lost create whose object is listed only after the lookup bound fails
// with an error saying the create may have happened and how to find the
// object; it is not sent again, so the one object it made stays the only one.
func TestLostCreateListLagBeyondBoundOnFake(t *testing.T) {
	for _, kind := range e2bLagKinds {
		t.Run(kind.name, func(t *testing.T) {
			p, fake, clock := e2bLagPlatform(t, time.Minute)
			arg := kind.setup(t, p)
			waitsBefore := len(clock.waited())
			listsBefore := fake.Requests(kind.list)
			marks := platform.NewMarks("ci-agents")
			fake.Inject(kind.route, e2bfake.Fault{DropAfterHandling: true})
			id, err := kind.create(context.Background(), p, arg, marks)
			if err == nil {
				t.Fatalf("Create = %s, want an error: the %s is not listed within the bound", id, kind.name)
			}
			if !errors.Is(err, rest.ErrMaybeApplied) {
				t.Errorf("error does not wrap rest.ErrMaybeApplied (the create may have happened): %v", err)
			}
			msg := err.Error()
			for _, want := range append([]string{"may have been made", "not sent again", "12s"}, kind.hint(arg, marks)...) {
				if !strings.Contains(msg, want) {
					t.Errorf("error does not say %q:\n%s", want, msg)
				}
			}
			if n := fake.Requests(kind.route); n != 1 {
				t.Errorf("%s sent %d times, want 1 (a create not yet listed is never sent again)", kind.route, n)
			}
			if ids := kind.ids(fake); len(ids) != 1 {
				t.Errorf("fake holds %s objects %v, want exactly the one the lost create made", kind.name, ids)
			}
			// The bound: looked at once and after 1, 2, 4 and 5 s.
			if waits, want := clock.waited()[waitsBefore:], []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second}; !slices.Equal(waits, want) {
				t.Errorf("lookups waited %v, want %v", waits, want)
			}
			if n := fake.Requests(kind.list) - listsBefore; n < 5 {
				t.Errorf("%s asked %d times after the lost answer, want 5 lookups", kind.list, n)
			}
		})
	}
}

// The lost box of a create is found by its token with the box's own
// metadata; another box made meanwhile under the same name is not taken.
func TestLostSandboxCreateIgnoresOtherBoxesOfTheNameOnFake(t *testing.T) {
	p, fake, clock := e2bLagPlatform(t, 3*time.Second)
	ctx := context.Background()
	tpl := e2bTestTemplate(t, p)
	theirs, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{Name: "lagged", TemplateID: tpl})
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute) // theirs is listed now
	fake.Inject("POST /sandboxes", e2bfake.Fault{DropAfterHandling: true})
	mine, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{Name: "lagged", TemplateID: tpl})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if mine.ID == theirs.ID || len(fake.Sandboxes()) != 2 || fake.Requests("POST /sandboxes") != 2 {
		t.Errorf("took %s (theirs %s); fake holds %d boxes after %d creates; want my own box, 2 boxes, 2 creates",
			mine.ID, theirs.ID, len(fake.Sandboxes()), fake.Requests("POST /sandboxes"))
	}
}
