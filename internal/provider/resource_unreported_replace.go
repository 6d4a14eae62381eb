package provider

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
)

// An attribute that replaces its object by the schema (RequiresReplace)
// cannot be spared by ModifyPlan: the framework adds the schema's
// replacements before ModifyPlan runs and never takes one back. Where such
// an attribute may be Unreported, its plan modifier reads the import's
// record (resource_unreported.go) itself, so a value taken from the
// configuration is no replacement. The record alone decides: it lists only
// keys whose row was Unreported when the import read the object.

// takenAfterImport reports whether a change of the attribute with table key
// key is an import's unreported value taken from the configuration: the
// prior is empty and the import recorded the key.
func takenAfterImport(ctx context.Context, private privateState, key string, priorEmpty bool, diags *diag.Diagnostics) bool {
	return priorEmpty && slices.Contains(readUnreported(ctx, private, diags), key)
}

// stringRequiresReplaceUnlessTaken is RequiresReplace for a string
// attribute with table key key, except for a value taken after an import.
func stringRequiresReplaceUnlessTaken(key, description string) planmodifier.String {
	return stringplanmodifier.RequiresReplaceIf(
		func(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
			resp.RequiresReplace = !takenAfterImport(ctx, req.Private, key, req.StateValue.IsNull(), &resp.Diagnostics)
		}, description, description)
}

// listRequiresReplaceUnlessTaken is RequiresReplace for a list (block)
// with table key key, except for blocks taken after an import that left
// none.
func listRequiresReplaceUnlessTaken(key, description string) planmodifier.List {
	return listplanmodifier.RequiresReplaceIf(
		func(ctx context.Context, req planmodifier.ListRequest, resp *listplanmodifier.RequiresReplaceIfFuncResponse) {
			empty := req.StateValue.IsNull() || len(req.StateValue.Elements()) == 0
			resp.RequiresReplace = !takenAfterImport(ctx, req.Private, key, empty, &resp.Diagnostics)
		}, description, description)
}
