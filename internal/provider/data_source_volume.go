package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

var (
	_ datasource.DataSourceWithConfigure        = (*volumeDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*volumeDataSource)(nil)
)

// volumeDataSource finds one volume by id or name, whether or not this
// provider made it, so an existing volume can be looked up and then imported.
type volumeDataSource struct {
	// defs are the platforms the provider offers, whose tables document the
	// schema (nil: platforms.All()).
	defs     []platform.Definition
	platform platform.Platform
}

// newVolumeDataSource returns the sbx_volume data source of a provider
// offering defs.
func newVolumeDataSource(defs []platform.Definition) datasource.DataSource {
	return &volumeDataSource{defs: defs}
}

type volumeDataSourceModel struct {
	ID         types.String `tfsdk:"id"`
	Name       types.String `tfsdk:"name"`
	SizeGB     types.Int64  `tfsdk:"size_gb"`
	Region     types.String `tfsdk:"region"`
	State      types.String `tfsdk:"state"`
	CreatedAt  types.String `tfsdk:"created_at"`
	AttachedTo types.List   `tfsdk:"attached_to"`
	Labels     types.Map    `tfsdk:"labels"`
	Managed    types.Bool   `tfsdk:"managed"`
}

func (d *volumeDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_volume"
}

func (d *volumeDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, Computed: true}
	}
	defs := definitionsOr(d.defs)
	unsized := platformsAside(defs, func(c platform.Capabilities) bool { return !c.Accepts(platform.AttrVolumeSizeGB) })
	placeless := platformsAside(defs, func(c platform.Capabilities) bool { return !c.Accepts(platform.AttrVolumeRegion) })
	resp.Schema = schema.Schema{
		MarkdownDescription: "Finds one volume by `id` or by `name` (exactly one of them). It also finds volumes this provider " +
			"did not make (made by hand or by another tool): look one up, then bring it under Terraform with an `import` block.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The id of the volume to read. When looking up by `name`: the id found; use it to import the volume.",
				Optional:            true,
				Validators:          []validator.String{objectIDValidator("volume")},
				Computed:            true,
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "The exact name of the volume to read. Several volumes with this name is an error. When looking up by `id`: the volume's name.",
				Optional:            true,
				Computed:            true,
			},
			"size_gb": schema.Int64Attribute{MarkdownDescription: "Size in GB; always null where volumes have no size" +
				unsized + ".", Computed: true},
			"region":     str("Region the volume lives in; always null where volumes have no region" + placeless + "."),
			"state":      str("The volume's state as the platform reports it."),
			"created_at": str("When the volume was created (RFC 3339)."),
			"attached_to": schema.ListAttribute{
				MarkdownDescription: "Ids of the sandboxes that mount the volume.",
				ElementType:         types.StringType,
				Computed:            true,
			},
			"labels": schema.MapAttribute{
				MarkdownDescription: "The volume's labels (without the provider's reserved `" + platform.LabelPrefix + "` keys).",
				ElementType:         types.StringType,
				Computed:            true,
			},
			"managed": schema.BoolAttribute{
				MarkdownDescription: "Whether this provider created the volume. `false` for volumes made outside Terraform, which can be imported.",
				Computed:            true,
			},
		},
	}
}

func (d *volumeDataSource) ConfigValidators(_ context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name")),
	}
}

func (d *volumeDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.platform = platformFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *volumeDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m volumeDataSourceModel
	resp.Diagnostics.Append(getConfig(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}

	lookup := idOrNameLookup[platform.Volume]{
		kind:         "volume",
		platformName: d.platform.Name(),
		get:          d.platform.Volumes().Get,
		listNamed: func(ctx context.Context, name string) ([]platform.Volume, error) {
			return d.platform.Volumes().List(ctx, platform.VolumeFilter{Name: name})
		},
		nameOf: func(v platform.Volume) string { return v.Name },
		idOf:   func(v platform.Volume) string { return v.ID },
	}
	v, ok := lookup.find(ctx, m.ID.ValueString(), m.Name.ValueString(), &resp.Diagnostics)
	if !ok {
		return
	}

	m.ID = types.StringValue(v.ID)
	m.Name = types.StringValue(v.Name)
	m.SizeGB = types.Int64Null()
	if v.SizeGB > 0 {
		m.SizeGB = types.Int64Value(v.SizeGB)
	}
	m.Region = stringOrNull(v.Region)
	m.State = stringOrNull(v.State)
	m.CreatedAt = timeStringOrNull(v.CreatedAt)
	attached, diags := types.ListValueFrom(ctx, types.StringType, nonNilStrings(v.AttachedTo))
	resp.Diagnostics.Append(diags...)
	m.AttachedTo = attached
	m.Labels = dsUserLabels(v.Labels)
	m.Managed = types.BoolValue(v.Managed)
	resp.Diagnostics.Append(setState(ctx, &resp.State, &m)...)
}

// nonNilStrings makes a nil slice empty, so a result list is [] rather than null.
func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
