package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// keptString is one computed string attribute whose prior value a
// resource's ModifyPlan keeps when the plan leaves it unknown.
type keptString struct {
	name    string // the attribute's name at the root, as the config holds it
	planned *types.String
	prior   types.String
}

// keepStateForUnknown does in one pass what the framework's
// stringplanmodifier.UseStateForUnknown does attribute by attribute: a
// planned value that is unknown takes the prior state's value, unless the
// configuration's value is unknown (an interpolation yet to resolve). The
// caller calls it only when the object exists in state: on a create there
// is nothing to keep, and a replacement is a create to Terraform, which
// plans the new object again with no prior state.
//
// One pass, because each modifier the framework calls converts the
// attribute's config, plan and state values and builds a request and a
// logging context for it, per attribute per object; ModifyPlan holds plan
// and state decoded already and reads the configuration's root attributes
// once.
func keepStateForUnknown(config tftypes.Value, attrs ...keptString) {
	configured, ok := rootAttributes(config)
	if !ok {
		return // the configuration is unknown as a whole: nothing is kept
	}
	for _, a := range attrs {
		if !a.planned.IsUnknown() {
			continue
		}
		if v, ok := configured[a.name]; ok && !v.IsKnown() {
			continue
		}
		*a.planned = a.prior
	}
}

// rootAttributes is an object value's top-level attributes, read without
// the framework's path walk; a null value has none. ok is false when the
// value is unknown or not an object.
func rootAttributes(v tftypes.Value) (map[string]tftypes.Value, bool) {
	if v.IsNull() {
		return nil, true
	}
	if !v.IsKnown() {
		return nil, false
	}
	var out map[string]tftypes.Value
	if err := v.As(&out); err != nil {
		return nil, false
	}
	return out, true
}
