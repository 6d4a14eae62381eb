package faultmatrix_test

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/conformance"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/kits"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

// The random run's knobs, from the environment: how many objects it
// applies (default randomObjects) and the seed of the fault sequences
// (default randomSeed).
const (
	randomObjectsEnv = "SBX_FAULTMATRIX_OBJECTS"
	randomSeedEnv    = "SBX_FAULTMATRIX_SEED"
	randomObjects    = 200
	randomSeed       = 20261130
	// randomRate is the share of requests answered with a fault.
	randomRate = 0.15
	// randomQueue is how many requests per object and route the fault
	// sequence covers; requests beyond it go through untouched.
	randomQueue = 24
)

// absorbable are the faults a retry absorbs on a request, for a run whose
// platform draws none of its own (RandomRun.Faults): a 429 on any, a 503
// or a connection dropped before the server acted only on one that is
// safe to repeat.
func absorbable(run *platformtest.RandomRun, route string) []platformtest.FaultKind {
	if run.Faults != nil {
		return run.Faults
	}
	method, _, _ := strings.Cut(route, " ")
	if method == http.MethodPost || method == http.MethodPatch {
		return []platformtest.FaultKind{platformtest.FaultRateLimit}
	}
	return []platformtest.FaultKind{platformtest.FaultRateLimit, platformtest.FaultUnavailable, platformtest.FaultDropBefore}
}

// faultSequence is a route's seeded sequence: each request in turn is let
// through or answered with one of kinds (the route's absorbable faults),
// at randomRate, never twice in a row. The faults are injected sparing
// retries (Fault.SparesRetry), so no request meets two in a row however
// the concurrent requests interleave: the REST client tries 5 times, and
// a request that kept drawing faults would rightly fail, which is not what
// this run measures.
func faultSequence(rng *rand.Rand, kinds []platformtest.FaultKind, n int) []platformtest.FaultKind {
	seq := make([]platformtest.FaultKind, n)
	for i := range seq {
		seq[i] = platformtest.FaultNone
		if (i == 0 || seq[i-1] == platformtest.FaultNone) && rng.Float64() < randomRate {
			seq[i] = kinds[rng.IntN(len(kinds))]
		}
	}
	return seq
}

// nameSeed tells the platforms' fault sequences apart under one seed.
func nameSeed(name string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(name)) // a hash's Write never fails
	return h.Sum64()
}

// envInt is the integer in the environment variable name, else def.
func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q is not a positive integer", name, v)
	}
	return n
}

// TestRandomFaults applies many objects at once (terraform's parallelism,
// 10) while the fake answers a seeded random share of every request with
// a fault a retry absorbs, then destroys them under the same faults. The
// apply and the destroy must succeed (no error a retry could have
// absorbed reaches the user), the fake must hold exactly the state's
// objects (no orphan, no duplicate), the next plan must be empty, and
// after destroy the fake must hold none. The seed fixes each route's
// fault sequence; which request takes which entry of it depends on the
// order the concurrent requests arrive in.
func TestRandomFaults(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	count := envInt(t, randomObjectsEnv, randomObjects)
	seed := envInt(t, randomSeedEnv, randomSeed)
	for _, e := range kits.All() {
		t.Run(e.Kit.Name(), func(t *testing.T) {
			t.Parallel()
			in := platformtest.Start(t, e.Kit, platformtest.KitOptions{})
			if in.Faults == nil {
				t.Skipf("%s: the kit cannot inject faults (its Faults is nil)", in.Name)
			}
			run := in.FaultPlan.Random
			if run == nil {
				t.Skipf("%s: the fault plan has no random run", in.Name)
			}
			if run.Why != "" {
				t.Logf("draws only %v: %s", run.Faults, run.Why)
			}
			k, ok := in.FaultPlan.Target(run.Kind)
			if !ok {
				t.Fatalf("%s: the random run's kind %s is not in the fault plan", in.Name, run.Kind)
			}
			rng := rand.New(rand.NewPCG(uint64(seed), nameSeed(in.Name)))
			sequences := map[string][]platformtest.FaultKind{}
			for _, route := range run.Routes {
				seq := faultSequence(rng, absorbable(run, route), randomQueue*count)
				sequences[route] = seq
				for _, f := range seq {
					in.Faults.Inject(route, platformtest.Fault{Kind: f, Times: 1, SparesRetry: true})
				}
			}
			kinds := []platformtest.FaultTarget{k}
			report := func() {
				var lines []string
				total := 0
				for _, route := range run.Routes {
					n := in.Faults.Hits(route)
					faulted := map[platformtest.FaultKind]int{}
					for _, f := range sequences[route][:min(n, len(sequences[route]))] {
						if f != platformtest.FaultNone {
							faulted[f]++
							total++
						}
					}
					lines = append(lines, fmt.Sprintf("%s: %d requests, faults %v", route, n, faulted))
				}
				t.Logf("%d objects, seed %d, %d faults injected:\n%s", count, seed, total, strings.Join(lines, "\n"))
				if total == 0 {
					t.Error("no fault was injected: the run tests nothing")
				}
			}
			w := acctest.NewOtherState(t, provider.NewWithOptions("test", conformance.Options(in)))
			w.WriteFile("main.tf", in.ProviderBlock()+run.HCL(count))
			w.MustRun("init", "-input=false", "-no-color")
			w.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
			if err := holdsState(t, in, kinds, w); err != nil {
				t.Fatal(err)
			}
			if got := len(w.StateIDs(resType(k.Kind))); got != count {
				t.Fatalf("the state holds %d %ss, want %d", got, k.Kind, count)
			}
			if out, err := w.Run("plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
				t.Fatalf("the plan after the apply is not empty (%v):\n%s", err, out)
			}
			w.MustRun("destroy", "-auto-approve", "-input=false", "-no-color")
			if err := holdsNothing(t, in, kinds); err != nil {
				t.Fatal(err)
			}
			report()
		})
	}
}
