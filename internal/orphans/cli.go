package orphans

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/cliutil"
	"github.com/sbxhq/terraform-provider-sbx/internal/duration"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/statesource"
)

// Exit codes of the orphans command.
const (
	ExitClean   = 0 // no orphans
	ExitError   = 1 // bad flags or input, platform unreachable, a removal failed
	ExitOrphans = 2 // orphans found (listed, or all removed with --delete)
)

const usage = `Usage: terraform-provider-sbx orphans [flags] [STATE...]
       terraform-provider-sbx orphans [flags] --backend TYPE [--backend-config KEY=VALUE...]

Lists the objects the provider made on a platform that no Terraform state
holds, such as the boxes an apply killed mid-create left behind; with
--delete, removes them.

An object is the provider's when it carries the label
sbx.terraform.managed=true, and an owner's when its sbx.terraform.owner
label is that owner (the provider block's owner attribute). It is held when
a state records its id. An object held by any of the states is not an
orphan: give every state that manages objects of the owner on the platform.

STATE is a file written by 'terraform state pull', a .tfstate file, or the
output of 'terraform show -json'; '-' reads standard input. Give at least
one, as an argument or with --state:

  terraform state pull | terraform-provider-sbx orphans --owner ci -
  terraform-provider-sbx orphans --owner ci --state a.tfstate --state b.tfstate

--backend reads every workspace's state straight from a Terraform backend,
read-only and without taking a state lock; a workspace that cannot be read
is an error naming it, never an empty state:

` + statesource.Usage + `
  PG_CONN_STR=postgres://… terraform-provider-sbx orphans --owner ci --backend pg --delete

Credentials and hosts come from the environment, as the provider reads
them: DOCKER_HOST (with DOCKER_TLS_VERIFY, DOCKER_CERT_PATH) for docker,
E2B_API_KEY and E2B_API_URL for e2b. E2B templates, volumes and snapshots
carry no labels: on e2b only sandboxes are checked, and the report says so.

Without --owner every object the provider made is considered, whatever its
owner (other teams' and pipelines' too). With --owner, only the objects
carrying that owner; objects with no owner label are no owner's
(--owner= selects them). With --owner-prefix, the objects of every owner
starting with it (the live acceptance tests' owners start with sbx-live-).

--delete deletes only what is an orphan of every state: it needs the
states read from a --backend (all its workspaces), or --all-states to say
the states given are every state of the owner; and an owner filter
(--owner, --owner-prefix; --owner= for the objects with no owner), so one
run never deletes every team's objects. The report says how many
workspaces and resources it read; run without --delete first.

--delete removes sandboxes, then snapshots, then volumes, then templates.
An object already gone is fine; one still in use is not forced. Objects no
state holds but something that stays uses are kept and listed as such.
Do not delete while an apply of the same owner runs: what it is creating is
in no state yet (--older-than 1h leaves recent objects alone).

Exit status: 0 no orphans; 2 orphans found (listed, or all removed with
--delete); 1 bad flags or input, the platform unreachable, or an orphan
that could not be removed.

Flags:
`

// Env is what the command reads and writes besides its arguments.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Getenv reads the platform settings (DOCKER_HOST, E2B_API_KEY, ...).
	Getenv func(string) string
	// Now is the time --older-than counts back from (nil: the system clock).
	Now func() time.Time
	// Version goes into the platforms' user agent.
	Version string
	// Platforms are the platforms --platform may name: the provider's
	// (platforms.All()), built from the environment as the provider
	// builds them from an empty block.
	Platforms []platform.Definition
}

