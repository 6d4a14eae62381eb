package provider

import (
	"context"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

var (
	_ list.ListResource              = (*snapshotList)(nil)
	_ list.ListResourceWithConfigure = (*snapshotList)(nil)
)

// snapshotList is the sbx_snapshot list resource: the snapshots the
// sbx_snapshots data source finds, with the same filters and most_recent.
type snapshotList struct{ listBase }

func newSnapshotList(defs []platform.Definition) list.ListResource {
	return &snapshotList{listBase{defs: defs, kind: "snapshot", newResource: newSnapshotResource}}
}

// snapshotListModel is the list block's configuration.
type snapshotListModel struct {
	snapshotFilterModel
	listProvenanceFilter
	MostRecent types.Bool `tfsdk:"most_recent"`
}

func (l *snapshotList) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_snapshot"
}

func (l *snapshotList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	attrs := map[string]listschema.Attribute{
		"name": listschema.StringAttribute{
			MarkdownDescription: "Only snapshots with exactly this name; an error where snapshots have no names.",
			Optional:            true,
		},
		"name_regex": listschema.StringAttribute{
			MarkdownDescription: "Only snapshots whose name matches this Go (RE2) regular expression, e.g. `^nightly-`; " +
				"an error where snapshots have no names.",
			Optional:   true,
			Validators: []validator.String{goRegexpValidator{}},
		},
		"labels": listLabelsAttribute("snapshot"),
		"sandbox_id": listschema.StringAttribute{
			MarkdownDescription: "Only snapshots taken of this sandbox; an error where the platform does not record a snapshot's source.",
			Optional:            true,
			Validators:          []validator.String{objectIDValidator("sandbox")},
		},
		"volume_id": listschema.StringAttribute{
			MarkdownDescription: "Only snapshots taken of this volume; an error where the platform does not record a snapshot's source.",
			Optional:            true,
			Validators:          []validator.String{objectIDValidator("volume")},
		},
		"include_expired": listschema.BoolAttribute{
			MarkdownDescription: "Also list snapshots whose `expires_at` has already passed (the platform may delete them at any moment). Defaults to `false`.",
			Optional:            true,
		},
		"most_recent": listschema.BoolAttribute{
			MarkdownDescription: "List only the newest of the matching snapshots. Defaults to `false`.",
			Optional:            true,
		},
	}
	maps.Copy(attrs, listProvenanceAttributes(l.defs, "snapshot", platform.AttrSnapshotLabels))
	resp.Schema = listschema.Schema{
		MarkdownDescription: listDescription("snapshot", "The snapshots are those the `sbx_snapshots` data source finds with the "+
			"same filters (expired ones left out unless `include_expired`), newest first where the platform reports when a "+
			"snapshot was made; with `most_recent`, only the first of them. Where snapshots carry no labels, every snapshot "+
			"of the account is found, whoever made it (except where a snapshot is a record the provider keeps on its own "+
			"boxes: then only those), and `made_by_provider` and `owner` are an error; where they do, an image is known as a "+
			"snapshot only by this provider's labels, so the snapshots found are those it made."),
		Attributes: attrs,
	}
}

func (l *snapshotList) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	if !l.ready(resp) {
		return
	}
	var m snapshotListModel
	diags := req.Config.Get(ctx, &m)
	if diags.HasError() {
		resp.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	q := m.query(ctx, &diags)
	m.check(l.platform, "snapshot", platform.AttrSnapshotLabels, &diags)
	if diags.HasError() {
		resp.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	matches := listSnapshots(ctx, l.platform, q, l.retention.now(), &diags)
	if diags.HasError() {
		resp.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	matches = slices.DeleteFunc(matches, func(s platform.Snapshot) bool { return !m.matches(s.Managed, s.MadeWith) })
	if m.MostRecent.ValueBool() && len(matches) > 1 {
		matches = matches[:1]
	}
	objs := make([]listedObject, 0, len(matches))
	for _, s := range matches {
		objs = append(objs, listedObject{ID: s.ID, Name: s.Name})
	}
	resp.Results = l.results(ctx, req, objs)
}
