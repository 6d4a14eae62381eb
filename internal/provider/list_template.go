package provider

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/listing"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

var (
	_ list.ListResource              = (*templateList)(nil)
	_ list.ListResourceWithConfigure = (*templateList)(nil)
)

// templateList is the sbx_template list resource: the templates the
// platform's template listing returns (on platforms that label them, those
// the provider built), by name and labels.
type templateList struct{ listBase }

func newTemplateList(defs []platform.Definition) list.ListResource {
	return &templateList{listBase{defs: defs, kind: "template", newResource: newTemplateResource}}
}

// templateListModel is the list block's configuration.
type templateListModel struct {
	listNameFilter
	listProvenanceFilter
	Labels types.Map `tfsdk:"labels"`
}

func (l *templateList) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_template"
}

func (l *templateList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	attrs := listNameAttributes("template")
	attrs["labels"] = listLabelsAttribute("template")
	maps.Copy(attrs, listProvenanceAttributes(l.defs, "template", platform.AttrTemplateLabels))
	resp.Schema = listschema.Schema{
		MarkdownDescription: listDescription("template", "Where a template is only a record in Terraform state "+
			"(platforms that hold no templates of their own"+platformsAside(definitionsOr(l.defs), func(c platform.Capabilities) bool {
			return !c.TemplatesListed
		})+"), listing is an error. Where templates carry no labels, every template of the account is listed, whoever "+
			"made it, and `made_by_provider` and `owner` are an error; where they do, an image is known as a template only by "+
			"this provider's labels, so the templates listed are those it made. No filter lists them all; with several, a "+
			"template matches all of them."),
		Attributes: attrs,
	}
}

func (l *templateList) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	if !l.ready(resp) {
		return
	}
	var m templateListModel
	diags := req.Config.Get(ctx, &m)
	labels := mapFromTF(ctx, m.Labels, &diags)
	match := m.matcher(&diags)
	m.check(l.platform, "template", platform.AttrTemplateLabels, &diags)
	if !diags.HasError() && !l.platform.Capabilities().TemplatesListed {
		diags.AddError("Templates are not listed on "+l.platform.Name(),
			l.platform.Name()+" holds no templates of its own (a template is a record in Terraform state), so there is none to find. "+
				"Write the sbx_template resources instead.")
	}
	if diags.HasError() {
		resp.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	all, err := listing.Twice(ctx, func(ctx context.Context) ([]platform.Template, error) {
		return l.platform.Templates().List(ctx, platform.TemplateFilter{Name: m.Name.ValueString()})
	}, func(tpl platform.Template) string { return tpl.ID })
	if err != nil {
		var d diag.Diagnostics
		addPlatformError(&d, "list", "templates", "", err)
		resp.Results = list.ListResultsStreamDiagnostics(d)
		return
	}
	var objs []listedObject
	for _, t := range all {
		if match(t.Name) && platform.MatchLabels(platform.UserLabels(t.Labels), labels) && m.matches(t.Managed, t.MadeWith) {
			objs = append(objs, listedObject{ID: t.ID, Name: t.Name})
		}
	}
	resp.Results = l.results(ctx, req, objs)
}
