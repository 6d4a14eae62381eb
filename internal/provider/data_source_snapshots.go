package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

var _ datasource.DataSourceWithConfigure = (*snapshotsDataSource)(nil)

// snapshotsDataSource lists every snapshot matching the filters, newest first.
type snapshotsDataSource struct {
	// defs are the platforms the provider offers, whose tables document the
	// schema (nil: platforms.All()).
	defs      []platform.Definition
	platform  platform.Platform
	retention retentionSettings
}

// newSnapshotsDataSource returns the sbx_snapshots data source of a provider
// offering defs.
func newSnapshotsDataSource(defs []platform.Definition) datasource.DataSource {
	return &snapshotsDataSource{defs: defs}
}

type snapshotsDataSourceModel struct {
	snapshotFilterModel
	IDs       types.List `tfsdk:"ids"`
	Snapshots types.List `tfsdk:"snapshots"`
}

func (d *snapshotsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_snapshots"
}

func (d *snapshotsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defs := definitionsOr(d.defs)
	undated := platformsAside(defs, snapshotNoCreatedAt)
	attrs := snapshotFilterAttributes(false)
	attrs["ids"] = schema.ListAttribute{
		MarkdownDescription: "The ids of the matching snapshots, in the same order as `snapshots`.",
		ElementType:         types.StringType,
		Computed:            true,
	}
	attrs["snapshots"] = schema.ListNestedAttribute{
		MarkdownDescription: "The matching snapshots, newest first by `created_at` (ties broken by id, so the order is stable). " +
			"Where the platform does not report when a snapshot was made" + undated + ", `created_at` is null and they " +
			"are in the platform's listing order instead, which says nothing about age. Empty when none match.",
		Computed:     true,
		NestedObject: schema.NestedAttributeObject{Attributes: snapshotResultAttributes(defs)},
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists every snapshot matching the filters, newest first. With no filters: every snapshot on the platform " +
			"that has not expired. Finding none is not an error (the list is empty). Every page the platform returns is read.\n\n" +
			"**Order.** Newest first by `created_at` where the platform reports it. Where it does not" + undated +
			", the list is in the platform's own listing order, which is not an age order: do not take the first item as the newest.",
		Attributes: attrs,
	}
}

func (d *snapshotsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.platform = platformFrom(req.ProviderData, &resp.Diagnostics)
	d.retention = retentionFrom(req.ProviderData)
}

func (d *snapshotsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m snapshotsDataSourceModel
	resp.Diagnostics.Append(getConfig(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	q := m.query(ctx, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	matches := listSnapshots(ctx, d.platform, q, d.retention.now(), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	caps := d.platform.Capabilities()

	ids := make([]attr.Value, 0, len(matches))
	objs := make([]attr.Value, 0, len(matches))
	for _, s := range matches {
		o, diags := snapshotResultObject(caps, s)
		resp.Diagnostics.Append(diags...)
		ids = append(ids, types.StringValue(s.ID))
		objs = append(objs, o)
	}
	resp.Diagnostics.Append(m.setLists(ids, objs)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(setState(ctx, &resp.State, &m)...)
}

func (m *snapshotsDataSourceModel) setLists(ids, objs []attr.Value) (diags diag.Diagnostics) {
	var d diag.Diagnostics
	m.IDs, d = types.ListValue(types.StringType, ids)
	diags.Append(d...)
	m.Snapshots, d = types.ListValue(types.ObjectType{AttrTypes: snapshotResultAttrTypes}, objs)
	diags.Append(d...)
	return diags
}
