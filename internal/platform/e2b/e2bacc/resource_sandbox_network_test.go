package e2bacc_test

import (
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// e2bNetworkConfig is one box on the E2B fake in state with the given
// network block body ("" leaves the block out).
func e2bNetworkConfig(providerConfig, state, network string) string {
	block := ""
	if network != "" {
		block = "network {\n" + network + "\n  }"
	}
	return providerConfig + fmt.Sprintf(`
resource "sbx_template" "t" {
  name       = "net"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}

resource "sbx_sandbox" "b" {
  name        = "net-box"
  template_id = sbx_template.t.id
  timeout     = "10m"
  state       = %q
  %s
}
`, state, block)
}

// e2bNetworkBox checks the fake's box: its id (recorded into *id when
// empty, else compared), its allow_internet_access ("" for unset), egress
// lists, state and how many network updates it got.
func e2bNetworkBox(fake *e2bfake.Server, id *string, internet string, allowOut, denyOut []string, state string, updates int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources["sbx_sandbox.b"]
		if !ok {
			return fmt.Errorf("sbx_sandbox.b not in state")
		}
		if *id == "" {
			*id = rs.Primary.ID
		} else if rs.Primary.ID != *id {
			return fmt.Errorf("sandbox id %s, want %s: the box was replaced", rs.Primary.ID, *id)
		}
		v, ok := fake.Sandbox(*id)
		if !ok {
			return fmt.Errorf("the fake holds no sandbox %s", *id)
		}
		got := ""
		if v.AllowInternetAccess != nil {
			got = fmt.Sprint(*v.AllowInternetAccess)
		}
		switch {
		case got != internet:
			return fmt.Errorf("allow_internet_access = %q, want %q", got, internet)
		case !slices.Equal(v.AllowOut, allowOut) || !slices.Equal(v.DenyOut, denyOut):
			return fmt.Errorf("allowOut %q denyOut %q, want %q %q", v.AllowOut, v.DenyOut, allowOut, denyOut)
		case v.State != state:
			return fmt.Errorf("state %s, want %s", v.State, state)
		case v.NetworkUpdates != updates:
			return fmt.Errorf("%d network updates, want %d", v.NetworkUpdates, updates)
		}
		return nil
	}
}

// The network block on E2B: created with allow_internet_access and the
// egress lists (a box without internet also denies 0.0.0.0/0, which E2B
// needs beside a host name in allowOut), read back on import, changed in
// place with PUT /sandboxes/{id}/network on the same box — also on a
// paused one, resumed for the change and paused again — and left out
// again, which gives the box the internet back. A host name allowed on a
// box with internet is a plan-time error (E2B refuses it).
func TestAccSandboxE2BNetwork(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, providerConfig := e2bAccFake(t, e2bfake.Options{})
	empty := []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}
	update := resource.ConfigPlanChecks{
		PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction("sbx_sandbox.b", plancheck.ResourceActionUpdate)},
		PostApplyPostRefresh: empty,
	}
	var id string
	all := "0.0.0.0/0"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		Steps: []resource.TestStep{
			{
				Config: e2bNetworkConfig(providerConfig, "running",
					`    internet  = false
    allow_out = ["api.github.com", "10.1.2.3/32"]`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: empty},
				Check: resource.ComposeAggregateTestCheckFunc(
					e2bNetworkBox(fake, &id, "false", []string{"api.github.com", "10.1.2.3/32"}, []string{all}, "running", 0),
					resource.TestCheckResourceAttr("sbx_sandbox.b", "network.internet", "false"),
					resource.TestCheckNoResourceAttr("sbx_sandbox.b", "network.deny_out"),
				),
			},
			{
				ResourceName:            "sbx_sandbox.b",
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts", "status_since", "timeout"},
			},
			{
				// In place: the same box, one PUT.
				Config: e2bNetworkConfig(providerConfig, "running",
					`    internet  = false
    allow_out = ["*.github.com"]`),
				ConfigPlanChecks: update,
				Check:            e2bNetworkBox(fake, &id, "false", []string{"*.github.com"}, []string{all}, "running", 1),
			},
			{
				// Paused, then changed: resumed for the PUT and paused again.
				Config: e2bNetworkConfig(providerConfig, "paused",
					`    internet  = false
    allow_out = ["*.github.com"]`),
				ConfigPlanChecks: update,
				Check:            e2bNetworkBox(fake, &id, "false", []string{"*.github.com"}, []string{all}, "paused", 1),
			},
			{
				Config: e2bNetworkConfig(providerConfig, "paused",
					`    deny_out = ["10.9.0.0/16"]`),
				ConfigPlanChecks: update,
				Check:            e2bNetworkBox(fake, &id, "true", nil, []string{"10.9.0.0/16"}, "paused", 2),
			},
			{
				// The block left out: the internet back, no rules.
				Config:           e2bNetworkConfig(providerConfig, "running", ""),
				ConfigPlanChecks: update,
				Check:            e2bNetworkBox(fake, &id, "true", nil, nil, "running", 3),
			},
			{
				Config: e2bNetworkConfig(providerConfig, "running",
					`    allow_out = ["api.github.com"]`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)host name needs internet = false on e2b`),
			},
		},
	})
}
