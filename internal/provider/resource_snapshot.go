package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// Placeholder: replaced by the full implementation.

var _ resource.Resource = (*snapshotResource)(nil)

type snapshotResource struct{}

// NewSnapshotResource returns the sbx_snapshot resource.
func NewSnapshotResource() resource.Resource { return &snapshotResource{} }

func (r *snapshotResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_snapshot"
}

func (r *snapshotResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{"id": schema.StringAttribute{Computed: true}}}
}

func (r *snapshotResource) Create(context.Context, resource.CreateRequest, *resource.CreateResponse) {}
func (r *snapshotResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse)       {}
func (r *snapshotResource) Update(context.Context, resource.UpdateRequest, *resource.UpdateResponse) {}
func (r *snapshotResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
