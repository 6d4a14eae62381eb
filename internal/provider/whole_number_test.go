package provider

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestWholeNumberRead: whole numbers read as the framework's Int64Value
// (what the models hold); anything else reads as a value whose validation
// names the attribute, the value and what to set instead.
func TestWholeNumberRead(t *testing.T) {
	ctx := context.Background()
	huge, _, _ := big.ParseFloat("1e30", 10, 512, big.ToNearestEven)
	for _, tc := range []struct {
		name string
		in   tftypes.Value
		want attr.Value // when the value reads as an Int64Value
		err  string     // else: the validation error's detail
	}{
		{name: "whole", in: tftypes.NewValue(tftypes.Number, 3), want: types.Int64Value(3)},
		{name: "whole_float", in: tftypes.NewValue(tftypes.Number, 2.0), want: types.Int64Value(2)},
		{name: "negative", in: tftypes.NewValue(tftypes.Number, -5), want: types.Int64Value(-5)},
		{name: "null", in: tftypes.NewValue(tftypes.Number, nil), want: types.Int64Null()},
		{name: "unknown", in: tftypes.NewValue(tftypes.Number, tftypes.UnknownValue), want: types.Int64Unknown()},
		{name: "fraction", in: tftypes.NewValue(tftypes.Number, 1.5),
			err: "size_gb = 1.5 is not a whole number: size_gb takes whole numbers only. Round it down to 1 or up to 2."},
		{name: "small_fraction", in: tftypes.NewValue(tftypes.Number, 0.25),
			err: "size_gb = 0.25 is not a whole number: size_gb takes whole numbers only. Round it down to 0 or up to 1."},
		{name: "negative_fraction", in: tftypes.NewValue(tftypes.Number, -1.5),
			err: "size_gb = -1.5 is not a whole number: size_gb takes whole numbers only. Round it down to -2 or up to -1."},
		{name: "too_large", in: tftypes.NewValue(tftypes.Number, huge),
			err: "size_gb = 1e+30 is outside the whole numbers size_gb takes, from -9223372036854775808 to 9223372036854775807."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := wholeNumber.ValueFromTerraform(ctx, tc.in)
			if err != nil {
				t.Fatalf("ValueFromTerraform: %v (the framework would report a Configuration Read Error)", err)
			}
			if tc.err == "" {
				if !got.Equal(tc.want) {
					t.Fatalf("read %#v, want %#v", got, tc.want)
				}
				if _, ok := got.(basetypes.Int64Value); !ok {
					t.Fatalf("read a %T: a model's types.Int64 cannot hold it", got)
				}
				if d := wholeNumber.Validate(ctx, tc.in, path.Root("size_gb")); d.HasError() {
					t.Fatalf("Validate refuses it: %v", d)
				}
				return
			}
			v, ok := got.(xattr.ValidateableAttribute)
			if !ok {
				t.Fatalf("read a %T, which validation does not refuse", got)
			}
			var resp xattr.ValidateAttributeResponse
			v.ValidateAttribute(ctx, xattr.ValidateAttributeRequest{Path: path.Root("size_gb")}, &resp)
			if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Detail() != tc.err {
				t.Fatalf("ValidateAttribute: %v, want one error %q", resp.Diagnostics, tc.err)
			}
			// A list's elements are refused by the type's Validate, alike.
			d := wholeNumber.Validate(ctx, tc.in, path.Root("size_gb"))
			if len(d) != 1 || d[0].Detail() != tc.err {
				t.Fatalf("Validate: %v, want one error %q", d, tc.err)
			}
		})
	}
}

// TestEveryConfigurableInt64IsWholeNumber: every number a configuration
// sets, in the provider block, a resource, a data source, a list resource
// or an action, has the whole-number type, so none reads a fraction as a
// "Configuration Read Error". Computed-only numbers are set by the
// provider alone.
func TestEveryConfigurableInt64IsWholeNumber(t *testing.T) {
	var found []string
	visit := func(name string, typ attr.Type) {
		if bareInt64(typ) {
			t.Errorf("%s: a configurable number of the framework's Int64Type; give it CustomType (or ElementType) wholeNumber", name)
		}
		if usesWholeNumber(typ) {
			found = append(found, name)
		}
	}
	check := func(where string, attrs map[string]schemaAttr, blocks map[string]any) {
		for name, a := range attrs {
			if a.IsOptional() || a.IsRequired() {
				visit(where+"."+name, a.GetType())
			}
		}
		// Everything in a block is configuration: the walk checks a
		// block's whole type.
		for name, b := range blocks {
			typed, ok := b.(interface{ Type() attr.Type })
			if !ok {
				t.Errorf("%s.%s: a block of %T, which has no type", where, name, b)
				continue
			}
			visit(where+"."+name, typed.Type())
		}
	}

	forEachSchema(t, check)
	// The walk reaches the numbers it should: a walk that saw nothing
	// would pass as well.
	for _, want := range []string{"provider.max_retries", "sbx_volume.size_gb", "sbx_sandbox.cpu_count",
		"sbx_template.disk_mb", "sbx_sandbox.env_wo_version", "action.sbx_sandbox_exec.success_exit_codes"} {
		if !strings.Contains(" "+strings.Join(found, " ")+" ", " "+want+" ") {
			t.Errorf("the walk did not find %s among the whole numbers %v", want, found)
		}
	}
}

