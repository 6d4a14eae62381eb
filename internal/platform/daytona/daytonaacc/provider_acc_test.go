package daytonaacc_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

// dtnOneBox is a template and one box of it.
func dtnOneBox(providerConfig, name string) string {
	return providerConfig + dtnTemplateHCL(name+"-tpl") + fmt.Sprintf(`
resource "sbx_sandbox" "b" {
  name        = %q
  template_id = sbx_template.t.id
}
`, name)
}

// dtnStateHoldsTheBox checks that the one box on the fake is the one the
// state holds.
func dtnStateHoldsTheBox(fake *daytonafake.Server) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		id, err := acctest.ResourceID(s, "sbx_sandbox.b")
		if err != nil {
			return err
		}
		live := dtnLiveBoxes(fake)
		if len(live) != 1 || live[0].ID != id {
			return fmt.Errorf("the state holds the box %s, the fake holds %+v", id, live)
		}
		return nil
	}
}

// A storm of 429s on sandbox create, each naming the sandbox-create
// throttler (Retry-After-sandbox-create: 3, Daytona sends no plain
// Retry-After): the apply waits as asked and makes exactly one box.
func TestAccDaytonaCreateRateLimitStorm(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, _ := dtnAccFake(t, daytonafake.Options{})
	cfg := dtnProviderBlock(fake, "  max_retries = 10\n")
	var mu sync.Mutex
	var waits []time.Duration
	hooks := acctest.NoWaitHooks()
	hooks.Sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		waits = append(waits, d)
		mu.Unlock()
		return ctx.Err()
	}
	const storm = 5
	fake.Inject("POST /sandbox", daytonafake.Fault{Status: 429, RetryAfter: 3, Throttler: daytonafake.ThrottlerSandboxCreate, Times: storm})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dtnFactories(provider.Options{Hooks: hooks}),
		CheckDestroy:             dtnFakeHoldsNothing(fake),
		Steps: []resource.TestStep{{
			Config:           dtnOneBox(cfg, "storm-box"),
			ConfigPlanChecks: dtnEmptyAfterApply,
			Check: resource.ComposeAggregateTestCheckFunc(
				dtnStateHoldsTheBox(fake),
				resource.TestCheckResourceAttr("sbx_sandbox.b", "status", "running"),
				func(*terraform.State) error {
					if n := fake.Requests("POST /sandbox"); n != 1+storm {
						return fmt.Errorf("POST /sandbox reached the fake %d times, want %d (%d refused, then the create)", n, 1+storm, storm)
					}
					return nil
				},
			),
		}},
	})
	mu.Lock()
	defer mu.Unlock()
	if len(waits) < storm {
		t.Fatalf("recorded %d waits for %d 429s: %v", len(waits), storm, waits)
	}
	for i, w := range waits[:storm] {
		if w < 3*time.Second {
			t.Errorf("wait %d after a 429 asking Retry-After-sandbox-create: 3 was %s; waits: %v", i+1, w, waits)
		}
	}
}

// The sandbox-create throttler as Daytona runs it: 2 creates a minute on
// the fake's clock, 5 boxes in one apply (terraform creates them in
// parallel). The refused creates wait as the 429s ask (the provider's
// waits move the clock), and the apply makes exactly 5 boxes.
func TestAccDaytonaCreateThrottled(t *testing.T) {
	acctest.RequireTerraform(t)
	clock := clock.NewFake(time.Now().UTC().Truncate(time.Second))
	fake, _ := dtnAccFake(t, daytonafake.Options{Clock: clock, CreateRateLimit: 2})
	cfg := dtnProviderBlock(fake, "  max_retries = 20\n")
	config := cfg + dtnTemplateHCL("throttled-tpl") + `
resource "sbx_sandbox" "s" {
  count       = 5
  name        = "throttled-${count.index}"
  template_id = sbx_template.t.id
}
`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dtnFactories(provider.Options{Clock: clock, Hooks: dtnClockHooks(clock)}),
		CheckDestroy:             dtnFakeHoldsNothing(fake),
		Steps: []resource.TestStep{{
			Config:           config,
			ConfigPlanChecks: dtnEmptyAfterApply,
			Check: resource.ComposeAggregateTestCheckFunc(
				dtnBoxCount(fake, 5),
				func(*terraform.State) error {
					if n := fake.Requests("POST /sandbox"); n <= 5 {
						return fmt.Errorf("POST /sandbox reached the fake %d times: the throttler refused none of the 5 creates", n)
					}
					return nil
				},
			),
		}},
	})
}

