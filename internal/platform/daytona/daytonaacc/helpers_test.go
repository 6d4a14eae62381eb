package daytonaacc_test

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

// dtnAccKey is the API key the fakes of these tests accept.
const dtnAccKey = "dtn_acc_test_key_9c4e7b"

// dtnAccImage is the image the tests' templates adopt: a pinned tag, since
// Daytona refuses moving ones.
const dtnAccImage = "python:3.12-slim"

// dtnPlatforms are the provider's platforms with Daytona among them, whether
// or not the provider's own list (provider.Platforms) names it yet.
func dtnPlatforms() []platform.Definition {
	defs := platforms.All()
	for _, d := range defs {
		if d.Name == "daytona" {
			return defs
		}
	}
	return append(defs, daytona.Definition())
}

// dtnFactories serves the provider built with opts, Daytona registered
// (unless opts names the platforms), to the terraform CLI.
func dtnFactories(opts provider.Options) map[string]func() (tfprotov6.ProviderServer, error) {
	if opts.Platforms == nil {
		opts.Platforms = dtnPlatforms()
	}
	return acctest.Factories(provider.NewWithOptions("test", opts))
}

// dtnAccFactories serves the provider with waits that end at once
// (acctest.NoWaitHooks): polls of a transitional state, retries after a 429
// or a lost answer, and the lookups after a lost create do not sleep.
var dtnAccFactories = dtnFactories(provider.Options{Hooks: acctest.NoWaitHooks()})

// dtnClockHooks are waits that end at once but move clock by what they
// wait: the provider's polls and retries take no real time, and the fake,
// which runs on clock, sees the time pass (Daytona refuses to activate a
// template for 10 minutes after its deactivation: the provider waits it
// out).
func dtnClockHooks(clock *clock.Fake) platform.Hooks {
	h := acctest.NoWaitHooks()
	advance := func(ctx context.Context, d time.Duration) error {
		clock.Advance(d)
		return ctx.Err()
	}
	h.Sleep, h.PollSleep = advance, advance
	return h
}

// dtnAccFake starts a Daytona fake for one test (opts.APIKey is set to
// dtnAccKey) and returns it with the provider block pointing at it. When
// the test ends, every request or response that broke Daytona's spec fails
// it.
func dtnAccFake(t *testing.T, opts daytonafake.Options) (*daytonafake.Server, string) {
	t.Helper()
	opts.APIKey = dtnAccKey
	fake := daytonafake.New(t, opts)
	t.Cleanup(func() {
		if v := fake.SpecViolations(); len(v) > 0 {
			t.Errorf("requests or responses broke the Daytona spec:\n%s", strings.Join(v, "\n"))
		}
	})
	return fake, dtnProviderBlock(fake, "")
}

// dtnProviderBlock is the provider block pointing at fake, with extra
// lines (HCL) added inside the provider block.
func dtnProviderBlock(fake *daytonafake.Server, extra string) string {
	return fmt.Sprintf("provider \"sbx\" {\n%s  daytona {\n    api_key = %q\n    api_url = %q\n  }\n}\n",
		extra, dtnAccKey, fake.URL())
}

// dtnEmptyAfterApply is the plan check every applying step makes: once
// applied and refreshed, the configuration plans nothing.
var dtnEmptyAfterApply = resource.ConfigPlanChecks{
	PostApplyPostRefresh: []plancheck.PlanCheck{dtnExpectEmptyPlan{}},
}

// dtnExpectEmptyPlan is plancheck.ExpectEmptyPlan that also names, for
// every resource the plan changes, the attributes that differ and those
// that force a replacement, so a failure says why.
type dtnExpectEmptyPlan struct{}

func (dtnExpectEmptyPlan) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	var problems []string
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Change == nil || rc.Change.Actions.NoOp() {
			continue
		}
		before, _ := rc.Change.Before.(map[string]any)
		after, _ := rc.Change.After.(map[string]any)
		unknown, _ := rc.Change.AfterUnknown.(map[string]any)
		var diffs []string
		for _, k := range dtnKeys(before, after) {
			if unknown[k] == true {
				diffs = append(diffs, fmt.Sprintf("%s: %v → (known after apply)", k, before[k]))
			} else if !reflect.DeepEqual(before[k], after[k]) {
				diffs = append(diffs, fmt.Sprintf("%s: %v → %v", k, before[k], after[k]))
			}
		}
		problems = append(problems, fmt.Sprintf("%s has planned action(s) %v; replace paths %v; changes: %s",
			rc.Address, rc.Change.Actions, rc.Change.ReplacePaths, strings.Join(diffs, "; ")))
	}
	if len(problems) > 0 {
		resp.Error = fmt.Errorf("expected an empty plan:\n%s", strings.Join(problems, "\n"))
	}
}

