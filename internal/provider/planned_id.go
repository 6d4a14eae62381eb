package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// planKnownID plans the id of an object about to be created as known where
// the platform derives ids from names (platform.IDPlanner). Recreating such
// an object (deleted out of band, say) then keeps its id, so nothing that
// refers to it is planned for replacement. Elsewhere the id stays unknown
// until the platform assigns it.
func planKnownID(ctx context.Context, plat platform.Platform, kind string, name types.String, resp *resource.ModifyPlanResponse) {
	planner := plat.Extensions().IDs
	if planner == nil || name.IsNull() || name.IsUnknown() {
		return
	}
	if id, ok := planner.PlannedID(kind, name.ValueString()); ok {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), id)...)
	}
}
