package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// unsetKeepsState plans an optional, computed setting the configuration
// leaves out as "whatever it is": null on create (the platform's default,
// which reads as unset), the state's value after that. An import fills in
// every value the platform reports, so a volume imported at 2 GB holds
// size_gb = 2; without this, a configuration that leaves size_gb out would
// plan 2 -> null on every run, though nothing is to change.
type unsetKeepsState struct{}

func (unsetKeepsState) Description(context.Context) string {
	return "When the configuration leaves the value out, the state's value is kept (null on create)."
}

func (m unsetKeepsState) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (unsetKeepsState) PlanModifyInt64(_ context.Context, req planmodifier.Int64Request, resp *planmodifier.Int64Response) {
	if !req.ConfigValue.IsNull() {
		return
	}
	if req.StateValue.IsUnknown() || req.State.Raw.IsNull() {
		resp.PlanValue = types.Int64Null()
		return
	}
	resp.PlanValue = req.StateValue
}
