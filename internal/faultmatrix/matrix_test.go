package faultmatrix_test

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// op is one of a resource's operations, as Terraform runs it.
type op string

const (
	opCreate op = "create"
	opRead   op = "read"
	opUpdate op = "update"
	opDelete op = "delete"
)

var ops = []op{opCreate, opRead, opUpdate, opDelete}

// fault is one misbehaviour of a platform, injected on the request (or
// RPC) an operation sends.
type fault string

const (
	// fault429 is a rate limit answer with the platform's retry header
	// (Retry-After, Daytona's Retry-After-{throttler}, Modal's
	// RPCRetryPolicy): the server did not act.
	fault429 fault = "429"
	// fault500 and fault503 are server errors: the server did not act,
	// but the client cannot know that.
	fault500 fault = "500"
	fault503 fault = "503"
	// faultDropBefore closes the connection before the server acted.
	faultDropBefore fault = "drop_before"
	// faultDropAfter closes the connection after the server acted.
	faultDropAfter fault = "drop_after"
	// faultLatency holds the request past the operation's timeout (the
	// resource's timeouts block, rowTimeout): the client gives up and the
	// server never acts.
	faultLatency fault = "latency"
)

// faultNone lets a request through untouched: the random run queues it
// between faults.
const faultNone fault = "none"

var faults = []fault{fault429, fault500, fault503, faultDropBefore, faultDropAfter, faultLatency}

const (
	// rowTimeout is the operation's timeout in a latency row.
	rowTimeout = "3s"
	// injectedLatency holds a request this long at most; the client,
	// whose timeout is rowTimeout, gives up long before.
	injectedLatency = 2 * time.Minute
)

// kind is one resource type as a platform's matrix applies it.
type kind struct {
	// name is the kind as the provider's attribute tables call it
	// (volume, template, sandbox, snapshot).
	name string
	// deps is the HCL of the resources it needs; their requests are not
	// faulted.
	deps string
	// hcl is the resource's HCL, its in-place change when updated;
	// timeouts is a timeouts block to put in it (or "").
	hcl func(updated bool, timeouts string) string
	// routes are the requests (the fake's routes, or Modal RPC methods)
	// each operation's faults hit; an operation without one is not
	// applicable, for the reason in why.
	routes map[op]string
	why    map[op]string
	// kept says the platform cannot delete the object: destroy forgets it
	// and the fake keeps it, so only the state's objects are looked for.
	kept bool
}

// resType is the kind's resource type.
func (k kind) resType() string { return "sbx_" + k.name }

// env is one test's fake and the provider pointed at it.
type env interface {
	providerBlock() string
	factories() map[string]func() (tfprotov6.ProviderServer, error)
	// inject queues f on route for the next n requests.
	inject(route string, f fault, n int)
	// hits counts the requests route received, faulted ones included.
	hits(route string) int
	// holds checks that the fake holds exactly the objects of k whose ids
	// the state holds: none missing, none more (no orphan, no duplicate).
	holds(k kind, stateIDs []string) error
}

// target is one platform's side of the matrix.
type target interface {
	name() string
	// start starts a fake of the platform for t; its cleanup fails t on
	// any request that broke the platform's spec or protocol.
	start(t *testing.T) env
	kinds() []kind
	// cannot says why the fake cannot inject f on route ("" when it can).
	cannot(route string, f fault) string
	// expect is what the row of k, o and f must see.
	expect(k kind, o op, f fault) outcome
}

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
// the object may exist and was not made twice (platform.LostCreateError),
// the request may have taken effect (rest.ErrMaybeApplied), or the
// operation's timeout passed; each leaves state and platform so that the
// next apply finishes the job.
var retrySafeError = acctest.ErrorPattern(`(may have been made|may have reached the server and taken effect|context deadline exceeded)`)

// expectREST is the rule of the REST client (internal/rest) and the lost
// create lookups (platform.FindLost): a 429 is retried on any request;
// 5xx and lost connections only on idempotent ones; a non-idempotent
// request that may have acted fails with ErrMaybeApplied, except a create,
// whose object is looked up by its create token: found (the server acted)
// it is adopted, not found the create fails saying so and is not sent
// again. A request past its timeout fails.
func expectREST(route string, o op, f fault) outcome {
	method, _, _ := strings.Cut(route, " ")
	idempotent := method != http.MethodPost && method != http.MethodPatch
	switch {
	case f == fault429:
		return converges
	case f == faultLatency:
		return retrySafe("the operation's timeout passes while the request is held")
	case idempotent:
		return converges
	case o == opCreate && f == faultDropAfter:
		return converges
	case o == opCreate:
		return retrySafe("the create may have acted; the lookup by create token finds nothing and the create is not sent again")
	default:
		return retrySafe("the request may have acted (rest.ErrMaybeApplied)")
	}
}

// emptyAfterApply: once applied and refreshed, the configuration plans
// nothing.
var emptyAfterApply = resource.ConfigPlanChecks{
	PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
}

// timeoutsBlock is a timeouts block setting o's timeout to rowTimeout.
func timeoutsBlock(o op) string {
	return fmt.Sprintf("\n  timeouts {\n    %s = %q\n  }\n", o, rowTimeout)
}

// stateIDs are the ids of the resources of type typ in the state.
func stateIDs(s *terraform.State, typ string) []string {
	var ids []string
	for _, rs := range s.RootModule().Resources {
		if rs.Type == typ && rs.Primary != nil && rs.Primary.ID != "" {
			ids = append(ids, rs.Primary.ID)
		}
	}
	sort.Strings(ids)
	return ids
}

