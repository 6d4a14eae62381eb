package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

// Placeholder: replaced by the full implementation.

var _ datasource.DataSource = (*volumeDataSource)(nil)

type volumeDataSource struct{}

// NewVolumeDataSource returns the sbx_volume data source.
func NewVolumeDataSource() datasource.DataSource { return &volumeDataSource{} }

func (d *volumeDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_volume"
}

func (d *volumeDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{"id": schema.StringAttribute{Computed: true}}}
}

func (d *volumeDataSource) Read(context.Context, datasource.ReadRequest, *datasource.ReadResponse) {}
