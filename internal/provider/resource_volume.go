package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// Placeholder: replaced by the full implementation.

var _ resource.Resource = (*volumeResource)(nil)

type volumeResource struct{}

// NewVolumeResource returns the sbx_volume resource.
func NewVolumeResource() resource.Resource { return &volumeResource{} }

func (r *volumeResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_volume"
}

func (r *volumeResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{"id": schema.StringAttribute{Computed: true}}}
}

func (r *volumeResource) Create(context.Context, resource.CreateRequest, *resource.CreateResponse) {}
func (r *volumeResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse)       {}
func (r *volumeResource) Update(context.Context, resource.UpdateRequest, *resource.UpdateResponse) {}
func (r *volumeResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
