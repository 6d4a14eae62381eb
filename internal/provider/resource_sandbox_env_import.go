package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// An imported box's env is read back where the platform reports it
// (Docker: the container's variables that differ from its image's). Where
// it does not (E2B: Sandboxes().Get gives Env == nil), the import leaves env
// null in state, and a configuration setting env would plan a replacement:
// a new box, the imported one deleted. Like a snapshot's unreported source,
// what the platform cannot report is taken from the configuration instead:
// the first Read after the import marks the box (privateKeyEnvUnreported),
// the plan records the configured env in place with a warning, and the
// apply writes it to state without calling the platform and drops the mark.
// A box whose env was recorded, or that the provider made (a create starts
// with no private state), plans env changes as usual.

// privateKeyEnvUnreported marks an imported box whose env the platform did
// not report: its state's null env means "not known", not "none".
const privateKeyEnvUnreported = "env_unreported"

// privateState is the part of the framework's private state a resource reads.
type privateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// privateStateWriter is the part of the framework's private state a resource writes.
type privateStateWriter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// sandboxEnvUnreported reports whether the box was imported with an env
// the platform did not report, none having been recorded since.
func sandboxEnvUnreported(ctx context.Context, private privateState, state sandboxModel, diags *diag.Diagnostics) bool {
	if !mapsSame(state.Env, types.MapNull(types.StringType)) {
		return false
	}
	v, d := private.GetKey(ctx, privateKeyEnvUnreported)
	diags.Append(d...)
	return len(v) > 0
}

// sandboxMarkEnvUnreported sets or clears the mark.
func sandboxMarkEnvUnreported(ctx context.Context, private privateStateWriter, unreported bool, diags *diag.Diagnostics) {
	var v []byte
	if unreported {
		v = []byte("true")
	}
	diags.Append(private.SetKey(ctx, privateKeyEnvUnreported, v)...)
}

// sandboxPlanEnvFromConfig plans an imported box's unreported env as what
// the configuration says: it returns the prior state to judge replacements
// against, with the configured env as the box's, and warns (naming no
// variable, let alone a value) when that records an env.
func sandboxPlanEnvFromConfig(ctx context.Context, private privateState, plan, state sandboxModel, platformName string, diags *diag.Diagnostics) sandboxModel {
	if mapsSame(plan.Env, state.Env) || !sandboxEnvUnreported(ctx, private, state, diags) {
		return state
	}
	diags.AddAttributeWarning(path.Root("env"), "Sandbox env taken from the configuration",
		fmt.Sprintf("%s does not report a sandbox's environment, so the env of imported sandbox %s cannot be read back. "+
			"The configured env is recorded as the box's, in place: the box is kept, not replaced, and keeps the "+
			"environment it was created with. Once recorded, a change of env replaces the box as usual.",
			platformName, state.ID.ValueString()))
	prior := state
	prior.Env = plan.Env
	return prior
}
