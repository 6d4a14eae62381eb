package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

// Placeholder: replaced by the full implementation.

var _ datasource.DataSource = (*snapshotsDataSource)(nil)

type snapshotsDataSource struct{}

// NewSnapshotsDataSource returns the sbx_snapshots data source.
func NewSnapshotsDataSource() datasource.DataSource { return &snapshotsDataSource{} }

func (d *snapshotsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_snapshots"
}

func (d *snapshotsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{"id": schema.StringAttribute{Computed: true}}}
}

func (d *snapshotsDataSource) Read(context.Context, datasource.ReadRequest, *datasource.ReadResponse) {}
