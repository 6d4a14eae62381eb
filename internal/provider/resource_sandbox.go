package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// Placeholder: replaced by the full implementation.

var _ resource.Resource = (*sandboxResource)(nil)

type sandboxResource struct{}

// NewSandboxResource returns the sbx_sandbox resource.
func NewSandboxResource() resource.Resource { return &sandboxResource{} }

func (r *sandboxResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_sandbox"
}

func (r *sandboxResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{"id": schema.StringAttribute{Computed: true}}}
}

func (r *sandboxResource) Create(context.Context, resource.CreateRequest, *resource.CreateResponse) {}
func (r *sandboxResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse)       {}
func (r *sandboxResource) Update(context.Context, resource.UpdateRequest, *resource.UpdateResponse) {}
func (r *sandboxResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
