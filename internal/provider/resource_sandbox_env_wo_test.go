package provider

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/docker/docker/client"
	"github.com/hashicorp/terraform-plugin-testing/config"
	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// sandboxEnvWOConfig is a box given PLAIN through env and API_TOKEN through
// env_wo, from an ephemeral variable, at env_wo_version version.
func sandboxEnvWOConfig(t *testing.T, name string, version int) string {
	return sandboxAccTemplateHCL(t, name) + fmt.Sprintf(`
variable "token" {
  type      = string
  ephemeral = true
}

resource "sbx_sandbox" "test" {
  name           = %q
  template_id    = sbx_template.t.id
  env            = { PLAIN = "x" }
  env_wo         = { API_TOKEN = var.token }
  env_wo_version = %d
}
`, name, version)
}

// sandboxAccContainerEnv checks that the box's container holds each of want
// (NAME=value), as the engine reports its environment, and captures the
// container id.
func sandboxAccContainerEnv(t *testing.T, id *string, want ...string) resource.TestCheckFunc {
	return sandboxAccContainer(t, func(ctx context.Context, api *client.Client, cid string) error {
		c, err := api.ContainerInspect(ctx, cid)
		if err != nil {
			return err
		}
		for _, w := range want {
			if !slices.Contains(c.Config.Env, w) {
				// The environment holds the secret: say only which
				// variable is missing or differs.
				return fmt.Errorf("container %s: %d variables, none is the expected %s", cid, len(c.Config.Env), acctest.EnvName(w))
			}
		}
		*id = cid
		return nil
	})
}

// TestAccSandbox_envWO: env_wo reaches the container with env, and its
// value is in no state (terraform show -json, the state file), no plan
// (terraform show -json, the saved plan file) and no trace line of
// terraform or the provider. A new env_wo_version replaces the box on
// Docker (env is set at create: the sandbox.env_wo_version row) with the
// new value, and the plan is empty after; a new value under the same
// version plans nothing (Terraform cannot see it).
func TestAccSandbox_envWO(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-sandbox-envwo")
	first, second := acctest.Secret(), acctest.Secret()
	dirs := acctest.WorkingDirs(t)
	logPath := acctest.TraceLog(t)
	var firstID, secondID string
	secrets := []string{first, second}
	step := func(secret string, version int64, check resource.TestCheckFunc) resource.TestStep {
		plan, state, checks := acctest.EnvWOStep(sandboxAccAddr, dirs, version, secrets, check)
		return resource.TestStep{
			Config:            sandboxEnvWOConfig(t, name, int(version)),
			ConfigVariables:   config.Variables{"token": config.StringVariable(secret)},
			ConfigPlanChecks:  plan,
			ConfigStateChecks: state,
			Check:             checks,
		}
	}
	s1 := step(first, 1, sandboxAccContainerEnv(t, &firstID, "PLAIN=x", "API_TOKEN="+first))
	// The value changes, the version does not: nothing to plan.
	s2 := step(second, 1, nil)
	s2.PlanOnly = true
	s2.ConfigPlanChecks, s2.ConfigStateChecks, s2.Check = resource.ConfigPlanChecks{}, nil, nil
	s3 := step(second, 2, resource.ComposeTestCheckFunc(
		sandboxAccContainerEnv(t, &secondID, "PLAIN=x", "API_TOKEN="+second),
		func(*terraform.State) error {
			if secondID == firstID {
				return fmt.Errorf("the box %s was kept; a new env_wo_version replaces it on Docker", firstID)
			}
			return nil
		},
	))
	s3.ConfigPlanChecks.PreApply = append(s3.ConfigPlanChecks.PreApply,
		plancheck.ExpectResourceAction(sandboxAccAddr, plancheck.ResourceActionDestroyBeforeCreate))
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             sandboxAccCheckDestroy(t, name),
		Steps:                    []resource.TestStep{s1, s2, s3},
	})
	for _, secret := range []string{first, second} {
		acctest.CheckTraceLog(t, logPath, secret, `env_wo`, `sbx_sandbox.test`)
	}
}
