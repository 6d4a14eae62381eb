package faultmatrix_test

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/conformance"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/kits"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

// faults are the faults each cell injects, one per row.
var faults = []platformtest.FaultKind{
	platformtest.FaultRateLimit, platformtest.FaultServerError, platformtest.FaultUnavailable,
	platformtest.FaultDropBefore, platformtest.FaultDropAfter, platformtest.FaultLatency,
}

const (
	// rowTimeout is the operation's timeout in a latency row.
	rowTimeout = "3s"
	// injectedLatency holds a request this long at most; the client,
	// whose timeout is rowTimeout, gives up long before.
	injectedLatency = 2 * time.Minute
)

// resType is the resource type of a kind.
func resType(kind string) string { return "sbx_" + kind }

// outcome is what a row must see: the apply converges at once, or it
// fails with an error saying it is safe to apply again, and the next
// apply converges.
type outcome struct {
	converges bool
	// why says why the first apply cannot converge.
	why string
}

var converges = outcome{converges: true}

func retrySafe(why string) outcome { return outcome{why: why} }

// retrySafeError is what an apply that cannot converge at once must say:
// the object may exist and was not made twice (lostcreate.Error),
// the request may have taken effect (rest.ErrMaybeApplied), or the
// operation's timeout passed; each leaves state and platform so that the
// next apply finishes the job.
var retrySafeError = acctest.ErrorPattern(`(may have been made|may have reached the server and taken effect|context deadline exceeded)`)

// expect is what the row of k, o and f must see on a platform whose
// client takes faults as plan says (platformtest.ClientRule).
func expect(plan *platformtest.FaultPlan, k platformtest.FaultTarget, o platformtest.Op, f platformtest.FaultKind) outcome {
	route := k.Routes[o]
	if plan.Client == platformtest.ClientRetriesAll {
		if f == platformtest.FaultLatency {
			return retrySafe("the operation's timeout passes while the call is held in front of the platform's handler")
		}
		return converges
	}
	if f != platformtest.FaultLatency && (slices.Contains(plan.Repeatable, route) || (o == platformtest.OpCreate && plan.CreatesResent)) {
		return converges
	}
	return expectREST(route, o, f)
}

// expectREST is the rule of the REST client (internal/rest) and the lost
// create lookups (lostcreate.Find): a 429 is retried on any request;
// 5xx and lost connections only on idempotent ones; a non-idempotent
// request that may have acted fails with ErrMaybeApplied, except a create,
// whose object is looked up by its create token: found (the server acted)
// it is adopted, not found the create fails saying so and is not sent
// again. A request past its timeout fails.
func expectREST(route string, o platformtest.Op, f platformtest.FaultKind) outcome {
	method, _, _ := strings.Cut(route, " ")
	idempotent := method != http.MethodPost && method != http.MethodPatch
	switch {
	case f == platformtest.FaultRateLimit:
		return converges
	case f == platformtest.FaultLatency:
		return retrySafe("the operation's timeout passes while the request is held")
	case idempotent:
		return converges
	case o == platformtest.OpCreate && f == platformtest.FaultDropAfter:
		return converges
	case o == platformtest.OpCreate:
		return retrySafe("the create may have acted; the lookup by create token finds nothing and the create is not sent again")
	default:
		return retrySafe("the request may have acted (rest.ErrMaybeApplied)")
	}
}

// timeoutsBlock is a timeouts block setting o's timeout to rowTimeout.
func timeoutsBlock(o platformtest.Op) string {
	return fmt.Sprintf("\n  timeouts {\n    %s = %q\n  }\n", o, rowTimeout)
}

// withDefaultTimeouts makes the retry of a latency row run with the
// timeouts a user has who sets none: the row's short timeout exists only
// to make the held call give up, and left on the retry it would fail a
// machine slower than the fake's slow path. A create or an update takes
// its timeout from the configuration, so the row's configuration is
// written again without the block; a delete takes it from the state, so
// the resource, which the held delete left in place (a request given up
// while held is never handled), is first applied again without the block,
// and the next apply removes it. The fault hit once and is spent.
func withDefaultTimeouts(t *testing.T, w *acctest.OtherState, in *platformtest.Instance, k platformtest.FaultTarget, o platformtest.Op) {
	t.Helper()
	switch o {
	case platformtest.OpCreate:
		w.WriteFile("main.tf", in.ProviderBlock()+k.Deps+k.HCL(false, ""))
	case platformtest.OpUpdate:
		w.WriteFile("main.tf", in.ProviderBlock()+k.Deps+k.HCL(true, ""))
	case platformtest.OpDelete:
		w.WriteFile("main.tf", in.ProviderBlock()+k.Deps+k.HCL(false, ""))
		w.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
		w.WriteFile("main.tf", in.ProviderBlock()+k.Deps)
	}
}

