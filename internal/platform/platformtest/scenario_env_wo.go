package platformtest

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

const envWOAddr = "sbx_sandbox.b"

// envWOConfig is a box given PLAIN through env and API_TOKEN through
// env_wo (an ephemeral variable) at env_wo_version version.
func envWOConfig(r run, plain string, version int64) string {
	return r.config(r.template(), `
variable "token" {
  type      = string
  ephemeral = true
}
`, r.sandbox("b", fmt.Sprintf(`  env            = { PLAIN = %q }
  env_wo         = { API_TOKEN = var.token }
  env_wo_version = %d`, plain, version)))
}

// envWOBox checks the box at envWOAddr: it is *id (recorded when empty)
// unless replaced, when it is another box (then *id becomes it); it runs;
// it is the instance's only box; and, where the kit can say, it was given
// each of want (compared, never printed: it holds the secret).
func envWOBox(t *testing.T, in *Instance, id *string, replaced bool, want map[string]string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[envWOAddr]
		if !ok {
			return fmt.Errorf("%s is not in the state", envWOAddr)
		}
		got := rs.Primary.ID
		switch {
		case *id == "":
		case replaced && got == *id:
			return fmt.Errorf("box %s was kept; a new env_wo_version replaces it on %s (the sandbox.env_wo_version row)", got, in.Name)
		case !replaced && got != *id:
			return fmt.Errorf("box %s, want %s: the box was replaced, not updated in place", got, *id)
		}
		*id = got
		if err := boxesRun(t, in, envWOAddr)(s); err != nil {
			return err
		}
		rec, ok := in.OutOfBand.(EnvRecorder)
		if !ok {
			return nil
		}
		env, ok := rec.SandboxEnv(t, got)
		if !ok {
			return fmt.Errorf("%s holds no box %s", in.Name, got)
		}
		for k, v := range want {
			if env[k] != v {
				return fmt.Errorf("box %s was given env variables %v, want %v among them (or other values)",
					got, slices.Sorted(maps.Keys(env)), slices.Sorted(maps.Keys(want)))
			}
		}
		return nil
	}
}

// testEnvWO: env_wo reaches the box with env, and its value is in no state,
// plan or saved plan. A new env_wo_version changes the box as the
// platform's sandbox.env_wo_version row says: in place (the same box,
// carrying the new value), or by replacing it (a new box with it); where
// env changes in place, a change of env alone sends the whole environment
// again, env_wo's variables included. Every plan after an apply is empty.
// That nothing reaches a log is TestAccConformanceEnvWOTrace's part: it
// needs the process's environment, which a parallel test cannot set.
func testEnvWO(t *testing.T, in *Instance, f Factories) {
	needsTemplate(t, in)
	needs(t, in.Capabilities.Accepts(platform.AttrSandboxEnvWOVersion), "write-only environment variables (sandbox.env_wo_version)")
	runEnvWO(t, in, f, t.TempDir())
}

// runEnvWO is testEnvWO, terraform's working directories under dirs.
func runEnvWO(t *testing.T, in *Instance, f Factories, dirs string) (secrets []string) {
	r := newRun(newHarness(in, f))
	caps := in.Capabilities
	first, second := acctest.Secret(), acctest.Secret()
	ids := map[string]string{}
	var id string
	step := func(plain, secret string, version int64, action plancheck.ResourceActionType) resource.TestStep {
		plan, state, checks := acctest.EnvWOStep(envWOAddr, dirs, version, []string{first, second},
			envWOBox(t, in, &id, action == plancheck.ResourceActionReplace, map[string]string{"PLAIN": plain, "API_TOKEN": secret}),
			recordIDs(ids, "sbx_template.t"))
		if action != "" {
			plan.PreApply = append(plan.PreApply, plancheck.ExpectResourceAction(envWOAddr, action))
		}
		return resource.TestStep{
			Config:            envWOConfig(r, plain, version),
			ConfigVariables:   config.Variables{"token": config.StringVariable(secret)},
			ConfigPlanChecks:  plan,
			ConfigStateChecks: state,
			Check:             checks,
		}
	}
	bump := plancheck.ResourceActionReplace
	if caps.InPlace(platform.AttrSandboxEnvWOVersion) {
		bump = plancheck.ResourceActionUpdate
	}
	steps := []resource.TestStep{
		step("x", first, 1, ""),
		step("x", second, 2, bump), // a new version: the new value
	}
	if caps.InPlace(platform.AttrSandboxEnv) {
		steps = append(steps, step("y", second, 2, plancheck.ResourceActionUpdate)) // env alone: env_wo's variable kept
	}
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		ProtoV6ProviderFactories: f,
		WorkingDir:               dirs,
		CheckDestroy:             holdsNothing(t, in, r, ids),
		Steps:                    steps,
	})
	return []string{first, second}
}

// RunEnvWOTrace runs the env_wo scenario with Terraform's and the provider's
// trace logs on, and checks that neither secret reaches them; where the
// platform's client logs REST request bodies, the ones that carried the
// secrets show the variable with its value masked. It sets the process's
// environment: call it from a test that is not parallel.
func RunEnvWOTrace(t *testing.T, in *Instance, f Factories) {
	needsTemplate(t, in)
	needs(t, in.Capabilities.Accepts(platform.AttrSandboxEnvWOVersion), "write-only environment variables (sandbox.env_wo_version)")
	logPath := acctest.TraceLog(t)
	secrets := runEnvWO(t, in, f, t.TempDir())
	logs, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatalf("reading the trace log: %v", err)
	}
	mustHave := []string{"API_TOKEN"}
	if bytes.Contains(logs, []byte("REST request body")) {
		mustHave = append(mustHave, `\"API_TOKEN\":\"***\"`)
	}
	for _, secret := range secrets {
		acctest.CheckTraceLog(t, logPath, secret, mustHave...)
	}
}
