// A Kit is one platform under test, as every cross-platform suite
// (conformance, fault matrix, crash test, bad-input table) needs it.
//
// Adding a platform to the tests is its kit plus one registry line:
//
//  1. In the platform's fake package (or, for a platform tested against the
//     real thing, a package of its own, as docker/dockerkit), write kit.go:
//     a type with Name and Start, where Start starts an isolated instance
//     (its own fake server, its own names) cleaned up with t and fills in an
//     Instance: the platform block pointing at it, the environment a CLI
//     subprocess needs, its Definition reading that environment, a template
//     that builds the quickstart agent, its capabilities, what an import
//     cannot read back, out-of-band access, the objects it holds, fault
//     injection (nil where it cannot) and its spec violations.
//     The fake package cannot import its platform (the platform's tests
//     import the fake): the kit takes the platform's Definition and
//     configures its client with it (Configure).
//  2. Add one line for it to the registry (platformtest/kits). A test in
//     internal/conformance fails while the registry and the provider's
//     Platforms() name different platforms; TestKitContract there holds the
//     kit to what suites rely on.
//
// Every suite that iterates the registry then runs on it, building the
// provider from the instance with conformance.Factories. Suites call
// Start (below), never a kit's Start directly: it checks what the kit gave
// and fails the test on the spec violations the fake recorded.

package platformtest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Kit is one platform the tests run on.
type Kit interface {
	// Name is the platform's name, as its Definition and provider block
	// give it ("docker", "e2b").
	Name() string
	// Start starts (or connects to) an isolated instance of the platform
	// for t: its own fake and names, nothing shared with another Start, all
	// of it cleaned up when t ends. A kit that cannot run here (no Docker
	// engine, no terraform) skips t saying what it needs.
	Start(t *testing.T, opts KitOptions) *Instance
}

// KitOptions are what a suite asks of an instance.
type KitOptions struct {
	// Owner is the provider block's owner (every object the provider makes
	// carries it, so a platform shared with other tests can still be asked
	// for this test's objects alone). Empty: the instance makes one up.
	Owner string
	// Pace is how fast the platform answers and settles: slow unless the
	// test asks for Instant, saying why.
	Pace Pace
	// Settings replace the kit's own choice of platform-block settings
	// that do not point at the instance (E2B's tier); "" leaves one out,
	// to the provider's default. A kit fails the test on a setting it
	// does not let a test choose (CheckSettings).
	Settings map[string]string
}

// CheckSettings fails t when opts sets a platform-block setting that the
// kit of platform does not let a test choose (choosable).
func (o KitOptions) CheckSettings(t *testing.T, platform string, choosable ...string) {
	t.Helper()
	for name := range o.Settings {
		if !slices.Contains(choosable, name) {
			t.Fatalf("%s: the kit does not let a test choose the setting %q (it chooses %v)", platform, name, choosable)
		}
	}
}

// Pace is how the platform's objects move between states. The zero value
// is the slow pace, as the services run: a new or changed object passes
// through its platform's transitional states for at least one read before
// it settles, and a list may not show it yet.
type Pace struct {
	instant bool
	why     string
}

// Instant is the pace of a fake that settles every object at once, for a
// test that needs it; why says what the test needs it for (Start fails a
// test that gives no reason). A kit of a real service (Docker) ignores it.
func Instant(why string) Pace { return Pace{instant: true, why: why} }

// IsInstant says the test asked for Instant.
func (p Pace) IsInstant() bool { return p.instant }

// Why is the reason the test gave for Instant.
func (p Pace) Why() string { return p.why }

