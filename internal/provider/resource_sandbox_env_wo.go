package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// env_wo is a box's write-only environment (Terraform 1.11 and later): its
// values are only in the configuration, never in the plan or the state, so
// the provider reads them from the configuration (req.Config) where it sends
// env to the platform (Create; Update where the platform changes env in
// place) and merges them with env. The framework nulls the attribute in
// every plan and state it returns. Since Terraform cannot compare a value it
// never stores, env_wo_version (an integer, as the *_wo_version attributes
// of HashiCorp's providers) says when the values changed: a change of it is
// judged by the attribute table's sandbox.env_wo_version row, as a change of
// env is by sandbox.env (in place where the platform changes env in place,
// else a replacement). Masking needs nothing of its own: the merged env is
// the SandboxSpec.Env / SandboxUpdate.Env every platform already masks in
// its errors and log lines.

// sandboxEnvWOAttributes are env_wo and env_wo_version, documented for the
// platforms defs.
func sandboxEnvWOAttributes(defs []platform.Definition) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"env_wo": schema.MapAttribute{
			MarkdownDescription: "Environment variables for the sandbox's processes, write-only (Terraform 1.11 and later): " +
				"the values are sent to the platform with `env` and are never stored in the plan or the state, nor shown " +
				"in a log or an error, so they may come from ephemeral values (an `ephemeral` variable or resource). A name " +
				"in both `env` and `env_wo` is a plan-time error naming it. Names and values follow the rules of `env`. " +
				"Terraform cannot see a change of these values: change `env_wo_version` (required with `env_wo`) to apply " +
				"them; a change of the values alone applies nothing. An import cannot tell them from `env`: where the " +
				"platform reports a box's environment, an imported box's `env` holds them too, and the first plan after the " +
				"import takes out of the state, in place and without replacing the box, each one the box holds with the " +
				"value `env_wo` gives (a different value is a change of the box's environment). Moving a variable from `env` " +
				"to `env_wo` with the same value is the same: the box keeps it, the state loses it.",
			ElementType: types.StringType,
			Optional:    true,
			// Sensitive as well as write-only, as the first release had it:
			// a write-only value is in no plan or state, so the mark hides
			// nothing more, but Terraform records each sensitive path in
			// the state (sensitive_attributes) and plans an update in place
			// when the schema's marks differ from the ones recorded, which
			// a refresh does not clear (it keeps the recorded marks). Every
			// state the first release wrote lists env_wo; dropping the mark
			// made each of its boxes plan "update in-place" with nothing
			// changed. Keep it (TestAccStateUpgrade_v0Sensitive).
			Sensitive:  true,
			WriteOnly:  true,
			Validators: []validator.Map{sandboxEnvKeysValidator{}},
		},
		"env_wo_version": schema.Int64Attribute{
			CustomType: wholeNumber,
			MarkdownDescription: withPlatformNotes("A number to change (e.g. increment) whenever the values of `env_wo` "+
				"change: a change applies the current `env_wo` to the sandbox, as a change of `env` would be applied. "+
				"Required with `env_wo`; removing both applies an environment without them.",
				defs, platform.AttrSandboxEnvWOVersion),
			Optional:   true,
			Validators: []validator.Int64{int64validator.AtLeast(0)},
		},
	}
}

// sandboxEnvWOValidators are the configuration checks of env_wo.
func sandboxEnvWOValidators() []resource.ConfigValidator {
	return []resource.ConfigValidator{sandboxEnvWOValidator{}}
}

// sandboxEnvWOValidator checks env_wo against the rest of the
// configuration:
//   - env_wo comes with env_wo_version and the reverse (as HashiCorp's
//     providers require of their *_wo_version): without a version no change
//     of the values could ever be applied, and a version alone versions
//     nothing;
//   - no variable is in both env and env_wo: which value the box got would
//     depend on the merge order, and one of them would be dropped unsaid.
//
// Errors name the variable, never a value.
type sandboxEnvWOValidator struct{}

var _ resource.ConfigValidator = sandboxEnvWOValidator{}

func (sandboxEnvWOValidator) Description(context.Context) string {
	return "env_wo and env_wo_version are set together, and a variable is set in env or in env_wo, not in both"
}

func (v sandboxEnvWOValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (sandboxEnvWOValidator) ValidateResource(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var env, wo types.Map
	var version types.Int64
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("env"), &env)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("env_wo"), &wo)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("env_wo_version"), &version)...)
	if resp.Diagnostics.HasError() {
		return
	}
	switch {
	case !wo.IsNull() && version.IsNull():
		resp.Diagnostics.AddAttributeError(path.Root("env_wo"), "env_wo needs env_wo_version",
			"Terraform keeps no trace of env_wo's values, so it cannot see them change: set env_wo_version (e.g. 1) "+
				"with env_wo, and change it whenever the values change to apply them.")
	case wo.IsNull() && !version.IsNull():
		resp.Diagnostics.AddAttributeError(path.Root("env_wo_version"), "env_wo_version without env_wo",
			"env_wo_version says when the values of env_wo changed; without env_wo it versions nothing. Set env_wo, "+
				"or remove env_wo_version with it (the box's environment is then env alone).")
	}
	if env.IsNull() || env.IsUnknown() || wo.IsNull() || wo.IsUnknown() {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(wo.Elements())) {
		if _, ok := env.Elements()[k]; !ok {
			continue
		}
		resp.Diagnostics.AddAttributeError(path.Root("env_wo").AtMapKey(k), "Environment variable in both env and env_wo",
			fmt.Sprintf("The variable %s is set in both env and env_wo; the box can hold only one value for it. Keep it in "+
				"env_wo if its value is a secret that must stay out of the plan and the state, else in env. The values "+
				"are sensitive and are not shown.", strconv.Quote(k)))
	}
}

