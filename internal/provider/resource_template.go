package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// Placeholder: replaced by the full implementation.

var _ resource.Resource = (*templateResource)(nil)

type templateResource struct{}

// NewTemplateResource returns the sbx_template resource.
func NewTemplateResource() resource.Resource { return &templateResource{} }

func (r *templateResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_template"
}

func (r *templateResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{"id": schema.StringAttribute{Computed: true}}}
}

func (r *templateResource) Create(context.Context, resource.CreateRequest, *resource.CreateResponse) {}
func (r *templateResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse)       {}
func (r *templateResource) Update(context.Context, resource.UpdateRequest, *resource.UpdateResponse) {}
func (r *templateResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
