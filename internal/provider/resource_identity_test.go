package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// namedPlatform is a platform that only has a name: importID asks no more.
type namedPlatform struct {
	platform.Platform
	name string
}

func (p namedPlatform) Name() string { return p.name }

// identityFor is an identity of objectIdentitySchema holding id and plat
// ("" leaves the platform null).
func identityFor(t *testing.T, id, plat string) *tfsdk.ResourceIdentity {
	t.Helper()
	ctx := context.Background()
	ident := &tfsdk.ResourceIdentity{Schema: objectIdentitySchema,
		Raw: tftypes.NewValue(objectIdentitySchema.Type().TerraformType(ctx), nil)}
	m := objectIdentity{ID: types.StringValue(id), Platform: types.StringNull()}
	if plat != "" {
		m.Platform = types.StringValue(plat)
	}
	if d := ident.Set(ctx, m); d.HasError() {
		t.Fatal(d)
	}
	return ident
}

func TestImportID(t *testing.T) {
	ctx := context.Background()
	plat := namedPlatform{name: "alpha"}
	cases := []struct {
		name    string
		req     resource.ImportStateRequest
		want    string
		wantErr string
	}{
		{name: "by id", req: resource.ImportStateRequest{ID: "vol-1"}, want: "vol-1"},
		{name: "identity without platform", req: resource.ImportStateRequest{Identity: identityFor(t, "vol-2", "")}, want: "vol-2"},
		{name: "identity of the configured platform", req: resource.ImportStateRequest{Identity: identityFor(t, "vol-3", "alpha")}, want: "vol-3"},
		{name: "identity of another platform", req: resource.ImportStateRequest{Identity: identityFor(t, "vol-4", "beta")},
			wantErr: `names platform "beta", but this provider configuration uses "alpha"`},
		{name: "identity without id", req: resource.ImportStateRequest{Identity: identityFor(t, "", "alpha")},
			wantErr: "gives no id"},
		// terraform import ADDR "": Terraform sends a null identity.
		{name: "empty id, null identity", req: resource.ImportStateRequest{Identity: &tfsdk.ResourceIdentity{Schema: objectIdentitySchema,
			Raw: tftypes.NewValue(objectIdentitySchema.Type().TerraformType(ctx), nil)}},
			wantErr: "The import gives no id. Give the id of the existing volume"},
		{name: "empty id, no identity", req: resource.ImportStateRequest{}, wantErr: "The import gives no id"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var diags diag.Diagnostics
			got := importID(ctx, plat, "volume", c.req, &diags)
			if c.wantErr != "" {
				if !diags.HasError() || !strings.Contains(diags.Errors()[0].Detail(), c.wantErr) {
					t.Fatalf("importID = %q, %v; want an error containing %q", got, diags, c.wantErr)
				}
				return
			}
			if diags.HasError() || got != c.want {
				t.Fatalf("importID = %q, %v; want %q", got, diags, c.want)
			}
		})
	}
}

// recordIdentity takes the id of the first state holding one: the state a
// Read wrote, else (an object gone) the state it was given.
func TestRecordIdentity(t *testing.T) {
	ctx := context.Background()
	sch := newVolumeResourceSchema(t)
	null := tfsdk.State{Schema: sch, Raw: tftypes.NewValue(sch.Type().TerraformType(ctx), nil)}
	withID := func(id string) tfsdk.State {
		st := tfsdk.State{Schema: sch, Raw: null.Raw.Copy()}
		if d := st.SetAttribute(ctx, pathRootID, id); d.HasError() {
			t.Fatal(d)
		}
		return st
	}
	for _, c := range []struct {
		name   string
		states []tfsdk.State
		want   string
	}{
		{"written state", []tfsdk.State{withID("new"), withID("old")}, "new"},
		{"removed object", []tfsdk.State{null, withID("old")}, "old"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ident := &tfsdk.ResourceIdentity{Schema: objectIdentitySchema,
				Raw: tftypes.NewValue(objectIdentitySchema.Type().TerraformType(ctx), nil)}
			var diags diag.Diagnostics
			ptrs := make([]*tfsdk.State, len(c.states))
			for i := range c.states {
				ptrs[i] = &c.states[i]
			}
			recordIdentity(ctx, namedPlatform{name: "alpha"}, ident, ptrs...)
			var got objectIdentity
			diags.Append(ident.Get(ctx, &got)...)
			if diags.HasError() || got.ID.ValueString() != c.want || got.Platform.ValueString() != "alpha" {
				t.Fatalf("identity = %+v, %v; want id %q on alpha", got, diags, c.want)
			}
			// The value built directly is the one the framework's Set makes.
			viaFramework := &tfsdk.ResourceIdentity{Schema: objectIdentitySchema, Raw: ident.Raw.Copy()}
			if d := viaFramework.Set(ctx, objectIdentity{ID: types.StringValue(c.want), Platform: types.StringValue("alpha")}); d.HasError() {
				t.Fatal(d)
			}
			if !viaFramework.Raw.Equal(ident.Raw) {
				t.Errorf("identity %v, the framework's Set makes %v", ident.Raw, viaFramework.Raw)
			}
		})
	}
}