// Instance is one started platform: everything a suite needs of it besides
// the provider factories, which the suite builds (this package must not
// import internal/provider) from Definition, Hooks and Clock:
//
//	provider.Options{Platforms: <Platforms() with Definition in its place>, Hooks: in.Hooks, Clock: in.Clock}
type Instance struct {
	// Name is the platform's name.
	Name string
	// Owner is the provider block's owner.
	Owner string
	// PlatformBlock is the platform's own block of the provider block
	// pointing at this instance ("  e2b {\n    api_key = ...\n  }\n"), with
	// inner lines added inside it. Empty for a platform the provider uses
	// by default (Docker) when there are no inner lines.
	PlatformBlock func(inner ...string) string
	// Env is the environment ("NAME=value") a CLI subprocess (terraform
	// with the provider binary, the orphans command) needs to reach this
	// instance with the platform block left empty: credentials, API URL.
	Env []string
	// Definition is the platform's Definition, its settings read from Env
	// where the production one has no environment variable for them (Fly's
	// api_url): the orphans command run in-process with it reaches this
	// instance.
	Definition platform.Definition
	// TestOnly says the provider does not register the platform (the
	// do-nothing platform): the suite adds Definition to the provider's
	// platforms instead of replacing one.
	TestOnly bool
	// Hooks are the waits of the platform's clients under test: they end
	// at once (and move Clock by what they wait, where the instance has a
	// clock of its own).
	Hooks platform.Hooks
	// Clock is the instance's clock where the provider must judge
	// retention deadlines on it (nil: the system clock).
	Clock interface{ Now() time.Time }
	// TemplateConfig returns the body attributes (including name) of an
	// sbx_template that builds on this platform and runs the quickstart
	// agent, which honours AGENT_FILES. Nil where the platform makes no
	// template: the scenarios that need a box skip, saying so.
	TemplateConfig func(name string) string
	// Capabilities is what the platform can do.
	Capabilities platform.Capabilities
	// ImportStateVerifyIgnore lists, per resource type ("sbx_template"),
	// attributes the platform cannot report back on import (inputs that
	// are consumed, not stored). `timeouts` is always ignored.
	ImportStateVerifyIgnore map[string][]string
	// OutOfBand acts on the platform behind Terraform's back.
	OutOfBand OutOfBand
	// SnapshotsHeldByRunningBoxes says a snapshot cannot be deleted while
	// a box restored from it runs (Docker: an image a running container
	// was made from cannot be removed); it can once the box is stopped.
	SnapshotsHeldByRunningBoxes bool
	// Objects lists the live objects the instance holds (every kind it can
	// list; a Fly template, a record in state only, is none), for orphan
	// and duplicate checks.
	Objects func(t *testing.T) []Object
	// Faults injects faults into the platform's answers; nil where the
	// platform cannot (Docker's engine is real).
	Faults Faults
	// FaultPlan says which requests each operation sends and how the
	// platform's client takes a fault: set exactly where Faults is.
	FaultPlan *FaultPlan
	// TemplatesInStateOnly says a template is a record in Terraform state
	// with nothing on the platform (Fly: an image reference): Objects
	// lists none, and the suites look for none.
	TemplatesInStateOnly bool
	// SpecViolations are the requests and responses that broke the
	// platform's spec or protocol so far; nil where nothing checks them
	// (a real service).
	SpecViolations func() []string
	// NamePrefix starts the names the suites give objects on this instance;
	// Start sets it (the kit's NamePrefix, else "tf-acc-").
	NamePrefix string
}

// ProviderBlock is the provider "sbx" block pointing at this instance: the
// owner, extra lines (provider-level attributes), then the platform block.
func (in *Instance) ProviderBlock(extra ...string) string {
	var b strings.Builder
	b.WriteString("provider \"sbx\" {\n")
	fmt.Fprintf(&b, "  owner = %q\n", in.Owner)
	for _, l := range extra {
		b.WriteString("  " + strings.TrimLeft(l, " ") + "\n")
	}
	b.WriteString(in.PlatformBlock())
	b.WriteString("}\n")
	return b.String()
}

// InnerLines renders lines inside a platform block (four spaces in), for
// kits' PlatformBlock.
func InnerLines(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString("    " + strings.TrimLeft(l, " ") + "\n")
	}
	return b.String()
}

// Object is an object a platform holds, as the platform (not the provider)
// reports it.
type Object struct {
	// Kind is one of the Kind* constants.
	Kind string
	ID   string
	// Name is the object's name on the platform ("" where it has none).
	Name string
	// Labels are its labels, tags or metadata, the provider's marks
	// (platform.LabelOwner, platform.LabelCreateToken) among them where the
	// platform stores them on this kind; nil where it stores none.
	Labels map[string]string
}

func (o Object) String() string {
	s := fmt.Sprintf("%s %s (name %q", o.Kind, o.ID, o.Name)
	if tok := o.Labels[platform.LabelCreateToken]; tok != "" {
		s += ", create token " + tok
	}
	return s + ")"
}

// FaultKind is one misbehaviour of a platform.
type FaultKind string

