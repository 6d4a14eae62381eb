package provider

import (
	"context"
	"fmt"
	"iter"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// List resources (Terraform ≥ 1.14, `list` blocks in `.tfquery.hcl` files
// run by `terraform query`) find existing objects on the configured
// platform by the same filters as the data sources. Each result carries the
// object's identity and, when Terraform asks for it (`-generate-config-out`),
// the object exactly as the resource's Read stores it after an import, so
// the generated configuration imports with an empty plan.

// listBase is what the four list resources share: the provider's data, and
// the resource whose Read renders a full result.
type listBase struct {
	defs []platform.Definition
	// kind is "volume", "template", ...: used in messages.
	kind string
	// newResource builds the managed resource of the same type.
	newResource func([]platform.Definition) resource.Resource
	// providerData is what the provider's Configure handed out (nil before).
	providerData any
	platform     platform.Platform
	retention    retentionSettings
}

// Configure keeps the provider's data, for the platform and for the
// resource rendering full results.
func (b *listBase) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	b.platform = platformFrom(req.ProviderData, &resp.Diagnostics)
	b.retention = retentionFrom(req.ProviderData)
	b.providerData = req.ProviderData
}

// ready reports, as a result stream in resp, that the provider is not
// configured (no platform to list).
func (b *listBase) ready(resp *list.ListResultsStream) bool {
	if b.platform != nil {
		return true
	}
	var diags diag.Diagnostics
	diags.AddError("Provider not configured",
		"The sbx provider was not configured before listing "+plural(b.kind)+". This is a bug in the provider; please report it.")
	resp.Results = list.ListResultsStreamDiagnostics(diags)
	return false
}

// listedObject is one object a list found: its id and the name shown for it.
type listedObject struct {
	ID   string
	Name string
}

// results streams one list result per object: identity and display name,
// and, when req asks for it, the object as the resource's Read stores it
// after an import (an object gone since the listing is left out). At most
// req.Limit results are streamed.
func (b *listBase) results(ctx context.Context, req list.ListRequest, objs []listedObject) iter.Seq[list.ListResult] {
	return func(push func(list.ListResult) bool) {
		var res resource.Resource
		if req.IncludeResource {
			res = b.newResource(b.defs)
			if c, ok := res.(resource.ResourceWithConfigure); ok {
				var cresp resource.ConfigureResponse
				c.Configure(ctx, resource.ConfigureRequest{ProviderData: b.providerData}, &cresp)
				if cresp.Diagnostics.HasError() {
					push(list.ListResult{Diagnostics: cresp.Diagnostics})
					return
				}
			}
		}
		var sent int64
		for _, o := range objs {
			if req.Limit > 0 && sent >= req.Limit {
				return
			}
			result := req.NewListResult(ctx)
			result.DisplayName = o.Name
			if result.DisplayName == "" {
				result.DisplayName = o.ID
			}
			setIdentity(ctx, result.Identity, b.platform, o.ID)
			if res != nil && !result.Diagnostics.HasError() {
				if gone := readAsImported(ctx, res, req, o.ID, &result); gone {
					continue
				}
			}
			sent++
			if !push(result) {
				return
			}
		}
	}
}

// readAsImported fills result.Resource by running the resource's Read on a
// state holding only id, marked as just imported: what `terraform apply`
// of the generated import block stores. gone is true when the object
// disappeared since the listing.
func readAsImported(ctx context.Context, res resource.Resource, req list.ListRequest, id string, result *list.ListResult) (gone bool) {
	state := tfsdk.State{Schema: req.ResourceSchema, Raw: tftypes.NewValue(req.ResourceSchema.Type().TerraformType(ctx), nil)}
	result.Diagnostics.Append(state.SetAttribute(ctx, path.Root("id"), id)...)
	if result.Diagnostics.HasError() {
		return false
	}
	readReq := resource.ReadRequest{State: state}
	readReq.Private = newOf(readReq.Private)
	result.Diagnostics.Append(readReq.Private.SetKey(ctx, privateKeyImporting, []byte("true"))...)
	readResp := resource.ReadResponse{
		State:    tfsdk.State{Schema: req.ResourceSchema, Raw: state.Raw.Copy()},
		Private:  readReq.Private,
		Identity: result.Identity,
	}
	res.Read(ctx, readReq, &readResp)
	if readResp.State.Raw.IsNull() && !readResp.Diagnostics.HasError() {
		return true
	}
	result.Diagnostics.Append(readResp.Diagnostics...)
	result.Resource = &tfsdk.Resource{Schema: req.ResourceSchema, Raw: readResp.State.Raw}
	return false
}