// dtnKeys are the keys of a and b, sorted.
func dtnKeys(a, b map[string]any) []string {
	seen := map[string]bool{}
	var keys []string
	for _, m := range []map[string]any{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	return keys
}

// dtnInPlace is the plan checks of a step that must change addr in place
// (never replace it) and then plan nothing.
func dtnInPlace(addr string) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{
		PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
		PostApplyPostRefresh: []plancheck.PlanCheck{dtnExpectEmptyPlan{}},
	}
}

// dtnLiveBoxes are the sandboxes the fake holds that are not deleted.
func dtnLiveBoxes(fake *daytonafake.Server) []daytonafake.SandboxView {
	var live []daytonafake.SandboxView
	for _, v := range fake.Sandboxes() {
		if !v.Destroyed {
			live = append(live, v)
		}
	}
	return live
}

// dtnBoxCount checks how many live sandboxes the fake holds.
func dtnBoxCount(fake *daytonafake.Server, want int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := dtnLiveBoxes(fake); len(got) != want {
			return fmt.Errorf("the fake holds %d sandboxes, want %d: %+v", len(got), want, got)
		}
		return nil
	}
}

// dtnBox returns the fake's view of the box at addr in the state.
func dtnBox(s *terraform.State, fake *daytonafake.Server, addr string) (daytonafake.SandboxView, error) {
	id, err := acctest.ResourceID(s, addr)
	if err != nil {
		return daytonafake.SandboxView{}, err
	}
	v, ok := fake.Sandbox(id)
	if !ok {
		return daytonafake.SandboxView{}, fmt.Errorf("the fake holds no sandbox %s (%s)", id, addr)
	}
	return v, nil
}

// dtnBoxState checks the fake's state of the tests' box, sbx_sandbox.b
// (Daytona's word: started, stopped, archived...).
func dtnBoxState(fake *daytonafake.Server, want string) resource.TestCheckFunc {
	const addr = "sbx_sandbox.b"
	return func(s *terraform.State) error {
		v, err := dtnBox(s, fake, addr)
		if err != nil {
			return err
		}
		if v.State != want {
			return fmt.Errorf("the fake's box %s (%s) is %s, want %s", v.ID, addr, v.State, want)
		}
		return nil
	}
}

// dtnSameID checks that the resource at addr still has the id *id holds.
func dtnSameID(addr string, id *string) resource.TestCheckFunc {
	return resource.TestCheckResourceAttrWith(addr, "id", func(v string) error {
		if v != *id {
			return fmt.Errorf("%s has the id %s, want %s (it was replaced)", addr, v, *id)
		}
		return nil
	})
}

// dtnFakeHoldsNothing is a CheckDestroy: after destroy the fake holds no
// sandbox, no volume and no snapshot but the ones it seeded (the default
// snapshot and those the test seeded, whose ids or names are in seeded).
func dtnFakeHoldsNothing(fake *daytonafake.Server, seeded ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		var left []string
		for _, v := range dtnLiveBoxes(fake) {
			left = append(left, fmt.Sprintf("sandbox %s (%s, %s)", v.ID, v.Name, v.State))
		}
		for _, v := range fake.Volumes() {
			if v.State != "deleted" {
				left = append(left, fmt.Sprintf("volume %s (%s, %s)", v.ID, v.Name, v.State))
			}
		}
		keep := map[string]bool{daytonafake.DefaultSnapshotName: true}
		for _, n := range seeded {
			keep[n] = true
		}
		for _, v := range fake.Snapshots() {
			if !v.Removed && !keep[v.Name] && !keep[v.ID] {
				left = append(left, fmt.Sprintf("snapshot %s (%s, %s)", v.ID, v.Name, v.State))
			}
		}
		if len(left) > 0 {
			return fmt.Errorf("after destroy the fake still holds:\n%s", strings.Join(left, "\n"))
		}
		return nil
	}
}

// dtnTemplateHCL is a template adopting dtnAccImage, named name.
func dtnTemplateHCL(name string) string {
	return fmt.Sprintf(`
resource "sbx_template" "t" {
  name  = %q
  image = %q
}
`, name, dtnAccImage)
}
