package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// privateKeyDisplacedBuild records the build the provider made of a
// template after a Read found another image under the template's id
// (platform.Template.ForeignBuild): a hand retag. Until the template is
// rebuilt, every plan rebuilds it, and the rebuild (or the destroy)
// removes that build, which no id names any more.
const privateKeyDisplacedBuild = "displaced_build"

// templateNoteDisplaced keeps the record of a displaced build up to date
// after a Read: recorded when the image under the id is not the
// provider's and the state recorded another build (the provider's, before
// the retag); dropped when the id holds a build of the provider again.
// A template imported with a foreign image under its id has no build of
// the provider to remember: its first plan rebuilds it anyway.
func templateNoteDisplaced(ctx context.Context, recorded types.String, tpl *platform.Template, private privateState, writer privateStateWriter, diags *diag.Diagnostics) {
	known, d := private.GetKey(ctx, privateKeyDisplacedBuild)
	diags.Append(d...)
	switch {
	case !tpl.ForeignBuild:
		if len(known) > 0 {
			diags.Append(writer.SetKey(ctx, privateKeyDisplacedBuild, nil)...)
		}
	case len(known) == 0 && isSet(recorded) && recorded.ValueString() != tpl.BuildID:
		raw, err := json.Marshal(recorded.ValueString())
		if err != nil {
			diags.AddError("Cannot record the displaced template build", err.Error())
			return
		}
		diags.Append(writer.SetKey(ctx, privateKeyDisplacedBuild, raw)...)
	}
}

// templateDisplacedBuild is the recorded displaced build ("" for none).
func templateDisplacedBuild(ctx context.Context, private privateState, diags *diag.Diagnostics) string {
	raw, d := private.GetKey(ctx, privateKeyDisplacedBuild)
	diags.Append(d...)
	var build string
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &build); err != nil {
			diags.AddError("Unreadable private state",
				fmt.Sprintf("The record of a displaced template build is not valid (%s). This is a bug in the provider; please report it.", err))
		}
	}
	return build
}

// addDisplacedWarning says, in the plan that rebuilds it, why a template
// whose configuration did not change is rebuilt.
func addDisplacedWarning(diags *diag.Diagnostics, id, foreign, displaced string) {
	diags.AddWarning("Template image replaced outside Terraform",
		fmt.Sprintf("The template %q no longer names the build the provider made (%s): its id now names image %s, which "+
			"the provider did not build (tagged there by hand or by another tool). Sandboxes made from the template would "+
			"start from that image. This plan rebuilds the template from its configuration, moving its id back to a build of "+
			"the provider; the image tagged by hand is left in place, untagged, and the provider's earlier build is removed.",
			id, displaced, foreign))
}

// removeDisplacedBuild removes the displaced build once the template was
// rebuilt or destroyed, where the platform can; what it cannot remove is a
// warning naming the image, never an error (the template's own change is
// done).
func removeDisplacedBuild(ctx context.Context, p platform.Platform, id, displaced string, diags *diag.Diagnostics) {
	remover := p.Extensions().TemplateBuilds
	if displaced == "" || remover == nil {
		return
	}
	if err := remover.RemoveBuild(ctx, id, displaced); err != nil {
		diags.AddWarning("Earlier template build left in place",
			fmt.Sprintf("The build %s the provider made of template %q, which a retag by hand left under no id, was not removed: %s. "+
				"Remove it yourself once nothing runs from it (the orphans command lists it).", displaced, id, err))
	}
}