type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// Main runs the orphans command with args (after "orphans") and returns
// its exit code.
func Main(ctx context.Context, args []string, env Env) int {
	stderr := env.Stderr
	fs := flag.NewFlagSet("orphans", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		_, _ = fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	platformName := fs.String("platform", defaultPlatform(env.Platforms), "the platform to check: "+platformNames(env.Platforms))
	owner := fs.String("owner", "", "consider only objects carrying this owner (the provider block's owner); default: every owner")
	ownerPrefix := fs.String("owner-prefix", "", "consider only objects whose owner starts with this (instead of --owner)")
	var states stringList
	fs.Var(&states, "state", "a state file (repeatable; - reads standard input); states may also be given as arguments")
	del := fs.Bool("delete", false, "remove the orphans found (needs --backend or --all-states, and --owner or --owner-prefix)")
	allStates := fs.Bool("all-states", false, "the states given are every state that holds objects in scope (lets --delete run without --backend)")
	backend := statesource.RegisterFlags(fs)
	format := fs.String("format", "table", "output format: table or json")
	olderThan := fs.String("older-than", "0", "leave objects made less than this long ago alone (Go duration, or days such as 2d)")

	positional, err := cliutil.ParseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return ExitClean
	}
	if err != nil {
		return fail(stderr, "%v", err) // the flag package already printed the usage
	}
	states = append(states, positional...)
	ownerSet, prefixSet := false, false
	fs.Visit(func(f *flag.Flag) {
		ownerSet = ownerSet || f.Name == "owner"
		prefixSet = prefixSet || f.Name == "owner-prefix"
	})

	switch {
	case len(states) == 0 && !backend.Set():
		fs.Usage()
		return fail(stderr, "no state given: give the state files that hold the objects (- reads standard input), or read a backend's with --backend; "+
			"without one every object would be an orphan")
	case countOf(states, "-") > 1:
		return fail(stderr, "- (standard input) is given %d times; it can be read once", countOf(states, "-"))
	case ownerSet && prefixSet:
		return fail(stderr, "--owner and --owner-prefix are given together; give one")
	case prefixSet && *ownerPrefix == "":
		return fail(stderr, "invalid --owner-prefix \"\": give the start of the owners to consider (--owner= selects the objects with no owner)")
	case *format != "table" && *format != "json":
		return fail(stderr, "invalid --format %q: use table or json", *format)
	case *del && !backend.Set() && !*allStates:
		return fail(stderr, "--delete needs every state that holds objects in scope, or it deletes the boxes of the states left out: "+
			"read them all with --backend, or say the states given are all with --all-states")
	case *del && !ownerSet && !prefixSet:
		return fail(stderr, "--delete needs --owner or --owner-prefix: without one it would delete the orphans of every owner "+
			"(other teams' and pipelines' too); --owner= selects the objects with no owner")
	}
	def, ok := definition(env.Platforms, *platformName)
	if !ok {
		return fail(stderr, "invalid --platform %q: use %s", *platformName, platformNames(env.Platforms))
	}
	minAge, err := duration.Parse(*olderThan)
	if err != nil {
		return fail(stderr, "invalid --older-than: %v", err)
	}
	if minAge < 0 {
		return fail(stderr, "invalid --older-than %q: must not be negative", *olderThan)
	}
	now := time.Now
	if env.Now != nil {
		now = env.Now
	}
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}

	// Every state is read before anything is asked of the platform.
	held := NewHeld()
	source := ""
	if backend.Set() {
		src, err := backend.Open(getenv)
		if err != nil {
			return fail(stderr, "%v", err)
		}
		source = src.Describe()
		if err := held.ReadSource(ctx, src); err != nil {
			return fail(stderr, "%v", err)
		}
	}
	for _, name := range states {
		if err := held.ReadFile(name, env.Stdin); err != nil {
			return fail(stderr, "%v", err)
		}
	}
	for _, s := range held.States {
		if s.Empty && s.Workspace != "" {
			note(stderr, "%s has no state yet; every object in scope that no other state holds is an orphan", s.Name)
		} else if s.Empty {
			note(stderr, "%s is empty, which Terraform reads as no state (a terraform killed while writing the state leaves it so); "+
				"every object in scope that no other state holds is an orphan", s.Name)
		} else if s.Resources == 0 {
			note(stderr, "%s holds no sbx resources; every object in scope that no other state holds is an orphan", s.Name)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(held.Platforms)) {
		if p != *platformName {
			note(stderr, "the states record %d sandboxes or snapshots on %s, and this run checks %s (--platform)", held.Platforms[p], p, *platformName)
		}
	}

	plat, err := connect(ctx, def, env.Version, getenv)
	if err != nil {
		return fail(stderr, "%v", err)
	}
	defer func() { _ = plat.Close() }() // the command is ending; nothing to do about a failed close
	inv := plat.Extensions().Inventory
	if inv == nil {
		return fail(stderr, "%s cannot list the objects the provider made there", plat.Name())
	}
	list, err := listTwice(ctx, inv)
	if err != nil {
		return fail(stderr, "listing what the provider made on %s: %v", plat.Name(), err)
	}
	scope := Scope{Owner: *owner, OwnerPrefix: *ownerPrefix, AnyOwner: !ownerSet && !prefixSet, OlderThan: minAge, Now: now()}
	rep := Report{Platform: plat.Name(), Scope: scope, States: held.States, Unchecked: list.Unchecked,
		Result: Find(list.Objects, held, scope), Delete: *del,
		Source: source, AllStates: backend.Set() || *allStates, Resources: held.Resources()}
	if *del && len(rep.Result.Orphans) > 0 {
		rep.Removals = Remove(ctx, inv, rep.Result.Orphans)
	}

	if *format == "json" {
		err = WriteJSON(env.Stdout, rep)
	} else {
		err = WriteTable(env.Stdout, rep)
	}
	if err != nil {
		return fail(stderr, "writing the report: %v", err)
	}
	failed := 0
	for _, r := range rep.Removals {
		if r.Outcome == Failed {
			failed++
			_, _ = fmt.Fprintf(stderr, "orphans: could not remove %s %s: %v\n", r.Object.Kind, r.Object.ID, r.Err)
		}
	}
	switch {
	case failed > 0:
		return ExitError
	case len(rep.Result.Orphans) > 0:
		return ExitOrphans
	}
	return ExitClean
}

func countOf(list []string, s string) int {
	n := 0
	for _, v := range list {
		if v == s {
			n++
		}
	}
	return n
}

func note(stderr io.Writer, format string, a ...any) {
	_, _ = fmt.Fprintf(stderr, "orphans: note: "+format+"\n", a...) // a lost note changes nothing
}

func fail(stderr io.Writer, format string, a ...any) int {
	_, _ = fmt.Fprintf(stderr, "orphans: "+format+"\n", a...) // nowhere left to report a failed write
	return ExitError
}
