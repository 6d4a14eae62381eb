package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/docker/docker/client"
	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// sandboxAccNetworkMode checks the container's network mode (the engine
// says "default" for its default network).
func sandboxAccNetworkMode(t *testing.T, want string) resource.TestCheckFunc {
	return sandboxAccContainer(t, func(ctx context.Context, api *client.Client, id string) error {
		c, err := api.ContainerInspect(ctx, id)
		if err != nil {
			return err
		}
		if got := string(c.HostConfig.NetworkMode); got != want {
			return fmt.Errorf("container %s: network mode %q, want %q", id, got, want)
		}
		return nil
	})
}

// On Docker, `network { internet = false }` is a container with no network
// (network mode none), read back on import; turning the internet on again
// replaces the box (a network mode is fixed at create), and allow_out and
// deny_out are plan-time errors.
func TestAccSandbox_networkNone(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-sandbox-net")
	offline := "  network {\n    internet = false\n  }"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             sandboxAccCheckDestroy(t, name),
		Steps: []resource.TestStep{
			{
				Config:           sandboxAccConfig(t, name, "running", offline),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: resource.ComposeAggregateTestCheckFunc(
					sandboxAccCheckContainer(t, "running"),
					sandboxAccNetworkMode(t, "none"),
					resource.TestCheckResourceAttr(sandboxAccAddr, "network.internet", "false"),
				),
			},
			{
				ResourceName:            sandboxAccAddr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: sandboxAccImportIgnore,
			},
			{
				Config: sandboxAccConfig(t, name, "running", "  network {\n    internet = true\n  }"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(sandboxAccAddr, plancheck.ResourceActionReplace)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: sandboxAccNetworkMode(t, "default"),
			},
			{
				Config:      sandboxAccConfig(t, name, "running", "  network {\n    deny_out = [\"10.0.0.0/8\"]\n  }"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)network\.deny_out\s+=\s+.*is\s+not\s+supported\s+on\s+docker`),
			},
		},
	})
}
