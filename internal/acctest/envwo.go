package acctest

import (
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// EnvWOStep is what every step of an env_wo test checks of the sandbox at
// address, whatever the platform: no secret in the plan, the state or the
// files terraform wrote under dirs (see WorkingDirs); env_wo null in state
// and env_wo_version the step's version; the plan after the apply empty.
// The platform's own checks (the box's environment) go in extra.
func EnvWOStep(address, dirs string, version int64, secrets []string, extra ...resource.TestCheckFunc) (
	resource.ConfigPlanChecks, []statecheck.StateCheck, resource.TestCheckFunc) {
	plan := resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	state := []statecheck.StateCheck{
		statecheck.ExpectKnownValue(address, tfjsonpath.New("env_wo"), knownvalue.Null()),
		statecheck.ExpectKnownValue(address, tfjsonpath.New("env_wo_version"), knownvalue.Int64Exact(version)),
	}
	var checks []resource.TestCheckFunc
	for _, c := range extra {
		if c != nil {
			checks = append(checks, c)
		}
	}
	for _, secret := range secrets {
		plan.PreApply = append(plan.PreApply, NoSecretInPlan(secret, address))
		state = append(state, NoSecretInState(secret, address))
		checks = append(checks, NoSecretInFiles(dirs, secret, address))
	}
	return plan, state, resource.ComposeTestCheckFunc(checks...)
}
