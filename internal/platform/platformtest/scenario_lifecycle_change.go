package platformtest

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// testLifecycleChanges: changing a running box's timeout (30m → 1h) is an
// in-place update of the same sandbox that moves its deadline later, and
// then plans empty. Both values sit within every cap known (E2B Base: 1h);
// a platform capping timeouts lower gets them scaled to its cap.
func testLifecycleChanges(t *testing.T, h harness) {
	needs(t, h.Capabilities.InPlace(platform.AttrSandboxTimeout), "timeouts that change in place (sandbox.timeout in place)")
	from, to := 30*time.Minute, time.Hour
	if limit := h.Capabilities.Attribute(platform.AttrSandboxTimeout).MaxDuration; limit > 0 && limit < to {
		t.Logf("the platform caps timeout at %s (sandbox.timeout MaxDuration); changing it from %s to %s instead", limit, limit/2, limit)
		from, to = limit/2, limit
	}

	r := newRun(h)
	var boxID, expiresBefore string
	cfg := func(d time.Duration) string {
		return r.config(r.template(), r.sandbox("s", fmt.Sprintf("  timeout = %q", hclDuration(d))))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		CheckDestroy:             goneFromPlatform(t, h, map[string]*string{KindSandbox: &boxID}),
		Steps: []resource.TestStep{
			{
				Config:           cfg(from),
				ConfigPlanChecks: emptyPlanAfterApply(),
				Check: resource.ComposeAggregateTestCheckFunc(
					captureID("sbx_sandbox.s", &boxID),
					resource.TestCheckResourceAttr("sbx_sandbox.s", "timeout", hclDuration(from)),
					captureAttr("sbx_sandbox.s", "expires_at", &expiresBefore),
				),
			},
			{
				Config:           cfg(to),
				ConfigPlanChecks: expectAction("sbx_sandbox.s", plancheck.ResourceActionUpdate),
				Check: resource.ComposeAggregateTestCheckFunc(
					idIs("sbx_sandbox.s", &boxID),
					resource.TestCheckResourceAttr("sbx_sandbox.s", "timeout", hclDuration(to)),
					resource.TestCheckResourceAttr("sbx_sandbox.s", "status", "running"),
					// The longer timeout moved the deadline later.
					resource.TestCheckResourceAttrWith("sbx_sandbox.s", "expires_at", func(v string) error {
						return laterThan(v, expiresBefore)
					}),
					platformStateIs(t, h, &boxID, platform.StateRunning),
					existsOnPlatform(t, h, KindSandbox, &boxID),
				),
			},
		},
	})
}

// hclDuration writes d the way a user would ("2h", "30m", "90s").
func hclDuration(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return fmt.Sprintf("%ds", d/time.Second)
}

// captureAttr stores addr's attribute in *dst when the check runs; it must be set.
func captureAttr(addr, attr string, dst *string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[addr]
		if !ok || rs.Primary == nil || rs.Primary.Attributes[attr] == "" {
			return fmt.Errorf("%s.%s is not set", addr, attr)
		}
		*dst = rs.Primary.Attributes[attr]
		return nil
	}
}

// laterThan checks that the RFC 3339 time got is after before.
func laterThan(got, before string) error {
	g, err := time.Parse(time.RFC3339, got)
	if err != nil {
		return fmt.Errorf("expires_at %q: %w", got, err)
	}
	b, err := time.Parse(time.RFC3339, before)
	if err != nil {
		return fmt.Errorf("earlier expires_at %q: %w", before, err)
	}
	if !g.After(b) {
		return fmt.Errorf("expires_at %s is not after %s: the longer timeout did not move the deadline", got, before)
	}
	return nil
}
