package provider

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/listing"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

var (
	_ list.ListResource              = (*sandboxList)(nil)
	_ list.ListResourceWithConfigure = (*sandboxList)(nil)
)

// sandboxList is the sbx_sandbox list resource: the boxes on the platform,
// made by anyone (the sbx_sandboxes data source lists only the provider's),
// by name, labels, status, retention status and who made them, newest first.
type sandboxList struct{ listBase }

func newSandboxList(defs []platform.Definition) list.ListResource {
	return &sandboxList{listBase{defs: defs, kind: "sandbox", newResource: newSandboxResource}}
}

// sandboxListModel is the list block's configuration.
type sandboxListModel struct {
	listNameFilter
	listProvenanceFilter
	Labels          types.Map    `tfsdk:"labels"`
	Status          types.String `tfsdk:"status"`
	RetentionStatus types.String `tfsdk:"retention_status"`
}

func (l *sandboxList) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_sandbox"
}

func (l *sandboxList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	attrs := listNameAttributes("sandbox")
	attrs["labels"] = listLabelsAttribute("sandbox")
	attrs["status"] = listschema.StringAttribute{
		MarkdownDescription: "Only boxes the platform reports in this normalized state: " + sandboxesMDList(sandboxReportedStates) +
			" (as the `sbx_sandboxes` data source's `status`).",
		Optional:   true,
		Validators: []validator.String{stringvalidator.OneOf(sandboxReportedStates...)},
	}
	attrs["retention_status"] = listschema.StringAttribute{
		MarkdownDescription: "Only boxes whose retention is in this status now: `ok`, `expiring` (within the provider's " +
			"`retention.warn_before`) or `expired` (as the `sbx_sandboxes` data source's `retention_status`).",
		Optional:   true,
		Validators: []validator.String{stringvalidator.OneOf(retentionStatuses...)},
	}
	maps.Copy(attrs, listProvenanceAttributes(l.defs, "sandbox", platform.AttrSandboxLabels))
	resp.Schema = listschema.Schema{
		MarkdownDescription: listDescription("sandbox", "Every box the filters match is listed, whoever made it (the platform's own "+
			"command line, SDK or console, a script, another state), newest first: importing is how a team takes ownership of "+
			"them. The `sbx_sandboxes` data source, by contrast, lists only the boxes this provider made. `made_by_provider` and "+
			"`owner` narrow the list by who made a box. A box without a name shows as its id. No filter lists them all; with "+
			"several, a box matches all of them."),
		Attributes: attrs,
	}
}

func (l *sandboxList) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	if !l.ready(resp) {
		return
	}
	var m sandboxListModel
	diags := req.Config.Get(ctx, &m)
	q := sandboxQuery{
		Labels:              mapFromTF(ctx, m.Labels, &diags),
		Status:              platform.SandboxState(m.Status.ValueString()),
		RetentionStatus:     m.RetentionStatus.ValueString(),
		PauseKindUnreported: l.platform.Capabilities().PauseKindUnreported,
	}
	match := m.matcher(&diags)
	m.check(l.platform, "sandbox", platform.AttrSandboxLabels, &diags)
	if diags.HasError() {
		resp.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	all, err := listing.Twice(ctx, func(ctx context.Context) ([]platform.Sandbox, error) {
		filter := q.platformFilter()
		filter.AnyMaker = true // a list is for importing what others made too
		return l.platform.Sandboxes().List(ctx, filter)
	}, func(sb platform.Sandbox) string { return sb.ID })
	if err != nil {
		addPlatformError(&diags, "list", "sandboxes", "", err)
		resp.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	at, name := l.retention.now(), l.platform.Name()
	var objs []listedObject
	for _, x := range selectSandboxes(all, q, func(sb platform.Sandbox) retentionFields {
		dl, ok := l.retention.policy.Deadline(sandboxRetentionObject(name, sb), at)
		return retentionFieldsOf(dl, ok, at, l.retention.warnBefore)
	}) {
		if match(x.Sandbox.Name) && m.matches(x.Sandbox.Managed, x.Sandbox.MadeWith) {
			objs = append(objs, listedObject{ID: x.Sandbox.ID, Name: x.Sandbox.Name})
		}
	}
	resp.Results = l.results(ctx, req, objs)
}