// schemaAttr is what the walk needs of an attribute, of every kind of
// schema.
type schemaAttr interface {
	GetType() attr.Type
	IsOptional() bool
	IsRequired() bool
}

// attrsOf takes a schema's attributes as schemaAttrs, whichever package's
// schema they come from.
func attrsOf[A any](t *testing.T, in map[string]A) map[string]schemaAttr {
	t.Helper()
	out := map[string]schemaAttr{}
	for k, a := range in {
		sa, ok := any(a).(schemaAttr)
		if !ok {
			t.Fatalf("attribute %s: a %T, which the walk cannot read", k, a)
		}
		out[k] = sa
	}
	return out
}

// blocksOf is a schema's blocks, whichever package's schema they come from.
func blocksOf[B any](in map[string]B) map[string]any {
	out := map[string]any{}
	for k, b := range in {
		out[k] = b
	}
	return out
}

// forEachSchema calls visit with the attributes and blocks of every schema
// a configuration fills: the provider block's, and every resource's, data
// source's, list resource's and action's, named as in a configuration
// ("sbx_volume", "data.sbx_volume", "list.sbx_volume", "action.sbx_sandbox_exec").
func forEachSchema(t *testing.T, visit func(where string, attrs map[string]schemaAttr, blocks map[string]any)) {
	t.Helper()
	ctx := context.Background()
	p := New("test")()
	var presp provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &presp)
	visit("provider", attrsOf(t, presp.Schema.GetAttributes()), blocksOf(presp.Schema.GetBlocks()))
	for _, newR := range p.Resources(ctx) {
		r := newR()
		var m resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "sbx"}, &m)
		var resp resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &resp)
		visit(m.TypeName, attrsOf(t, resp.Schema.GetAttributes()), blocksOf(resp.Schema.GetBlocks()))
	}
	for _, newD := range p.DataSources(ctx) {
		d := newD()
		var m datasource.MetadataResponse
		d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "sbx"}, &m)
		var resp datasource.SchemaResponse
		d.Schema(ctx, datasource.SchemaRequest{}, &resp)
		visit("data."+m.TypeName, attrsOf(t, resp.Schema.GetAttributes()), blocksOf(resp.Schema.GetBlocks()))
	}
	withLists, ok := p.(provider.ProviderWithListResources)
	if !ok {
		t.Fatal("the provider has no list resources")
	}
	for _, newL := range withLists.ListResources(ctx) {
		l := newL()
		var m resource.MetadataResponse
		l.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "sbx"}, &m)
		var resp list.ListResourceSchemaResponse
		l.ListResourceConfigSchema(ctx, list.ListResourceSchemaRequest{}, &resp)
		visit("list."+m.TypeName, attrsOf(t, resp.Schema.GetAttributes()), blocksOf(resp.Schema.GetBlocks()))
	}
	withActions, ok := p.(provider.ProviderWithActions)
	if !ok {
		t.Fatal("the provider has no actions")
	}
	for _, newA := range withActions.Actions(ctx) {
		a := newA()
		var m action.MetadataResponse
		a.Metadata(ctx, action.MetadataRequest{ProviderTypeName: "sbx"}, &m)
		var resp action.SchemaResponse
		a.Schema(ctx, action.SchemaRequest{}, &resp)
		visit("action."+m.TypeName, attrsOf(t, resp.Schema.GetAttributes()), blocksOf(resp.Schema.GetBlocks()))
	}
}

// bareInt64 is whether t is, or holds, the framework's Int64Type.
func bareInt64(t attr.Type) bool {
	switch t := t.(type) {
	case wholeNumberType:
		return false
	case basetypes.Int64Type:
		return true
	case attr.TypeWithElementType:
		return bareInt64(t.ElementType())
	case attr.TypeWithAttributeTypes:
		for _, at := range t.AttributeTypes() {
			if bareInt64(at) {
				return true
			}
		}
	}
	return false
}

