package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// sandboxCheckRules asks a platform that offers them (Extensions.SandboxRules)
// to judge the planned box against its rules that span attributes or
// objects, and reports each problem as a plan-time error on the attribute
// it names. owner is the provider block's owner, which the box's marks
// will carry; inState whether this run read a box from the state.
func sandboxCheckRules(ctx context.Context, plat platform.Platform, plan sandboxModel, creating bool, owner string, inState func(id string) bool, diags *diag.Diagnostics) {
	rules := plat.Extensions().SandboxRules
	if rules == nil {
		return
	}
	var decode diag.Diagnostics // a value not known yet decodes as zero: the rule sees what is known
	spec := sandboxSpecFromModel(ctx, plan, &decode)
	// The owner the box will be marked with; its create token is made at
	// apply.
	spec.Marks = platform.Marks{Owner: owner}
	known := !plan.VolumeMounts.IsUnknown()
	for _, m := range sandboxMountsFromTF(ctx, plan.VolumeMounts, &decode) {
		if m.VolumeID.IsUnknown() {
			known = false
		}
	}
	for _, p := range rules.CheckSandbox(ctx, platform.SandboxPlan{Spec: spec, MountsKnown: known, Creating: creating, InState: inState}) {
		at := path.Root(p.Attribute)
		if p.Index >= 0 {
			at = at.AtListIndex(p.Index)
		}
		if p.Field != "" {
			at = at.AtName(p.Field)
		}
		diags.AddAttributeError(at, p.Summary, p.Detail)
	}
}
