package provider

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/listing"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

var (
	_ list.ListResource              = (*volumeList)(nil)
	_ list.ListResourceWithConfigure = (*volumeList)(nil)
)

// volumeList is the sbx_volume list resource: the volumes on the platform,
// made by anyone, by name, labels and (where the platform labels volumes)
// who made them.
type volumeList struct{ listBase }

func newVolumeList(defs []platform.Definition) list.ListResource {
	return &volumeList{listBase{defs: defs, kind: "volume", newResource: newVolumeResource}}
}

// volumeListModel is the list block's configuration.
type volumeListModel struct {
	listNameFilter
	listProvenanceFilter
	Labels types.Map `tfsdk:"labels"`
}

func (l *volumeList) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_volume"
}

func (l *volumeList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	attrs := listNameAttributes("volume")
	attrs["labels"] = listLabelsAttribute("volume")
	maps.Copy(attrs, listProvenanceAttributes(l.defs, "volume", platform.AttrVolumeLabels))
	resp.Schema = listschema.Schema{
		MarkdownDescription: listDescription("volume", "Every volume the filters match is listed, whoever made it (the platform's own "+
			"command line, a script, another state): importing is how a team takes ownership of them. "+
			"`made_by_provider` and `owner` narrow the list by who made a volume, where the platform labels volumes. "+
			"No filter lists them all; with several, a volume matches all of them."),
		Attributes: attrs,
	}
}

func (l *volumeList) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	if !l.ready(resp) {
		return
	}
	var m volumeListModel
	diags := req.Config.Get(ctx, &m)
	labels := mapFromTF(ctx, m.Labels, &diags)
	match := m.matcher(&diags)
	m.check(l.platform, "volume", platform.AttrVolumeLabels, &diags)
	if diags.HasError() {
		resp.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	all, err := listing.Twice(ctx, func(ctx context.Context) ([]platform.Volume, error) {
		return l.platform.Volumes().List(ctx, platform.VolumeFilter{Name: m.Name.ValueString(), Labels: labels})
	}, func(v platform.Volume) string { return v.ID })
	if err != nil {
		addPlatformError(&diags, "list", "volumes", "", err)
		resp.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	var objs []listedObject
	for _, v := range all {
		if match(v.Name) && platform.MatchLabels(v.Labels, labels) && m.matches(v.Managed, v.MadeWith) {
			objs = append(objs, listedObject{ID: v.ID, Name: v.Name})
		}
	}
	resp.Results = l.results(ctx, req, objs)
}
