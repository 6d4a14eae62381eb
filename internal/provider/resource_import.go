package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// importExisting imports req.ID, or the id of the identity an `import`
// block gives (importID: its platform must be the configured one), as the
// id of an object of kind that the platform holds: it is looked up first
// (get), so an id of nothing, or of another kind of object, is an error
// naming the id and what the platform said, not Terraform's bare
// "non-existent remote object". A provider not configured (plat nil)
// imports without looking. get returns the marks of the create that made
// the object, where the platform keeps them: an object the provider made
// for a create of its own may be held by another state, which the import
// warns of (see heldElsewhereWarning); owner is this provider block's.
func importExisting(ctx context.Context, plat platform.Platform, kind, owner string,
	get func(context.Context, string) (platform.Marks, error),
	req resource.ImportStateRequest, resp *resource.ImportStateResponse) bool {
	id := importID(ctx, plat, kind, req, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return false
	}
	if plat != nil {
		made, err := get(ctx, id)
		if err != nil {
			// An id of another kind of object says which, and how to
			// import it.
			what := ""
			if platform.IsNotFound(err) {
				if other := otherKind(ctx, plat, kind, id); other != "" {
					what = " " + other + "."
				}
			}
			resp.Diagnostics.AddError(fmt.Sprintf("Cannot import %s %s", kind, id),
				fmt.Sprintf("%s: %s.%s Give the id of an existing %s (the `sbx_%s` data source finds one by name where the platform lists them).",
					plat.Name(), err, what, kind, kind))
			return false
		}
		if made.CreateToken != "" {
			summary, detail := heldElsewhereWarning(kind, id, made, owner)
			resp.Diagnostics.AddWarning(summary, detail)
		}
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	setIdentity(ctx, resp.Identity, plat, id)
	return !resp.Diagnostics.HasError()
}

// heldElsewhereWarning is the warning of an import of an object that a
// create of this provider made (it carries a create token): the state of
// that create may still hold it. Two states holding one object each act
// on it alone: when one destroys it, the other plans to create it again,
// empty. Nothing tells an object an interrupted apply of this
// configuration left (which the orphans command suggests importing) from
// another state's, so this is a warning, not an error.
func heldElsewhereWarning(kind, id string, made platform.Marks, owner string) (summary, detail string) {
	whose := "no owner"
	if made.Owner != "" {
		whose = fmt.Sprintf("owner %q", made.Owner)
	}
	also := ""
	if made.Owner != owner {
		this := "sets no owner"
		if owner != "" {
			this = fmt.Sprintf("has owner %q", owner)
		}
		also = fmt.Sprintf(" This provider block %s: the object is another team's or pipeline's.", this)
	}
	return fmt.Sprintf("Imported %s %s may be held by another state", kind, id),
		fmt.Sprintf("%s %s was made by a create of this provider (%s).%s Another Terraform state may manage it: "+
			"if so, a destroy of either deletes it, and the other then plans to create it again, empty. Keep it in one "+
			"state only (`terraform state rm` in the other). If it is what an interrupted apply of this configuration "+
			"left (`terraform-provider-sbx orphans` lists those), nothing more is needed.", kind, id, whose, also)
}
