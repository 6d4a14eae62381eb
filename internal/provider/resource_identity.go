package provider

import (
	"context"
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Resource identity (Terraform ≥ 1.12): every resource is identified by
// its platform id and the platform holding it. The identity is what an
// `import { identity = { ... } }` block gives and what list results
// (`terraform query`) carry; it never changes for the life of an object.
var (
	_ resource.ResourceWithIdentity = (*templateResource)(nil)
	_ resource.ResourceWithIdentity = (*volumeResource)(nil)
	_ resource.ResourceWithIdentity = (*sandboxResource)(nil)
	_ resource.ResourceWithIdentity = (*snapshotResource)(nil)
)

// objectIdentitySchema is the identity schema the four resources share.
var objectIdentitySchema = identityschema.Schema{
	Attributes: map[string]identityschema.Attribute{
		"id": identityschema.StringAttribute{
			Description:       "The object's id on the platform, as the resource's `id` attribute holds it.",
			RequiredForImport: true,
		},
		"platform": identityschema.StringAttribute{
			Description: "The platform holding the object, by the name of its provider block (as the `platform` attribute of " +
				"templates, sandboxes and snapshots). " +
				"Optional when importing: left out, the configured platform; given, it must be the configured one.",
			OptionalForImport: true,
		},
	},
}

// objectIdentity is the identity's model.
type objectIdentity struct {
	ID       types.String `tfsdk:"id"`
	Platform types.String `tfsdk:"platform"`
}

func (r *templateResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = objectIdentitySchema
}

func (r *volumeResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = objectIdentitySchema
}

func (r *sandboxResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = objectIdentitySchema
}

func (r *snapshotResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = objectIdentitySchema
}

// setIdentity records id on plat as the identity (a nil identity: the
// Terraform CLI predates identities, nothing to record). The value is built
// directly: the framework's Set would reflect on the model every time, and
// every Read of every object records its identity.
func setIdentity(ctx context.Context, ident *tfsdk.ResourceIdentity, plat platform.Platform, id string) {
	if ident == nil || id == "" {
		return
	}
	var platformName any // null without a platform
	if plat != nil {
		platformName = plat.Name()
	}
	ident.Raw = tftypes.NewValue(identityType(ctx), map[string]tftypes.Value{
		"id":       tftypes.NewValue(tftypes.String, id),
		"platform": tftypes.NewValue(tftypes.String, platformName),
	})
}

// identityType is the Terraform type of objectIdentitySchema, worked out once.
var identityType = func() func(context.Context) tftypes.Type {
	var once sync.Once
	var typ tftypes.Type
	return func(ctx context.Context) tftypes.Type {
		once.Do(func() { typ = objectIdentitySchema.Type().TerraformType(ctx) })
		return typ
	}
}()

// recordIdentity sets the identity from the id of the first of states that
// holds one: deferred at the start of Create, Read and Update, so every
// path that leaves an object in state leaves its identity too (the state
// the method wrote first; for Read, the state it was given when it removed
// the object, so a state from before identities still gets one).
func recordIdentity(ctx context.Context, plat platform.Platform, ident *tfsdk.ResourceIdentity, states ...*tfsdk.State) {
	if ident == nil {
		return
	}
	for _, st := range states {
		if id := stateID(st); id != "" {
			setIdentity(ctx, ident, plat, id)
			return
		}
	}
}

// stateID is the id a state holds, "" when it holds none (null, unknown,
// or a state without an object), read off the raw value without the
// framework's reflection.
func stateID(st *tfsdk.State) string {
	if st == nil {
		return ""
	}
	return rawString(st.Raw, "id")
}

// importID is the id an import names: the import id, or the identity's id
// when an `import` block gives an identity. An import naming no id (`terraform
// import ADDR ""`, whose identity Terraform sends as a null object) and an
// identity naming another platform than the configured one are errors that
// say what to give instead. The identity is read off the raw value: the
// framework's Get fails on a null identity with an error blaming the provider.
func importID(_ context.Context, plat platform.Platform, kind string, req resource.ImportStateRequest, diags *diag.Diagnostics) string {
	if req.ID != "" {
		return req.ID
	}
	var id, want string
	if req.Identity != nil {
		id = rawString(req.Identity.Raw, "id")
		want = rawString(req.Identity.Raw, "platform")
	}
	if id == "" {
		diags.AddError(fmt.Sprintf("Cannot import %s", kind),
			fmt.Sprintf("The import gives no id. Give the id of the existing %s: `terraform import ADDRESS ID`, "+
				"an `import` block's `id`, or its `identity = { id = ... }`.", kind))
		return ""
	}
	if want != "" && plat != nil && want != plat.Name() {
		diags.AddError(fmt.Sprintf("Cannot import %s %s", kind, id),
			fmt.Sprintf("The identity names platform %q, but this provider configuration uses %q. "+
				"Import it with a provider configuration (or alias) for %q, or leave identity.platform out.",
				want, plat.Name(), want))
		return ""
	}
	return id
}

// rawString is the string attribute name of an object value (a state or an
// identity), "" when the object or the attribute is null or unknown.
func rawString(raw tftypes.Value, name string) string {
	if raw.IsNull() || !raw.IsKnown() {
		return ""
	}
	v, _, err := tftypes.WalkAttributePath(raw, tftypes.NewAttributePath().WithAttributeName(name))
	if err != nil {
		return ""
	}
	val, ok := v.(tftypes.Value)
	if !ok || val.IsNull() || !val.IsKnown() {
		return ""
	}
	var s string
	if val.As(&s) != nil {
		return ""
	}
	return s
}
