package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

var (
	_ datasource.DataSourceWithConfigure        = (*snapshotDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*snapshotDataSource)(nil)
)

// snapshotDataSource finds one snapshot, by id or by filters.
type snapshotDataSource struct {
	// defs are the platforms the provider offers, whose tables document the
	// schema (nil: platforms.All()).
	defs      []platform.Definition
	platform  platform.Platform
	retention retentionSettings
}

// newSnapshotDataSource returns the sbx_snapshot data source of a provider
// offering defs.
func newSnapshotDataSource(defs []platform.Definition) datasource.DataSource {
	return &snapshotDataSource{defs: defs}
}

type snapshotDataSourceModel struct {
	ID         types.String `tfsdk:"id"`
	MostRecent types.Bool   `tfsdk:"most_recent"`
	snapshotFilterModel
	Kind             types.String `tfsdk:"kind"`
	ParentSnapshotID types.String `tfsdk:"parent_snapshot_id"`
	SizeBytes        types.Int64  `tfsdk:"size_bytes"`
	CreatedAt        types.String `tfsdk:"created_at"`
	ExpiresAt        types.String `tfsdk:"expires_at"`
}

func (d *snapshotDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_snapshot"
}

func (d *snapshotDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defs := definitionsOr(d.defs)
	attrs := snapshotFilterAttributes(true)
	results := snapshotResultAttributes(defs)
	for _, k := range []string{"kind", "parent_snapshot_id", "size_bytes", "created_at", "expires_at"} {
		attrs[k] = results[k]
	}
	attrs["id"] = schema.StringAttribute{
		MarkdownDescription: "The id of the snapshot to read. Conflicts with every filter. When not set: the id of the snapshot the filters found.",
		Optional:            true,
		Computed:            true,
		Validators:          []validator.String{objectIDValidator("snapshot")},
	}
	attrs["most_recent"] = schema.BoolAttribute{
		MarkdownDescription: "When several snapshots match, take the newest (by `created_at`) instead of failing. Defaults to `false`. " +
			"An error on platforms that do not report when a snapshot was made" + platformsAside(defs, snapshotNoCreatedAt) +
			", since there is nothing to tell the newest " +
			"by: narrow the filters to one match there instead.",
		Optional: true,
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Finds one snapshot, by `id` or by filters (`name`, `name_regex`, `labels`, `sandbox_id`, `volume_id`). " +
			"Every page the platform returns is searched. Snapshots already past their `expires_at` are left out unless " +
			"`include_expired = true`. No match is an error, and so are several matches unless `most_recent = true`; " +
			"both errors say what was searched for and how many matched.",
		Attributes: attrs,
	}
}

func (d *snapshotDataSource) ConfigValidators(_ context.Context) []datasource.ConfigValidator {
	var out []datasource.ConfigValidator
	for _, f := range []string{"name", "name_regex", "labels", "sandbox_id", "volume_id", "most_recent", "include_expired"} {
		out = append(out, datasourcevalidator.Conflicting(path.MatchRoot("id"), path.MatchRoot(f)))
	}
	return out
}

func (d *snapshotDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.platform = platformFrom(req.ProviderData, &resp.Diagnostics)
	d.retention = retentionFrom(req.ProviderData)
}

func (d *snapshotDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m snapshotDataSourceModel
	resp.Diagnostics.Append(getConfig(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}

	caps := d.platform.Capabilities()
	if m.MostRecent.ValueBool() && !caps.SnapshotCreatedAt {
		resp.Diagnostics.AddAttributeError(path.Root("most_recent"), "most_recent is not supported on "+d.platform.Name(),
			fmt.Sprintf("most_recent = true: %s does not report when a snapshot was made, so the provider cannot tell "+
				"which match is the newest (its listing order is not an age order). Remove most_recent and narrow the "+
				"filters (name, name_regex, sandbox_id) until exactly one snapshot matches, or look it up by id.", d.platform.Name()))
		return
	}

	var found platform.Snapshot
	if id := m.ID.ValueString(); id != "" {
		s, err := d.platform.Snapshots().Get(ctx, id)
		if err != nil {
			if platform.IsNotFound(err) {
				resp.Diagnostics.AddAttributeError(path.Root("id"), "Snapshot not found",
					fmt.Sprintf("No snapshot with id %q exists on %s.", id, d.platform.Name()))
				return
			}
			addPlatformError(&resp.Diagnostics, "read", "snapshot", id, err)
			return
		}
		found = *s
	} else {
		q := m.query(ctx, &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}
		matches := listSnapshots(ctx, d.platform, q, d.retention.now(), &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}
		if len(matches) > 1 && !caps.SnapshotCreatedAt {
			// pickSnapshot would suggest most_recent, which cannot work here.
			resp.Diagnostics.AddError("Snapshot lookup failed", snapshotAmbiguousUntimed(matches, q, d.platform.Name()))
			return
		}
		s, err := pickSnapshot(matches, m.MostRecent.ValueBool(), q)
		if err != nil {
			resp.Diagnostics.AddError("Snapshot lookup failed", err.Error())
			return
		}
		found = s
	}

	m.ID = types.StringValue(found.ID)
	m.Name = stringOrNull(found.Name)
	m.SandboxID = stringOrNull(found.SandboxID)
	m.VolumeID = stringOrNull(found.VolumeID)
	m.Kind = stringOrNull(string(found.Kind))
	m.ParentSnapshotID = stringOrNull(found.ParentSnapshotID)
	m.SizeBytes = snapshotSizeOrNull(caps, found)
	m.CreatedAt = timeStringOrNull(found.CreatedAt)
	m.ExpiresAt = timeStringOrNull(found.ExpiresAt)
	// Labels show all of the snapshot's labels, a superset of a labels filter.
	m.Labels = dsUserLabels(found.Labels)
	resp.Diagnostics.Append(setState(ctx, &resp.State, &m)...)
}

// snapshotAmbiguousUntimed explains several matches on a platform that does
// not report when snapshots were made, where only narrower filters help.
func snapshotAmbiguousUntimed(matches []platform.Snapshot, q snapshotQuery, platformName string) string {
	ids := make([]string, 0, 6)
	for i, s := range matches {
		if i == 5 {
			ids = append(ids, fmt.Sprintf("and %d more", len(matches)-5))
			break
		}
		ids = append(ids, s.ID)
	}
	return fmt.Sprintf("%d snapshots matched the filters (%s): %s. %s does not report when a snapshot was made, "+
		"so most_recent cannot choose between them: narrow the filters (name, name_regex, sandbox_id) so only one "+
		"matches, or look the snapshot up by id", len(matches), q.describe(), strings.Join(ids, ", "), platformName)
}