// usesWholeNumber is whether t is, or holds, wholeNumberType.
func usesWholeNumber(t attr.Type) bool {
	switch t := t.(type) {
	case wholeNumberType:
		return true
	case attr.TypeWithElementType:
		return usesWholeNumber(t.ElementType())
	case attr.TypeWithAttributeTypes:
		for _, at := range t.AttributeTypes() {
			if usesWholeNumber(at) {
				return true
			}
		}
	}
	return false
}

// TestValidateRefusesFractions: through the provider's server, as
// Terraform calls it, a fraction in a number of a resource, an action or
// the provider block is refused with the named error alone, not with the
// framework's "Configuration Read Error".
func TestValidateRefusesFractions(t *testing.T) {
	ctx := context.Background()
	server, schemas := testProviderServer(t)
	actions, ok := server.(tfprotov6.ActionServer)
	if !ok {
		t.Fatal("the provider's server serves no actions")
	}
	half := tftypes.NewValue(tftypes.Number, 1.5)
	for _, tc := range []struct {
		name   string
		schema *tfprotov6.Schema
		set    map[string]tftypes.Value
		call   func(*tfprotov6.DynamicValue) ([]*tfprotov6.Diagnostic, error)
		want   string
	}{
		{name: "resource", schema: schemas.ResourceSchemas["sbx_volume"],
			set: map[string]tftypes.Value{"name": tftypes.NewValue(tftypes.String, "v"), "size_gb": half},
			call: func(c *tfprotov6.DynamicValue) ([]*tfprotov6.Diagnostic, error) {
				r, err := server.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "sbx_volume", Config: c})
				return r.Diagnostics, err
			},
			want: "size_gb = 1.5 is not a whole number: size_gb takes whole numbers only. Round it down to 1 or up to 2."},
		{name: "provider", schema: schemas.Provider,
			set: map[string]tftypes.Value{"max_retries": tftypes.NewValue(tftypes.Number, 2.5)},
			call: func(c *tfprotov6.DynamicValue) ([]*tfprotov6.Diagnostic, error) {
				r, err := server.ValidateProviderConfig(ctx, &tfprotov6.ValidateProviderConfigRequest{Config: c})
				return r.Diagnostics, err
			},
			want: "max_retries = 2.5 is not a whole number: max_retries takes whole numbers only. Round it down to 2 or up to 3."},
		{name: "action_list_element", schema: schemas.ActionSchemas["sbx_sandbox_exec"].Schema,
			set: map[string]tftypes.Value{
				"sandbox_id": tftypes.NewValue(tftypes.String, "sb-1"),
				"command":    tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "true")}),
				"success_exit_codes": tftypes.NewValue(tftypes.List{ElementType: tftypes.Number},
					[]tftypes.Value{tftypes.NewValue(tftypes.Number, 0), half}),
			},
			call: func(c *tfprotov6.DynamicValue) ([]*tfprotov6.Diagnostic, error) {
				r, err := actions.ValidateActionConfig(ctx, &tfprotov6.ValidateActionConfigRequest{ActionType: "sbx_sandbox_exec", Config: c})
				return r.Diagnostics, err
			},
			want: "success_exit_codes[1] = 1.5 is not a whole number: success_exit_codes[1] takes whole numbers only. Round it down to 1 or up to 2."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			diags, err := tc.call(configValue(t, tc.schema, tc.set))
			if err != nil {
				t.Fatal(err)
			}
			var errs []string
			for _, d := range diags {
				if d.Severity == tfprotov6.DiagnosticSeverityError {
					errs = append(errs, d.Summary+": "+d.Detail)
				}
			}
			if len(errs) != 1 || errs[0] != "Not a whole number: "+tc.want {
				t.Fatalf("errors %q, want only %q", errs, tc.want)
			}
		})
	}
}

// configValue is a configuration of schema with the attributes of set,
// every other attribute and block null, as Terraform sends it.
func configValue(t *testing.T, schema *tfprotov6.Schema, set map[string]tftypes.Value) *tfprotov6.DynamicValue {
	t.Helper()
	typ, ok := schema.ValueType().(tftypes.Object)
	if !ok {
		t.Fatalf("a schema of %s, not an object", schema.ValueType())
	}
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
		if v, ok := set[name]; ok {
			vals[name] = v
		}
	}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, vals))
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}