// dtnLostCreate: a create whose answer is lost (how is drop) still leaves
// exactly one box, the one the state holds, and the next plan is empty; a
// re-apply changes nothing.
func dtnLostCreate(t *testing.T, name string, drop daytonafake.Fault) *daytonafake.Server {
	t.Helper()
	fake, cfg := dtnAccFake(t, daytonafake.Options{})
	config := dtnOneBox(cfg, name)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dtnAccFactories,
		CheckDestroy:             dtnFakeHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				PreConfig:        func() { fake.Inject("POST /sandbox", drop) },
				Config:           config,
				ConfigPlanChecks: dtnEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					dtnStateHoldsTheBox(fake),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "status", "running"),
					dtnBoxState(fake, "started"),
				),
			},
			{
				Config:           config,
				ConfigPlanChecks: dtnInPlaceNone,
				Check:            dtnStateHoldsTheBox(fake),
			},
		},
	})
	return fake
}

// A create whose answer is lost after Daytona made the box: the box is
// found again by its create token, not made twice.
func TestAccDaytonaLostCreateAnswer(t *testing.T) {
	acctest.RequireTerraform(t)
	fake := dtnLostCreate(t, "lost-box", daytonafake.Fault{DropAfterHandling: true})
	if n := fake.Requests("POST /sandbox"); n != 1 {
		t.Errorf("POST /sandbox reached the fake %d times, want 1: the box made by the lost create was not found again", n)
	}
	// The token it was found by is a label of the box.
	boxes := fake.Sandboxes()
	if len(boxes) != 1 {
		t.Fatalf("the fake holds %d sandboxes, want 1", len(boxes))
	}
	token := false
	for k, v := range boxes[0].Labels {
		token = token || (strings.HasSuffix(k, "create-token") && v != "")
	}
	if !token {
		t.Errorf("the box carries no create-token label: %v", boxes[0].Labels)
	}
}

// A create lost before Daytona acted: the lookup finds no box, and the
// create is made again, once.
func TestAccDaytonaLostCreateRequest(t *testing.T) {
	acctest.RequireTerraform(t)
	fake := dtnLostCreate(t, "unsent-box", daytonafake.Fault{DropBeforeHandling: true})
	if n := fake.Requests("POST /sandbox"); n != 2 {
		t.Errorf("POST /sandbox reached the fake %d times, want 2 (the dropped one, then the create)", n)
	}
}

// dtnInPlaceNone is the plan checks of a step that must plan nothing at all.
var dtnInPlaceNone = resource.ConfigPlanChecks{PreApply: dtnEmptyAfterApply.PostApplyPostRefresh}

// examples/platforms/daytona, unchanged, plans and applies against the
// fake: its main.tf is copied beside an override file (override.tf,
// Terraform's own mechanism) that points the provider at the fake and at
// the provider the test serves, and the template's context_dir at the
// example's agent directory (plugin-testing copies no sub-directory); then
// the next plan is empty and destroy leaves nothing. The fake and the
// provider share one clock that stands still: the sandbox the example
// starts from the template marks the template used (Daytona's lastUsedAt),
// which moves the template's expires_at from its creation to that use; on
// the wall clock the two fall in different seconds whenever the apply
// crosses one, and the refresh after the apply would see the deadline move.
func TestAccDaytonaExample(t *testing.T) {
	acctest.RequireTerraform(t)
	clock := clock.NewFake(time.Now().UTC().Truncate(time.Second))
	fake, _ := dtnAccFake(t, daytonafake.Options{Clock: clock})
	dir := acctest.ExampleWithOverride(t, "daytona", fmt.Sprintf(`provider "sbx" {
  daytona {
    api_key = %q
    api_url = %q
    target  = "us"
  }
}

resource "sbx_template" "agent" {
  context_dir = %q
}
`, dtnAccKey, fake.URL(), filepath.Join(acctest.ExampleDir(t, "daytona"), "agent")))
	// The configuration has its own provider block: plugin-testing takes
	// the factories on the step then.
	resource.ParallelTest(t, resource.TestCase{
		CheckDestroy: dtnFakeHoldsNothing(fake),
		Steps: []resource.TestStep{{
			ProtoV6ProviderFactories: dtnFactories(provider.Options{Clock: clock, Hooks: acctest.NoWaitHooks()}),
			ConfigDirectory:          config.StaticDirectory(dir),
			ConfigPlanChecks:         dtnEmptyAfterApply,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("sbx_template.agent", "status", "ready"),
				resource.TestCheckResourceAttr("sbx_sandbox.box", "status", "running"),
				resource.TestCheckResourceAttr("sbx_sandbox.box", "volume_mount.0.subpath", "agent-1"),
				resource.TestCheckResourceAttrSet("sbx_snapshot.checkpoint", "id"),
				dtnBoxCount(fake, 1),
			),
		}},
	})
}
