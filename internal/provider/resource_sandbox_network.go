package provider

import (
	"context"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// The network block: what the box may reach outside.
var (
	pathSandboxNetworkInternet = path.Root("network").AtName("internet")
	pathSandboxNetworkAllowOut = path.Root("network").AtName("allow_out")
	pathSandboxNetworkDenyOut  = path.Root("network").AtName("deny_out")
)

// sandboxNetworkAttrTypes is the object type of the network block.
var sandboxNetworkAttrTypes = map[string]attr.Type{
	"internet":  types.BoolType,
	"allow_out": types.ListType{ElemType: types.StringType},
	"deny_out":  types.ListType{ElemType: types.StringType},
}

// sandboxNetworkModel is the network block.
type sandboxNetworkModel struct {
	Internet types.Bool `tfsdk:"internet"`
	AllowOut types.List `tfsdk:"allow_out"`
	DenyOut  types.List `tfsdk:"deny_out"`
}

// sandboxNetworkBlock is the network block's schema, documented for defs.
func sandboxNetworkBlock(defs []platform.Definition) schema.Block {
	entries := []validator.List{listvalidator.UniqueValues(), listvalidator.ValueStringsAre(stringvalidator.LengthBetween(1, 253))}
	return schema.SingleNestedBlock{
		MarkdownDescription: "What the sandbox may reach over the network. Left out, the platform's default: the internet " +
			"is reachable and no destination is filtered. Each setting says how each platform honours it.",
		Attributes: map[string]schema.Attribute{
			"internet": schema.BoolAttribute{
				MarkdownDescription: withPlatformNotes("Whether the sandbox may reach the internet. `false` cuts it off, "+
					"except for the destinations in `allow_out`; left out, the platform's default (reachable).",
					defs, platform.AttrSandboxNetworkInternet),
				Optional: true,
			},
			"allow_out": schema.ListAttribute{
				MarkdownDescription: withPlatformNotes("Destinations the sandbox may always reach, whatever `internet` and "+
					"`deny_out` say: CIDR blocks (`10.0.0.0/8`), addresses, or host names where the platform filters by name.",
					defs, platform.AttrSandboxNetworkAllowOut),
				ElementType: types.StringType,
				Optional:    true,
				Validators:  entries,
			},
			"deny_out": schema.ListAttribute{
				MarkdownDescription: withPlatformNotes("Destinations the sandbox may not reach (CIDR blocks or addresses). "+
					"To deny everything, set `internet = false` instead.", defs, platform.AttrSandboxNetworkDenyOut),
				ElementType: types.StringType,
				Optional:    true,
				Validators: []validator.List{listvalidator.UniqueValues(), listvalidator.ValueStringsAre(
					stringvalidator.LengthBetween(1, 253),
					stringvalidator.NoneOf("0.0.0.0/0", "::/0"))},
			},
		},
	}
}

// sandboxNetworkFrom decodes the network block; an unknown or null block
// gives a model of null values.
func sandboxNetworkFrom(ctx context.Context, o types.Object) sandboxNetworkModel {
	out := sandboxNetworkModel{Internet: types.BoolNull(), AllowOut: types.ListNull(types.StringType), DenyOut: types.ListNull(types.StringType)}
	if o.IsNull() || o.IsUnknown() {
		return out
	}
	// The block's type is the schema's: nothing fails to decode.
	_ = o.As(ctx, &out, basetypes.ObjectAsOptions{})
	return out
}

// sandboxNetworkAttributes are the network block's settings for the
// attribute table (prior nil on create).
func sandboxNetworkAttributes(ctx context.Context, plan types.Object, prior *types.Object) []plannedAttribute {
	n := sandboxNetworkFrom(ctx, plan)
	attrs := []plannedAttribute{
		{key: platform.AttrSandboxNetworkInternet, path: pathSandboxNetworkInternet, plan: n.Internet},
		{key: platform.AttrSandboxNetworkAllowOut, path: pathSandboxNetworkAllowOut, plan: n.AllowOut, shown: stringListShown(n.AllowOut)},
		{key: platform.AttrSandboxNetworkDenyOut, path: pathSandboxNetworkDenyOut, plan: n.DenyOut, shown: stringListShown(n.DenyOut)},
	}
	if prior != nil {
		p := sandboxNetworkFrom(ctx, *prior)
		attrs[0].prior, attrs[1].prior, attrs[2].prior = p.Internet, p.AllowOut, p.DenyOut
	}
	return attrs
}

// stringListShown is a list of strings for a message, as HCL writes it.
func stringListShown(l types.List) string {
	if l.IsNull() || l.IsUnknown() {
		return ""
	}
	parts := make([]string, 0, len(l.Elements()))
	for _, el := range l.Elements() {
		if s, ok := el.(types.String); ok && !s.IsUnknown() {
			parts = append(parts, strconv.Quote(s.ValueString()))
		} else {
			parts = append(parts, "(known after apply)")
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// sandboxNetworkSpec is the network block for the platform (nil when left
// out: the platform's default).
func sandboxNetworkSpec(ctx context.Context, o types.Object, diags *diag.Diagnostics) *platform.Network {
	if o.IsNull() || o.IsUnknown() {
		return nil
	}
	n := sandboxNetworkFrom(ctx, o)
	out := &platform.Network{}
	if !n.Internet.IsNull() && !n.Internet.IsUnknown() {
		v := n.Internet.ValueBool()
		out.Internet = &v
	}
	out.AllowOut = stringsFromTF(ctx, n.AllowOut, diags)
	out.DenyOut = stringsFromTF(ctx, n.DenyOut, diags)
	return out
}

// stringsFromTF decodes a list of strings; null or unknown gives none.
func stringsFromTF(ctx context.Context, l types.List, diags *diag.Diagnostics) []string {
	if l.IsNull() || l.IsUnknown() {
		return nil
	}
	var out []string
	diags.Append(l.ElementsAs(ctx, &out, false)...)
	return out
}

// sandboxNetworkChanged reports whether the network settings differ
// between plan and state (a list left out and an empty one are the same).
func sandboxNetworkChanged(ctx context.Context, plan, state types.Object) bool {
	for _, a := range sandboxNetworkAttributes(ctx, plan, &state) {
		if !attributeSame(a.plan, a.prior) {
			return true
		}
	}
	return false
}

// sandboxNetworkToTF is the network block for what a platform reports
// (null when it reports none).
func sandboxNetworkToTF(n *platform.Network) types.Object {
	objType := sandboxNetworkAttrTypes
	if n == nil || (n.Internet == nil && len(n.AllowOut) == 0 && len(n.DenyOut) == 0) {
		return types.ObjectNull(objType)
	}
	internet := types.BoolNull()
	if n.Internet != nil {
		internet = types.BoolValue(*n.Internet)
	}
	list := func(s []string) types.List {
		if len(s) == 0 {
			return types.ListNull(types.StringType)
		}
		elems := make([]attr.Value, len(s))
		for i, v := range s {
			elems[i] = types.StringValue(v)
		}
		return types.ListValueMust(types.StringType, elems)
	}
	return types.ObjectValueMust(objType, map[string]attr.Value{
		"internet": internet, "allow_out": list(n.AllowOut), "deny_out": list(n.DenyOut),
	})
}
