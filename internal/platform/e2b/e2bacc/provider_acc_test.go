package e2bacc_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

// A storm of 429s with Retry-After: the apply of 20 sandboxes completes, and
// no wait between attempts is shorter than the server asked.
func TestAccE2BRateLimitStorm(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := e2bAccFake(t, e2bfake.Options{})
	var mu sync.Mutex
	var waits []time.Duration
	hooks := acctest.NoWaitHooks()
	hooks.Sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		waits = append(waits, d)
		mu.Unlock()
		return ctx.Err()
	}
	// 20 refusals and max_retries = 20: no create can run out of retries,
	// however terraform's parallel creates share the refusals out.
	const storm = 20
	cfg = strings.Replace(cfg, "provider \"sbx\" {\n", "provider \"sbx\" {\n  max_retries = 20\n", 1)
	fake.Inject("POST /sandboxes", e2bfake.Fault{Status: 429, RetryAfter: "3", Times: storm})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories(provider.Options{Hooks: hooks}),
		Steps: []resource.TestStep{{
			Config:           e2bAccBoxes(cfg, 20),
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			Check:            e2bAccBoxCount(fake, 20),
		}},
	})
	mu.Lock()
	defer mu.Unlock()
	if len(waits) < storm {
		t.Fatalf("recorded %d waits for %d 429s", len(waits), storm)
	}
	for _, w := range waits {
		if w < 3*time.Second {
			t.Errorf("waited %s after a 429 that asked for Retry-After: 3", w)
		}
	}
	if n := fake.Requests("POST /sandboxes"); n != 20+storm {
		t.Errorf("POST /sandboxes reached the fake %d times, want %d (20 creates + %d refused)", n, 20+storm, storm)
	}
}

// 503s on reads are retried: refresh and the post-apply plan succeed.
func TestAccE2BReadsRetried(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := e2bAccFake(t, e2bfake.Options{})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		Steps: []resource.TestStep{
			{Config: e2bAccBoxes(cfg, 1), Check: e2bAccBoxCount(fake, 1)},
			{
				PreConfig: func() {
					fake.Inject("GET /sandboxes/{sandboxID}", e2bfake.Fault{Status: 503, Times: 3})
					fake.Inject("GET /templates/{templateID}", e2bfake.Fault{Status: 503, Times: 2})
				},
				Config:           e2bAccBoxes(cfg, 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: func(*terraform.State) error {
					if n := fake.Requests("GET /sandboxes/{sandboxID}"); n < 4 {
						return fmt.Errorf("GET /sandboxes/{id} reached the fake %d times; the 503s were not retried", n)
					}
					return nil
				},
			},
		},
	})
}

// A create whose response is lost leaves exactly one sandbox, after the
// apply and after a re-apply.
func TestAccE2BLostCreateResponse(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := e2bAccFake(t, e2bfake.Options{})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: func() { fake.Inject("POST /sandboxes", e2bfake.Fault{DropAfterHandling: true}) },
				Config:    e2bAccBoxes(cfg, 1),
				Check:     e2bAccBoxCount(fake, 1),
			},
			{
				Config:           e2bAccBoxes(cfg, 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            e2bAccBoxCount(fake, 1),
			},
		},
	})
}

// TF_LOG=trace output (terraform's and the provider's) never holds the API key.
func TestAccE2BTraceLogHasNoKey(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := e2bAccFake(t, e2bfake.Options{})
	// The key comes from the environment: the test framework itself logs the
	// configuration it writes, which is not the provider's doing.
	cfg = strings.Replace(cfg, fmt.Sprintf("    api_key = %q\n", e2bAccKey), "", 1)
	if strings.Contains(cfg, e2bAccKey) {
		t.Fatal("the key is still in the configuration")
	}
	t.Setenv("E2B_API_KEY", e2bAccKey)
	dir := t.TempDir()
	logPath := filepath.Join(dir, "terraform.log")
	accLog := filepath.Join(dir, "acc.log")
	t.Setenv("TF_LOG", "trace")
	t.Setenv("TF_LOG_PATH", logPath)
	t.Setenv("TF_ACC_LOG_PATH", accLog)
	// A rate-limited create and a failed read put request and error lines in the log too.
	fake.Inject("POST /sandboxes", e2bfake.Fault{Status: 429, RetryAfter: "1"})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		Steps:                    []resource.TestStep{{Config: e2bAccBoxes(cfg, 1), Check: e2bAccBoxCount(fake, 1)}},
	})
	read := 0
	for _, p := range []string{logPath, accLog} {
		b, err := os.ReadFile(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		read += len(b)
		for _, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, e2bAccKey) {
				t.Errorf("%s holds the E2B API key: %.300s", p, line)
				break
			}
		}
	}
	if read < 10_000 {
		t.Fatalf("the trace logs hold %d bytes; the test read no real log", read)
	}
}

// Plan-time refusals: a Dockerfile line E2B cannot express, two platform
// blocks, a timeout above the tier's cap, and volumes on a team without the beta.
func TestAccE2BRefusals(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := e2bAccFake(t, e2bfake.Options{VolumesDisabled: true})
	baseTier := strings.Replace(cfg, `tier    = "pro"`, `tier    = "base"`, 1)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		Steps: []resource.TestStep{
			{
				Config: cfg + `
resource "sbx_template" "t" {
  name       = "bad"
  dockerfile = "FROM alpine\nEXPOSE 8080\n"
}`,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)dockerfile line 2: EXPOSE.*expose\s+every\s+port`),
			},
			{
				Config: strings.Replace(cfg, "provider \"sbx\" {\n", "provider \"sbx\" {\n  docker {}\n", 1) +
					`resource "sbx_volume" "v" { name = "data" }`,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`both\s+docker\s+and\s+e2b`),
			},
			{
				Config: baseTier + `
resource "sbx_sandbox" "s" {
  template_id = "x"
  timeout     = "2h"
}`,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)timeout = "2h" is above\s+the\s+maximum\s+of\s+1h\s+on\s+e2b`),
			},
			{
				Config:      cfg + `resource "sbx_volume" "v" { name = "data" }`,
				ExpectError: regexp.MustCompile(`(?s)private\s+beta.*enable\s+volumes`),
			},
		},
	})
	if n := len(fake.Templates()); n != 0 {
		t.Errorf("a refused plan built %d templates", n)
	}
}