// sandboxEnvWOFromConfig reads env_wo from the configuration, the only
// place a write-only value is found (nil when it is null or unknown, or
// there is no configuration: a request built by a unit test).
func sandboxEnvWOFromConfig(ctx context.Context, cfg tfsdk.Config, diags *diag.Diagnostics) map[string]string {
	if cfg.Schema == nil || cfg.Raw.IsNull() {
		return nil
	}
	var wo types.Map
	diags.Append(cfg.GetAttribute(ctx, path.Root("env_wo"), &wo)...)
	return mapFromTF(ctx, wo, diags)
}

// sandboxEnvWith is env with the write-only variables wo added: what the
// platform is sent. The validators refuse a name in both; should one slip
// through (values unknown at plan), env_wo's value is the one sent.
func sandboxEnvWith(env, wo map[string]string) map[string]string {
	if len(wo) == 0 {
		return env
	}
	out := make(map[string]string, len(env)+len(wo))
	maps.Copy(out, env)
	maps.Copy(out, wo)
	return out
}

// sandboxWithEnvWO is the planned box with env_wo merged into env, for the
// platform's rules (Extensions.SandboxRules), which judge the environment
// the box will get whichever attribute sets it. It is never stored.
func sandboxWithEnvWO(ctx context.Context, plan sandboxModel, wo map[string]string, diags *diag.Diagnostics) sandboxModel {
	if len(wo) == 0 || plan.Env.IsUnknown() {
		return plan
	}
	out := plan
	out.Env = mapToTF(sandboxEnvWith(mapFromTF(ctx, plan.Env, diags), wo), types.MapNull(types.StringType))
	return out
}

// sandboxEnvWOAttribute is env_wo_version for the attribute table; prior is
// nil on create.
func sandboxEnvWOAttribute(plan sandboxModel, prior *sandboxModel) plannedAttribute {
	a := plannedAttribute{key: platform.AttrSandboxEnvWOVersion, path: path.Root("env_wo_version"), plan: plan.EnvWOVersion}
	if prior != nil {
		a.prior = prior.EnvWOVersion
	}
	return a
}

// sandboxUpdateEnvWO completes an in-place change with env_wo: a changed
// env_wo_version (not one an import left unknown and the plan took from
// the configuration: taken) sends the environment again, and any env sent
// carries the write-only variables, since the platform replaces a box's
// environment as a whole. It reports whether the change now sends env.
func sandboxUpdateEnvWO(ctx context.Context, change *platform.SandboxUpdate, plan, state sandboxModel, taken []string,
	wo map[string]string, diags *diag.Diagnostics,
) bool {
	versionChanged := !plan.EnvWOVersion.Equal(state.EnvWOVersion) && !slices.Contains(taken, platform.AttrSandboxEnvWOVersion)
	if change.Env == nil && !versionChanged {
		return false
	}
	env := mapFromTF(ctx, plan.Env, diags)
	if change.Env != nil {
		env = *change.Env
	}
	merged := sandboxEnvWith(env, wo)
	if merged == nil {
		merged = map[string]string{}
	}
	change.Env = &merged
	return true
}

// sandboxEnvWOHeld makes state what it would be had env_wo been applied
// to the box already: after an import, a box's env holds env_wo's
// variables too (an import cannot tell them apart), and a variable moved
// from env to env_wo is one the box holds. Each variable of wo that
// state's env holds with the same value, and that the planned env does
// not set, is taken out of state's env; when every variable of wo is so
// held and state records no env_wo_version, the planned one is taken as
// state's. The box has these values, so nothing is replaced or sent, and
// the apply writes the state without them. A variable held with another
// value stays: it is a change of the box's environment, planned as one.
// Values are compared, never shown.
func sandboxEnvWOHeld(ctx context.Context, state *sandboxModel, plan sandboxModel, wo map[string]string, diags *diag.Diagnostics) {
	if len(wo) == 0 || state.Env.IsNull() || state.Env.IsUnknown() || plan.Env.IsUnknown() {
		return
	}
	held := mapFromTF(ctx, state.Env, diags)
	planned := plan.Env.Elements()
	all := true
	for k, v := range wo {
		if _, set := planned[k]; set {
			all = false
			continue
		}
		if got, ok := held[k]; ok && got == v {
			delete(held, k)
			continue
		}
		all = false
	}
	if len(held) == len(state.Env.Elements()) {
		return // none held
	}
	state.Env = mapToTF(held, types.MapNull(types.StringType))
	if len(held) == 0 && plan.Env.IsNull() {
		state.Env = types.MapNull(types.StringType)
	}
	if all && state.EnvWOVersion.IsNull() {
		state.EnvWOVersion = plan.EnvWOVersion
	}
}