// Without a platform (an unconfigured provider) the identity's platform
// is null; a state holding no id (null, an unknown id) records nothing.
func TestRecordIdentityEdges(t *testing.T) {
	ctx := context.Background()
	sch := newVolumeResourceSchema(t)
	identType := objectIdentitySchema.Type().TerraformType(ctx)
	st := tfsdk.State{Schema: sch, Raw: tftypes.NewValue(sch.Type().TerraformType(ctx), nil)}
	if d := st.SetAttribute(ctx, pathRootID, "vol-1"); d.HasError() {
		t.Fatal(d)
	}
	ident := &tfsdk.ResourceIdentity{Schema: objectIdentitySchema, Raw: tftypes.NewValue(identType, nil)}
	var diags diag.Diagnostics
	recordIdentity(ctx, nil, ident, &st)
	var got objectIdentity
	diags.Append(ident.Get(ctx, &got)...)
	if diags.HasError() || got.ID.ValueString() != "vol-1" || !got.Platform.IsNull() {
		t.Fatalf("identity without a platform = %+v, %v; want vol-1 and a null platform", got, diags)
	}

	unknownID := tfsdk.State{Schema: sch, Raw: st.Raw.Copy()}
	if d := unknownID.SetAttribute(ctx, pathRootID, types.StringUnknown()); d.HasError() {
		t.Fatal(d)
	}
	null := tfsdk.State{Schema: sch, Raw: tftypes.NewValue(sch.Type().TerraformType(ctx), nil)}
	for name, s := range map[string]*tfsdk.State{"null state": &null, "unknown id": &unknownID, "nil state": nil} {
		ident := &tfsdk.ResourceIdentity{Schema: objectIdentitySchema, Raw: tftypes.NewValue(identType, nil)}
		recordIdentity(ctx, namedPlatform{name: "alpha"}, ident, s)
		if !ident.Raw.IsNull() {
			t.Errorf("%s: identity %v recorded, want none", name, ident.Raw)
		}
	}
}

var pathRootID = path.Root("id")

// newVolumeResourceSchema is sbx_volume's schema, for states in unit tests.
func newVolumeResourceSchema(t *testing.T) rschema.Schema {
	t.Helper()
	var resp resource.SchemaResponse
	newVolumeResource(nil).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	return resp.Schema
}

// BenchmarkRecordIdentity is the identity a Read of a sandbox records,
// once per box on every refresh.
func BenchmarkRecordIdentity(b *testing.B) {
	ctx := context.Background()
	var resp resource.SchemaResponse
	newSandboxResource(nil).Schema(ctx, resource.SchemaRequest{}, &resp)
	sch := resp.Schema
	st := tfsdk.State{Schema: sch, Raw: tftypes.NewValue(sch.Type().TerraformType(ctx), nil)}
	if d := st.SetAttribute(ctx, pathRootID, "box-0123456789"); d.HasError() {
		b.Fatal(d)
	}
	identType := objectIdentitySchema.Type().TerraformType(ctx)
	plat := namedPlatform{name: "alpha"}
	b.ReportAllocs()
	for b.Loop() {
		ident := &tfsdk.ResourceIdentity{Schema: objectIdentitySchema, Raw: tftypes.NewValue(identType, nil)}
		var diags diag.Diagnostics
		recordIdentity(ctx, plat, ident, &st)
		if diags.HasError() {
			b.Fatal(diags)
		}
	}
}
