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

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
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

// randomRun is what a platform's random run applies: count objects of one
// kind, whose requests go through routes.
type randomRun struct {
	kind   kind
	hcl    func(count int) string
	routes []string
	// faults, when set, are the faults drawn on every route instead of
	// absorbable's.
	faults []fault
}

// absorbable are the faults the run draws on route.
func (r randomRun) absorbable(route string) []fault {
	if r.faults != nil {
		return r.faults
	}
	return absorbable(route)
}

// randomRuns are the platforms the random run covers, with the cheapest
// object of each.
var randomRuns = map[string]randomRun{
	"e2b": {
		kind:   e2bTarget{}.kinds()[0],
		hcl:    volumesHCL("fm-vol", ""),
		routes: []string{"POST /volumes", "GET /volumes", "GET /volumes/{volumeID}", "DELETE /volumes/{volumeID}", "GET /v2/sandboxes"},
	},
	"daytona": {
		kind:   daytonaTarget{}.kinds()[0],
		hcl:    volumesHCL("fm-vol", ""),
		routes: []string{"POST /volumes", "GET /volumes", "GET /volumes/{volumeId}", "GET /volumes/by-name/{name}", "DELETE /volumes/{volumeId}", "GET /sandbox"},
	},
	"fly": {
		kind:   flyTarget{}.kinds()[0],
		hcl:    volumesHCL("fm_vol", "  size_gb = 1\n"),
		routes: []string{"POST /apps/{app_name}/volumes", "GET /apps/{app_name}/volumes", "GET /apps/{app_name}/volumes/{volume_id}", "DELETE /apps/{app_name}/volumes/{volume_id}", "GET /apps/{app_name}"},
	},
	// Modal draws throttling only: the SDK waits out RESOURCE_EXHAUSTED
	// as often as Modal asks, but gives INTERNAL and UNAVAILABLE (a 500, a
	// 503, a dropped connection or answer) up after 3 retries. The calls
	// of a route share its sequence, so one call's 4 attempts can all draw
	// faults (about one run in ten at 200 objects), which no retry absorbs.
	// A dropped connection is worse: the SDK sends every call on one HTTP/2
	// connection, so one cut fails every call in flight (10 at terraform's
	// parallelism). The fault matrix covers those faults one call at a time.
	"modal": {
		kind:   modalTarget{}.kinds()[0],
		hcl:    volumesHCL("fm-vol", ""),
		routes: []string{"VolumeGetOrCreate", "VolumeDelete"},
		faults: []fault{fault429},
	},
}

// volumesHCL is count volumes named prefix_<index>, with extra lines.
func volumesHCL(prefix, extra string) func(int) string {
	return func(count int) string {
		return fmt.Sprintf("resource \"sbx_volume\" \"v\" {\n  count = %d\n  name  = \"%s_${count.index}\"\n%s}\n", count, prefix, extra)
	}
}

// absorbable are the faults a retry absorbs on a request: a 429 on any,
// a 503 or a connection dropped before the server acted only on one that
// is safe to repeat.
func absorbable(route string) []fault {
	method, _, _ := strings.Cut(route, " ")
	if method == http.MethodPost || method == http.MethodPatch {
		return []fault{fault429}
	}
	return []fault{fault429, fault503, faultDropBefore}
}

// faultSequence is a route's seeded sequence: each request in turn is let
// through or answered with one of kinds (the route's absorbable faults),
// at randomRate, never twice in a row (the REST client retries 4 times; a request that
// kept drawing faults would rightly fail, and that is not what this run
// measures).
func faultSequence(rng *rand.Rand, kinds []fault, n int) []fault {
	seq := make([]fault, n)
	for i := range seq {
		seq[i] = faultNone
		if (i == 0 || seq[i-1] == faultNone) && rng.Float64() < randomRate {
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
	for _, tg := range targets() {
		run, ok := randomRuns[tg.name()]
		if !ok {
			continue
		}
		t.Run(tg.name(), func(t *testing.T) {
			t.Parallel()
			e := tg.start(t)
			rng := rand.New(rand.NewPCG(uint64(seed), nameSeed(tg.name())))
			sequences := map[string][]fault{}
			for _, route := range run.routes {
				seq := faultSequence(rng, run.absorbable(route), randomQueue*count)
				sequences[route] = seq
				for _, f := range seq {
					e.inject(route, f, 1)
				}
			}
			cfg := e.providerBlock() + run.hcl(count)
			kinds := []kind{run.kind}
			report := func(*terraform.State) error {
				var lines []string
				total := 0
				for _, route := range run.routes {
					n := e.hits(route)
					faulted := map[fault]int{}
					for _, f := range sequences[route][:min(n, len(sequences[route]))] {
						if f != faultNone {
							faulted[f]++
							total++
						}
					}
					lines = append(lines, fmt.Sprintf("%s: %d requests, faults %v", route, n, faulted))
				}
				t.Logf("%d objects, seed %d, %d faults injected:\n%s", count, seed, total, strings.Join(lines, "\n"))
				if total == 0 {
					return fmt.Errorf("no fault was injected: the run tests nothing")
				}
				return nil
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: e.factories(),
				Steps: []resource.TestStep{{
					Config:           cfg,
					ConfigPlanChecks: emptyAfterApply,
					Check: resource.ComposeAggregateTestCheckFunc(
						holdsState(e, kinds),
						func(s *terraform.State) error {
							if got := len(stateIDs(s, run.kind.resType())); got != count {
								return fmt.Errorf("the state holds %d %ss, want %d", got, run.kind.name, count)
							}
							return nil
						},
					),
				}},
				CheckDestroy: resource.ComposeAggregateTestCheckFunc(holdsNothing(e, kinds), report),
			})
		})
	}
}
