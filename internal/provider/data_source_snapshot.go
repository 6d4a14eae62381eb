package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

// Placeholder: replaced by the full implementation.

var _ datasource.DataSource = (*snapshotDataSource)(nil)

type snapshotDataSource struct{}

// NewSnapshotDataSource returns the sbx_snapshot data source.
func NewSnapshotDataSource() datasource.DataSource { return &snapshotDataSource{} }

func (d *snapshotDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_snapshot"
}

func (d *snapshotDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{"id": schema.StringAttribute{Computed: true}}}
}

func (d *snapshotDataSource) Read(context.Context, datasource.ReadRequest, *datasource.ReadResponse) {}
