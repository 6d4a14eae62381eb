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
// imports without looking.
func importExisting(ctx context.Context, plat platform.Platform, kind string, get func(context.Context, string) error,
	req resource.ImportStateRequest, resp *resource.ImportStateResponse) bool {
	id := importID(ctx, plat, kind, req, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return false
	}
	if plat != nil {
		if err := get(ctx, id); err != nil {
			resp.Diagnostics.AddError(fmt.Sprintf("Cannot import %s %s", kind, id),
				fmt.Sprintf("%s: %s. Give the id of an existing %s (the `sbx_%s` data source finds one by name where the platform lists them).",
					plat.Name(), err, kind, kind))
			return false
		}
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	setIdentity(ctx, resp.Identity, plat, id)
	return !resp.Diagnostics.HasError()
}