// newOf returns a new zero value of what p points to: the framework's
// private state data, whose type is internal to it.
func newOf[T any](_ *T) *T { return new(T) }

// listNameFilter is the name filters every list offers: exact name, prefix
// and regular expression.
type listNameFilter struct {
	Name       types.String `tfsdk:"name"`
	NamePrefix types.String `tfsdk:"name_prefix"`
	NameRegex  types.String `tfsdk:"name_regex"`
}

// matcher returns the test the name filters make (nil regexp: invalid,
// reported in diags).
func (f listNameFilter) matcher(diags *diag.Diagnostics) func(string) bool {
	var re *regexp.Regexp
	if expr := f.NameRegex.ValueString(); expr != "" {
		var err error
		if re, err = regexp.Compile(expr); err != nil {
			diags.AddAttributeError(path.Root("name_regex"), "Invalid regular expression", "name_regex: "+err.Error())
			return nil
		}
	}
	name, prefix := f.Name.ValueString(), f.NamePrefix.ValueString()
	return func(n string) bool {
		return (name == "" || n == name) && strings.HasPrefix(n, prefix) && (re == nil || re.MatchString(n))
	}
}

// listNameAttributes are the name filters' schema, for objects of kind.
func listNameAttributes(kind string) map[string]listschema.Attribute {
	return map[string]listschema.Attribute{
		"name": listschema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("Only %s named exactly this.", plural(kind)),
			Optional:            true,
		},
		"name_prefix": listschema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("Only %s whose name starts with this, e.g. `team-a-`.", plural(kind)),
			Optional:            true,
		},
		"name_regex": listschema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("Only %s whose name matches this Go (RE2) regular expression, e.g. `^ci-[0-9]+$`. "+
				"An invalid expression is an error.", plural(kind)),
			Optional:   true,
			Validators: []validator.String{goRegexpValidator{}},
		},
	}
}

// listLabelsAttribute is the labels filter's schema, for objects of kind.
func listLabelsAttribute(kind string) listschema.MapAttribute {
	return listschema.MapAttribute{
		MarkdownDescription: fmt.Sprintf("Only %s carrying every one of these labels (other labels may be present too). "+
			"The provider's reserved `%s` keys cannot be given.", plural(kind), platform.LabelPrefix),
		ElementType: types.StringType,
		Optional:    true,
		Validators:  []validator.Map{labelKeysValidator{}},
	}
}

// listDescription is the description every list resource starts with.
func listDescription(kind, filters string) string {
	return fmt.Sprintf("Finds the existing %s on the configured platform that the provider may manage, for `terraform query` "+
		"(Terraform ≥ 1.14; a `list \"sbx_%s\"` block in a `.tfquery.hcl` file). %s Each result carries the %s's identity "+
		"(`id` and `platform`), so `terraform query -generate-config-out=FILE` writes a `resource` block and an `import` block "+
		"for each, and `terraform apply` imports them with nothing else to change. See the bulk import guide.",
		plural(kind), kind, filters, kind)
}

// plural is the plural of an object kind ("volume", "sandbox") in
// descriptions and messages.
func plural(kind string) string {
	if strings.HasSuffix(kind, "x") {
		return kind + "es"
	}
	return kind + "s"
}