const (
	// FaultNone lets a request through untouched: queued between faults.
	FaultNone FaultKind = "none"
	// FaultRateLimit is a rate-limit answer with the platform's own retry
	// header (Retry-After, Daytona's Retry-After-{throttler}, Modal's
	// RPCRetryPolicy); the server did not act.
	FaultRateLimit FaultKind = "429"
	// FaultServerError and FaultUnavailable are server errors (500, 503 or
	// the RPC codes INTERNAL, UNAVAILABLE); the server did not act, but the
	// client cannot know that.
	FaultServerError FaultKind = "500"
	FaultUnavailable FaultKind = "503"
	// FaultDropBefore closes the connection before the server acted.
	FaultDropBefore FaultKind = "drop_before"
	// FaultDropAfter closes the connection after the server acted.
	FaultDropAfter FaultKind = "drop_after"
	// FaultLatency holds the request for Fault.Latency before the server
	// acts; a client that gives up meanwhile finds it unhandled.
	FaultLatency FaultKind = "latency"
	// FaultSlowAnswer lets the server act at once and holds its answer
	// for Fault.Latency: a client that gives up meanwhile loses the
	// answer, the change made (the window an interrupted apply lands in).
	FaultSlowAnswer FaultKind = "slow_answer"
)

// Fault is one fault queued on a route.
type Fault struct {
	Kind FaultKind
	// Times is how many requests it hits; 0 means once.
	Times int
	// Latency is how long FaultLatency holds a request, or FaultSlowAnswer
	// an answer.
	Latency time.Duration
	// SparesRetry lets a request through when the same request (a
	// client's retry of it) drew a fault last time; the fault waits for
	// the next request. A retry then never meets two faults in a row,
	// however concurrent requests interleave on the route's queue.
	SparesRetry bool
}

// Faults reaches into a fake's answers. Routes are the fake's own: REST
// routes as the platform's spec writes them ("POST /sandboxes",
// "GET /apps/{app_name}/machines/{machine_id}"), RPC methods for Modal
// ("SandboxCreateV2").
type Faults interface {
	// Inject queues f on route, after what is queued there.
	Inject(route string, f Fault)
	// Hits counts the requests route received, faulted ones included.
	Hits(route string) int
}

// Foreign is an object made outside the provider, as another client (the
// platform's CLI, console or SDK) would make it: none of the provider's
// marks unless Labels give them.
type Foreign struct {
	// Kind is KindTemplate, KindVolume, KindSandbox or KindSnapshot.
	Kind string
	// Name is its name (a volume's, a sandbox's).
	Name string
	// Labels are set where the platform stores labels on the kind.
	Labels map[string]string
	// SourceID is what a snapshot is taken of (a sandbox or a volume, as
	// the platform snapshots), what a sandbox starts from (a template or
	// image id; "" for the platform's default where it has one), or the
	// image a template adopts.
	SourceID string
}

// Start starts kit's instance for t, checks that the kit filled in what
// every suite relies on, and fails t when it ends if the fake recorded any
// request or response that broke the platform's spec. Suites call this,
// not kit.Start.
func Start(t *testing.T, kit Kit, opts KitOptions) *Instance {
	t.Helper()
	if opts.Pace.IsInstant() && strings.TrimSpace(opts.Pace.Why()) == "" {
		t.Fatalf("%s: the test asks for an instant platform without saying why (platformtest.Instant(why))", kit.Name())
	}
	if opts.Owner == "" {
		prefix := "kit-"
		if p, ok := kit.(OwnerPrefixer); ok {
			prefix = p.OwnerPrefix()
		}
		opts.Owner = prefix + sdkacctest.RandStringFromCharSet(10, "abcdefghijklmnopqrstuvwxyz0123456789")
	}
	in := kit.Start(t, opts)
	if in == nil {
		t.Fatalf("%s: the kit started no instance", kit.Name())
		return nil
	}
	in.NamePrefix = defaultNamePrefix
	if p, ok := kit.(NamePrefixer); ok {
		in.NamePrefix = p.NamePrefix()
	}
	var missing []string
	for what, gone := range map[string]bool{
		"Name": in.Name != kit.Name(), "Owner": in.Owner != opts.Owner, "PlatformBlock": in.PlatformBlock == nil,
		"Definition": in.Definition.Name != kit.Name(), "OutOfBand": in.OutOfBand == nil, "Objects": in.Objects == nil,
	} {
		if gone {
			missing = append(missing, what)
		}
	}
	if (in.Faults == nil) != (in.FaultPlan == nil) {
		missing = append(missing, "FaultPlan (set exactly where Faults is)")
	}
	if len(missing) > 0 {
		t.Fatalf("%s: the kit's instance lacks or gets wrong %s", kit.Name(), strings.Join(missing, ", "))
	}
	if in.SpecViolations != nil {
		t.Cleanup(func() {
			if v := in.SpecViolations(); len(v) > 0 {
				t.Errorf("requests or responses broke %s's spec or protocol:\n%s", in.Name, strings.Join(v, "\n"))
			}
		})
	}
	return in
}