// holds checks that the platform holds exactly the objects of k whose ids
// the state holds: none missing, none more (no orphan, no duplicate). A
// template that is a record in state only has nothing to look for.
func holds(t *testing.T, in *platformtest.Instance, k platformtest.FaultTarget, inState []string) error {
	if k.Kind == platformtest.KindTemplate && in.TemplatesInStateOnly {
		return nil
	}
	var live []string
	for _, o := range in.Objects(t) {
		if o.Kind == k.Kind {
			live = append(live, o.ID)
		}
	}
	return compareIDs(k, live, inState)
}

// holdsState checks, for every kind of the plan, that the platform holds
// exactly the objects the state holds.
func holdsState(t *testing.T, in *platformtest.Instance, kinds []platformtest.FaultTarget, w *acctest.OtherState) error {
	var problems []string
	for _, k := range kinds {
		if err := holds(t, in, k, w.StateIDs(resType(k.Kind))); err != nil {
			problems = append(problems, err.Error())
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("the fake and the state disagree:\n%s", strings.Join(problems, "\n"))
	}
	return nil
}

// holdsNothing checks that after destroy the platform holds no object of
// the kinds it can delete.
func holdsNothing(t *testing.T, in *platformtest.Instance, kinds []platformtest.FaultTarget) error {
	var problems []string
	for _, k := range kinds {
		if k.Kept {
			continue
		}
		if err := holds(t, in, k, nil); err != nil {
			problems = append(problems, err.Error())
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("after destroy:\n%s", strings.Join(problems, "\n"))
	}
	return nil
}

// compareIDs says how the platform's live objects of k differ from the
// state's: orphans (the platform's, not in state), duplicates (an id
// twice) and missing ones (in state, not on the platform).
func compareIDs(k platformtest.FaultTarget, live, inState []string) error {
	var problems []string
	seen := map[string]int{}
	for _, id := range live {
		seen[id]++
	}
	for _, id := range inState {
		if seen[id] == 0 {
			problems = append(problems, fmt.Sprintf("%s %s is in the state but not on the platform", k.Kind, id))
		}
	}
	for id, n := range seen {
		switch {
		case n > 1:
			problems = append(problems, fmt.Sprintf("%s %s is on the platform %d times (duplicate)", k.Kind, id, n))
		case !slices.Contains(inState, id) && !k.Kept:
			problems = append(problems, fmt.Sprintf("%s %s is on the platform but in no state (orphan)", k.Kind, id))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	return fmt.Errorf("%s", strings.Join(problems, "\n"))
}

// planOf starts an instance of the kit to read its fault plan, and skips
// t, saying why, where the kit cannot inject faults.
func planOf(t *testing.T, kit platformtest.Kit) *platformtest.FaultPlan {
	t.Helper()
	in := platformtest.Start(t, kit, platformtest.KitOptions{})
	if in.Faults == nil {
		t.Skipf("%s: the kit cannot inject faults (its Faults is nil: the platform answers for itself, as Docker's real engine, "+
			"or makes nothing, as the do-nothing platform)", in.Name)
	}
	return in.FaultPlan
}

// TestFaultMatrix runs one row per platform of the registry, resource,
// operation and fault. A row the platform or its fake cannot have is
// skipped saying why; so is a platform whose kit cannot inject faults.
func TestFaultMatrix(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	for _, e := range kits.All() {
		t.Run(e.Kit.Name(), func(t *testing.T) {
			t.Parallel()
			plan := planOf(t, e.Kit)
			for _, k := range plan.Kinds {
				t.Run(k.Kind, func(t *testing.T) {
					t.Parallel()
					for _, o := range platformtest.Ops {
						t.Run(string(o), func(t *testing.T) {
							t.Parallel()
							for _, f := range faults {
								t.Run(string(f), func(t *testing.T) {
									t.Parallel()
									runRow(t, e.Kit, plan, k, o, f)
								})
							}
						})
					}
				})
			}
		})
	}
}

// notApplicable says why the row of k, o and f cannot exist ("" when it
// can).
func notApplicable(k platformtest.FaultTarget, o platformtest.Op, f platformtest.FaultKind) string {
	if _, ok := k.Routes[o]; !ok {
		return k.Why[o]
	}
	if f == platformtest.FaultLatency && o == platformtest.OpRead {
		return "reads have no timeout (the timeouts block has create, update and delete): a held read is waited out, not given up"
	}
	return ""
}

// runRow starts an instance of kit (whose fault plan is plan), applies
// the row's configuration with f injected on the request o sends to k, and
// checks what the row's outcome says, that the fault was hit, that the
// platform holds what the state holds, that the next plan is empty, and,
// after destroy, that the platform holds nothing the state held.
//
// The row drives the terraform CLI itself, with the provider served in
// the test process: six or seven commands where a plugin-testing case of
// the same steps runs about twenty (a show after each, a version, a plan
// before each apply), with the same checks. The matrix has hundreds of
// rows, so that is most of its time.
func runRow(t *testing.T, kit platformtest.Kit, plan *platformtest.FaultPlan, k platformtest.FaultTarget, o platformtest.Op, f platformtest.FaultKind) {
	if why := notApplicable(k, o, f); why != "" {
		t.Skip("not applicable: " + why)
	}
	in := platformtest.Start(t, kit, platformtest.KitOptions{})
	route := k.Routes[o]
	timeouts := ""
	if f == platformtest.FaultLatency {
		timeouts = timeoutsBlock(o)
	}
	base := in.ProviderBlock() + k.Deps + k.HCL(false, timeouts)
	faulted := base
	switch o {
	case platformtest.OpUpdate:
		faulted = in.ProviderBlock() + k.Deps + k.HCL(true, timeouts)
	case platformtest.OpDelete:
		faulted = in.ProviderBlock() + k.Deps
	}
	w := acctest.NewOtherState(t, provider.NewWithOptions("test", conformance.Options(in)))
	w.WriteFile("main.tf", base)
	w.MustRun("init", "-input=false", "-no-color")
	converged := func(step string) {
		t.Helper()
		if err := holdsState(t, in, plan.Kinds, w); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if out, err := w.Run("plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
			t.Fatalf("%s: the next plan is not empty (%v):\n%s", step, err, out)
		}
	}
	if o != platformtest.OpCreate {
		w.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
		converged("the apply before the fault")
	}

	before := in.Faults.Hits(route)
	in.Faults.Inject(route, platformtest.Fault{Kind: f, Times: 1, Latency: injectedLatency})
	// A read row refreshes; the others apply the row's configuration.
	args := []string{"apply", "-auto-approve", "-input=false", "-no-color"}
	if o == platformtest.OpRead {
		args = append(args, "-refresh-only")
	} else {
		w.WriteFile("main.tf", faulted)
	}
	want := expect(plan, k, o, f)
	out, err := w.Run(args...)
	if !want.converges {
		t.Logf("expects an error saying it is safe to apply again, then convergence: %s", want.why)
		if err == nil || !retrySafeError.MatchString(out) {
			t.Fatalf("the faulted %s: %v, want a failure matching %s:\n%s", o, err, retrySafeError, out)
		}
		if f == platformtest.FaultLatency {
			withDefaultTimeouts(t, w, in, k, o)
		}
		out, err = w.Run(args...)
	}
	if err != nil {
		t.Fatalf("the %s with a %s fault did not converge: %v\n%s", o, f, err, out)
	}
	if in.Faults.Hits(route) <= before {
		t.Fatalf("the %s fault on %s was never hit: the row tests nothing", f, route)
	}
	converged("the faulted " + string(o))

	w.MustRun("destroy", "-auto-approve", "-input=false", "-no-color")
	if err := holdsNothing(t, in, plan.Kinds); err != nil {
		t.Fatal(err)
	}
}
