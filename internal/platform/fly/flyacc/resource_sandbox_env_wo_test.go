package flyacc_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
)

const flyEnvWOAddr = "sbx_sandbox.b"

// flyEnvWOConfig is a running machine given plain through env and
// API_TOKEN through env_wo (an ephemeral variable) at env_wo_version
// version.
func flyEnvWOConfig(providerConfig, plain string, version int) string {
	return providerConfig + flyTemplateHCL("envwo-tpl") + fmt.Sprintf(`
variable "token" {
  type      = string
  ephemeral = true
}

resource "sbx_sandbox" "b" {
  name           = "envwo-box"
  template_id    = sbx_template.t.id
  env            = { PLAIN = %q }
  env_wo         = { API_TOKEN = var.token }
  env_wo_version = %d
}
`, plain, version)
}

// flyEnvWOMachine checks the fake's machine: it is *id (recorded when
// empty), started, has had one more version than *versions (recorded the
// first time), and carries exactly want as its env (compared, never
// printed: it holds the secret).
func flyEnvWOMachine(fake *flyfake.Server, id *string, versions *int, want map[string]string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		m, err := flyResMachine(s, fake, flyEnvWOAddr)
		if err != nil {
			return err
		}
		if *id != "" && m.ID != *id {
			return fmt.Errorf("machine %s, want %s: the box was replaced, not updated in place", m.ID, *id)
		}
		*id = m.ID
		if !maps.Equal(m.Env, want) {
			return fmt.Errorf("machine %s has env variables %v, want %v (or other values)",
				m.ID, slices.Sorted(maps.Keys(m.Env)), slices.Sorted(maps.Keys(want)))
		}
		if m.State != flyfake.StateStarted {
			return fmt.Errorf("machine %s is %s, want started", m.ID, m.State)
		}
		if *versions > 0 && len(m.Versions) != *versions+1 {
			return fmt.Errorf("machine %s has %d versions, want %d (one machine update)", m.ID, len(m.Versions), *versions+1)
		}
		*versions = len(m.Versions)
		return nil
	}
}

// TestAccFlySandbox_envWOInPlace: on Fly env changes in place (a machine
// update), so a new env_wo_version does too: the same machine, one new
// version, carrying the new value with env. A change of env alone sends
// the whole environment again, env_wo's variables included, which a
// machine update would otherwise drop. The value is in no state, plan,
// saved plan or trace line; every plan after an apply is empty.
func TestAccFlySandbox_envWOInPlace(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := flyAccFake(t, flyfake.Options{})
	first, second := acctest.Secret(), acctest.Secret()
	dirs := acctest.WorkingDirs(t)
	logPath := acctest.TraceLog(t)
	var id string
	versions := 0
	step := func(plain, secret string, version int64, inPlace bool) resource.TestStep {
		plan, state, checks := acctest.EnvWOStep(flyEnvWOAddr, dirs, version, []string{first, second},
			flyEnvWOMachine(fake, &id, &versions, map[string]string{"PLAIN": plain, "API_TOKEN": secret}),
			flyResMachineCount(fake, 1))
		s := resource.TestStep{
			Config:            flyEnvWOConfig(cfg, plain, int(version)),
			ConfigVariables:   config.Variables{"token": config.StringVariable(secret)},
			ConfigPlanChecks:  plan,
			ConfigStateChecks: state,
			Check:             checks,
		}
		if inPlace {
			s.ConfigPlanChecks.PreApply = append(s.ConfigPlanChecks.PreApply,
				plancheck.ExpectResourceAction(flyEnvWOAddr, plancheck.ResourceActionUpdate))
		}
		return s
	}
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		ProtoV6ProviderFactories: flyAccFactories,
		CheckDestroy:             flyResHoldsNothing(fake),
		Steps: []resource.TestStep{
			step("x", first, 1, false),
			step("x", second, 2, true), // a new version: the new value, in place
			step("y", second, 2, true), // env alone: env_wo's variable kept
		},
	})
	for _, secret := range []string{first, second} {
		acctest.CheckTraceLog(t, logPath, secret, `REST request body`, `\"API_TOKEN\":\"***\"`)
	}
}
