package platformtest

import (
	"fmt"
	"strings"
)

// Op is one of a resource's operations, as Terraform runs it.
type Op string

// The operations.
const (
	OpCreate Op = "create"
	OpRead   Op = "read"
	OpUpdate Op = "update"
	OpDelete Op = "delete"
)

// Ops are the operations, in the order a resource meets them.
var Ops = []Op{OpCreate, OpRead, OpUpdate, OpDelete}

// FaultPlan is what the suites that inject faults (the fault matrix, the
// crash test, the bad-input table's "nothing reached the platform") need
// to know of a platform whose Faults are set: which request each
// operation of each resource sends, and how the platform's client takes a
// fault. It is the platform's data; the rules that read it are the suites'.
type FaultPlan struct {
	// Kinds are the resource kinds as the fault matrix applies them, one
	// each (KindVolume, KindTemplate, KindSandbox, KindSnapshot).
	Kinds []FaultTarget
	// Client is how the platform's client takes a fault.
	Client ClientRule
	// Repeatable are non-idempotent routes (POST) the client sends again
	// after a server error or a lost connection as if they were a PUT,
	// because sending them twice does what sending them once does (Fly's
	// machine update posts the whole config).
	Repeatable []string
	// CreatesResent: a create whose answer was lost and whose object the
	// lookup by create token does not find is sent again, because the
	// platform refuses a second object of a name (a first create that did
	// land is then refused as taken, and found): every create converges.
	CreatesResent bool
	// Makes are the routes of every request that makes or builds an
	// object (the creates of Kinds and the others: restores, rebuilds,
	// the older RPC versions), for a check that a refused configuration
	// reached nothing.
	Makes []string
	// Random is the fault matrix's run of many objects under seeded
	// random faults; nil where the platform has none.
	Random *RandomRun
}

// ClientRule is how a platform's client takes a fault.
type ClientRule string

const (
	// ClientREST is the REST client (internal/rest) and its lost-create
	// lookups (lostcreate.Find): a 429 is retried on any request; 5xx
	// and lost connections only on idempotent ones; a non-idempotent
	// request that may have acted fails with rest.ErrMaybeApplied, except
	// a create, whose object is looked up by its create token: found (the
	// server acted) it is adopted, not found the create fails saying so
	// and is not sent again. A request held past its timeout fails.
	ClientREST ClientRule = "rest"
	// ClientRetriesAll is an SDK that absorbs every fault but one held
	// past the operation's timeout (Modal's: it waits out throttling as
	// asked and retries server errors and lost answers with the first
	// call's idempotency key, which the server answers with the first
	// answer).
	ClientRetriesAll ClientRule = "retries-all"
)

// FaultTarget is one resource kind as the fault matrix applies it on a
// platform.
type FaultTarget struct {
	// Kind is KindVolume, KindTemplate, KindSandbox or KindSnapshot; the
	// resource type is "sbx_" + Kind.
	Kind string
	// Deps is the HCL of the resources it needs; their requests are not
	// faulted.
	Deps string
	// HCL is the resource's HCL, changed in place when updated; timeouts
	// is a timeouts block to put in it (or "").
	HCL func(updated bool, timeouts string) string
	// Routes are the requests (the fake's routes, or Modal RPC methods)
	// each operation's faults hit; an operation without one is not
	// applicable, for the reason in Why.
	Routes map[Op]string
	Why    map[Op]string
	// Kept says the platform cannot delete the object: destroy forgets it
	// and the platform keeps it, so only the state's objects are looked for.
	Kept bool
}

// RandomRun is what the fault matrix's random run applies on a platform:
// Count objects of one kind (a cheap one), whose requests go through
// Routes.
type RandomRun struct {
	// Kind is the kind of the objects (one of the plan's Kinds).
	Kind string
	// HCL is count objects of the kind.
	HCL func(count int) string
	// Routes are the requests the run faults.
	Routes []string
	// Faults, when set, are the faults drawn on every route instead of
	// those a retry absorbs there by the plan's Client rule; Why says why.
	Faults []FaultKind
	Why    string
}

// Target is the plan's FaultTarget of kind.
func (p *FaultPlan) Target(kind string) (FaultTarget, bool) {
	for _, k := range p.Kinds {
		if k.Kind == kind {
			return k, true
		}
	}
	return FaultTarget{}, false
}

// CountedVolumes is a RandomRun's HCL: count volumes named
// <prefix>_<index>, with extra lines in each.
func CountedVolumes(prefix, extra string) func(count int) string {
	return func(count int) string {
		return fmt.Sprintf("resource \"sbx_volume\" \"v\" {\n  count = %d\n  name  = \"%s_${count.index}\"\n%s}\n", count, prefix, extra)
	}
}

// ResourceHCL is a FaultTarget's HCL: resource typ "name" whose body is
// format with before in place of its %s (after, once updated), then the
// timeouts block. A body with no %s is the same updated or not.
func ResourceHCL(typ, name, format, before, after string) func(updated bool, timeouts string) string {
	return func(updated bool, timeouts string) string {
		v := before
		if updated {
			v = after
		}
		body := format
		if strings.Contains(format, "%s") {
			body = fmt.Sprintf(format, v)
		}
		return fmt.Sprintf("resource %q %q {\n%s\n%s}\n", typ, name, body, timeouts)
	}
}
