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
	_ datasource.DataSourceWithConfigure        = (*templateDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*templateDataSource)(nil)
)

// templateDataSource finds one template by id or name, e.g. one built by
// another configuration, to start sandboxes from it.
type templateDataSource struct {
	platform platform.Platform
}

// NewTemplateDataSource returns the sbx_template data source.
func NewTemplateDataSource() datasource.DataSource { return &templateDataSource{} }

type templateDataSourceModel struct {
	ID        types.String `tfsdk:"id"`
	Name      types.String `tfsdk:"name"`
	BuildID   types.String `tfsdk:"build_id"`
	Status    types.String `tfsdk:"status"`
	CreatedAt types.String `tfsdk:"created_at"`
	Labels    types.Map    `tfsdk:"labels"`
}

func (d *templateDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_template"
}

func (d *templateDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, Computed: true}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Finds one template by `id` or by `name` (exactly one of them), e.g. a template another " +
			"configuration builds, so sandboxes here can start from it (`template_id = data.sbx_template.x.id`).",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The id of the template to read. When looking up by `name`: the id found.",
				Optional:            true,
				Validators:          []validator.String{objectIDValidator("template")},
				Computed:            true,
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "The exact name of the template to read. Several templates with this name is an error. When looking up by `id`: the template's name.",
				Optional:            true,
				Computed:            true,
			},
			"build_id":   str("The id of the template's current build; it changes with every rebuild."),
			"status":     str("The template's build status as the platform reports it."),
			"created_at": str("When the current build was made (RFC 3339)."),
			"labels": schema.MapAttribute{
				MarkdownDescription: "The template's labels (without the provider's reserved `" + platform.LabelPrefix + "` keys).",
				ElementType:         types.StringType,
				Computed:            true,
			},
		},
	}
}

func (d *templateDataSource) ConfigValidators(_ context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name")),
	}
}

func (d *templateDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.platform = platformFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *templateDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m templateDataSourceModel
	resp.Diagnostics.Append(getConfig(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}

	lookup := idOrNameLookup[platform.Template]{
		kind:         "template",
		platformName: d.platform.Name(),
		get:          d.platform.Templates().Get,
		listNamed: func(ctx context.Context, name string) ([]platform.Template, error) {
			return d.platform.Templates().List(ctx, platform.TemplateFilter{Name: name})
		},
		nameOf: func(t platform.Template) string { return t.Name },
		idOf:   func(t platform.Template) string { return t.ID },
	}
	tpl, ok := lookup.find(ctx, m.ID.ValueString(), m.Name.ValueString(), &resp.Diagnostics)
	if !ok {
		return
	}

	m.ID = types.StringValue(tpl.ID)
	m.Name = types.StringValue(tpl.Name)
	m.BuildID = stringOrNull(tpl.BuildID)
	m.Status = stringOrNull(tpl.Status)
	m.CreatedAt = timeStringOrNull(tpl.CreatedAt)
	m.Labels = dsUserLabels(tpl.Labels)
	resp.Diagnostics.Append(setState(ctx, &resp.State, &m)...)
}