// holdsState checks, for every kind of tg, that the fake holds exactly the
// objects the state holds.
func holdsState(e env, kinds []kind) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		var problems []string
		for _, k := range kinds {
			if err := e.holds(k, stateIDs(s, k.resType())); err != nil {
				problems = append(problems, err.Error())
			}
		}
		if len(problems) > 0 {
			return fmt.Errorf("the fake and the state disagree:\n%s", strings.Join(problems, "\n"))
		}
		return nil
	}
}

// holdsNothing is a CheckDestroy: after destroy the fake holds no object
// of the kinds it can delete.
func holdsNothing(e env, kinds []kind) resource.TestCheckFunc {
	return func(*terraform.State) error {
		var problems []string
		for _, k := range kinds {
			if k.kept {
				continue
			}
			if err := e.holds(k, nil); err != nil {
				problems = append(problems, err.Error())
			}
		}
		if len(problems) > 0 {
			return fmt.Errorf("after destroy:\n%s", strings.Join(problems, "\n"))
		}
		return nil
	}
}

// compareIDs says how the fake's live objects of k differ from the
// state's: orphans (the fake's, not in state), duplicates (an id twice)
// and missing ones (in state, not on the fake).
func compareIDs(k kind, live, inState []string) error {
	var problems []string
	seen := map[string]int{}
	for _, id := range live {
		seen[id]++
	}
	for _, id := range inState {
		if seen[id] == 0 {
			problems = append(problems, fmt.Sprintf("%s %s is in the state but not on the platform", k.name, id))
		}
	}
	for id, n := range seen {
		switch {
		case n > 1:
			problems = append(problems, fmt.Sprintf("%s %s is on the platform %d times (duplicate)", k.name, id, n))
		case !slices.Contains(inState, id) && !k.kept:
			problems = append(problems, fmt.Sprintf("%s %s is on the platform but in no state (orphan)", k.name, id))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	return fmt.Errorf("%s", strings.Join(problems, "\n"))
}

// TestFaultMatrix runs one row per platform, resource, operation and
// fault. A row the platform or its fake cannot have is skipped saying why.
func TestFaultMatrix(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	for _, tg := range targets() {
		t.Run(tg.name(), func(t *testing.T) {
			t.Parallel()
			for _, k := range tg.kinds() {
				t.Run(k.name, func(t *testing.T) {
					t.Parallel()
					for _, o := range ops {
						t.Run(string(o), func(t *testing.T) {
							t.Parallel()
							for _, f := range faults {
								t.Run(string(f), func(t *testing.T) {
									t.Parallel()
									runRow(t, tg, k, o, f)
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
func notApplicable(tg target, k kind, o op, f fault) string {
	route, ok := k.routes[o]
	if !ok {
		return k.why[o]
	}
	if f == faultLatency && o == opRead {
		return "reads have no timeout (the timeouts block has create, update and delete): a held read is waited out, not given up"
	}
	return tg.cannot(route, f)
}

// runRow applies the row's configuration with f injected on the request
// o sends, and checks what the row's outcome says, that the fault was
// hit, that the fake holds what the state holds, that the next plan is
// empty, and, after destroy, that the fake holds nothing the state held.
func runRow(t *testing.T, tg target, k kind, o op, f fault) {
	if why := notApplicable(tg, k, o, f); why != "" {
		t.Skip("not applicable: " + why)
	}
	e := tg.start(t)
	route := k.routes[o]
	timeouts := ""
	if f == faultLatency {
		timeouts = timeoutsBlock(o)
	}
	base := e.providerBlock() + k.deps + k.hcl(false, timeouts)
	faulted := base
	switch o {
	case opUpdate:
		faulted = e.providerBlock() + k.deps + k.hcl(true, timeouts)
	case opDelete:
		faulted = e.providerBlock() + k.deps
	}
	kinds := tg.kinds()
	holds := holdsState(e, kinds)
	var steps []resource.TestStep
	if o != opCreate {
		steps = append(steps, resource.TestStep{Config: base, ConfigPlanChecks: emptyAfterApply, Check: holds})
	}
	before := 0
	inject := func() {
		before = e.hits(route)
		e.inject(route, f, 1)
	}
	hit := func(*terraform.State) error {
		if e.hits(route) <= before {
			return fmt.Errorf("the %s fault on %s was never hit: the row tests nothing", f, route)
		}
		return nil
	}
	// A read row refreshes: the refresh, the plan after it and its checks.
	step := func() resource.TestStep {
		if o == opRead {
			return resource.TestStep{RefreshState: true, RefreshPlanChecks: resource.RefreshPlanChecks{
				PostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			}}
		}
		return resource.TestStep{Config: faulted, ConfigPlanChecks: emptyAfterApply}
	}
	first := step()
	first.PreConfig = inject
	want := tg.expect(k, o, f)
	if want.converges {
		first.Check = resource.ComposeAggregateTestCheckFunc(hit, holds)
		steps = append(steps, first)
	} else {
		t.Logf("expects an error saying it is safe to apply again, then convergence: %s", want.why)
		first.ExpectError = retrySafeError
		first.ConfigPlanChecks, first.RefreshPlanChecks = resource.ConfigPlanChecks{}, resource.RefreshPlanChecks{}
		retry := step()
		retry.Check = resource.ComposeAggregateTestCheckFunc(hit, holds)
		steps = append(steps, first, retry)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps:                    steps,
		CheckDestroy:             holdsNothing(e, kinds),
	})
}

// failOnSpecViolations fails t, when it ends, with every request or answer
// the fake of the platform titled title found breaking its spec.
func failOnSpecViolations(t *testing.T, title string, violations func() []string) {
	t.Cleanup(func() {
		if v := violations(); len(v) > 0 {
			t.Errorf("requests or responses broke the %s spec:\n%s", title, strings.Join(v, "\n"))
		}
	})
}
