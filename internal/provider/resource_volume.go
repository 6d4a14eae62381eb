package provider

import (
	"context"
	"errors"
	"regexp"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

var (
	_ resource.Resource                = (*volumeResource)(nil)
	_ resource.ResourceWithConfigure   = (*volumeResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*volumeResource)(nil)
	_ resource.ResourceWithImportState = (*volumeResource)(nil)
)

// Default waits, overridable with the timeouts block.
const (
	volumeCreateTimeout = 10 * time.Minute
	volumeUpdateTimeout = 10 * time.Minute
	volumeDeleteTimeout = 5 * time.Minute
)

// volumeNamePattern is the widest volume name any platform accepts; a
// platform that accepts a subset of it checks the name itself.
var volumeNamePattern = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_.-]*$`)

// volumeResource is sbx_volume: a persistent volume on the configured platform.
type volumeResource struct {
	// defs are the platforms the provider offers, whose tables document the
	// schema (nil: platforms.All()).
	defs     []platform.Definition
	platform platform.Platform
	// owner and names come from the provider block and the run (see providerData).
	owner string
	names *nameRegistry
}

// NewVolumeResource returns the sbx_volume resource, documented for the
// registered platforms.
func NewVolumeResource() resource.Resource { return newVolumeResource(nil) }

// newVolumeResource returns the sbx_volume resource of a provider offering
// defs.
func newVolumeResource(defs []platform.Definition) resource.Resource {
	return &volumeResource{defs: defs}
}

func (r *volumeResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_volume"
}

func (r *volumeResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defs := definitionsOr(r.defs)
	labelsNeedIdle := ""
	if aside := platformsAside(defs, func(c platform.Capabilities) bool {
		return c.InPlace(platform.AttrVolumeLabels) && c.VolumeLabelsNeedIdle
	}); aside != "" {
		labelsNeedIdle = " Where a volume is relabelled only while no sandbox mounts it" + aside +
			", a label change while one does is a plan-time error."
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A persistent volume that outlives the sandboxes mounting it (`sbx_sandbox.volume_mount`), " +
			"on the configured platform. Volumes that already exist import by id " +
			"(the volume's name, where the platform makes ids from names). Importing is how a volume made elsewhere comes under Terraform on " +
			"purpose: from then on the configuration owns it, and `terraform destroy` deletes it and its data like " +
			"a volume it created. A create never takes over an existing volume of its name (another state's, " +
			"one made by hand, or one a killed apply left): it fails and names the import command.",
		Attributes: map[string]schema.Attribute{
			"id": idAttribute("volume"),
			"name": schema.StringAttribute{
				MarkdownDescription: "Name of the volume (up to 255 characters: letters, digits, `_`, `.`, `-`; starting " +
					"with a letter or digit). A name another volume has is refused at apply (import that volume instead), " +
					"and two `sbx_volume` of one configuration with one name are a plan-time error. Where the platform " +
					"makes the id from the name, it is known at plan time. Changing it replaces the volume (and its data).",
				Required:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators: []validator.String{
					stringvalidator.LengthAtMost(255),
					stringvalidator.RegexMatches(volumeNamePattern,
						"must be letters, digits, '_', '.' or '-', starting with a letter or digit"),
				},
			},
			"size_gb": schema.Int64Attribute{
				CustomType: wholeNumber,
				MarkdownDescription: withPlatformNotes("Size of the volume in GB. When omitted the platform's default "+
					"size applies, and any size the volume has later (grown outside Terraform, or read by an import) is "+
					"kept: an omitted size_gb never plans a change.", defs, platform.AttrVolumeSizeGB),
				Optional:   true,
				Computed:   true,
				Validators: []validator.Int64{int64validator.AtLeast(1)},
				// Left out: whatever size the volume has (null on create).
				PlanModifiers: []planmodifier.Int64{unsetKeepsState{}},
			},
			"region": schema.StringAttribute{
				MarkdownDescription: withPlatformNotes("Region to create the volume in. When omitted the provider's or the "+
					"platform's default region applies, and this reads the region the volume got (null where the platform "+
					"has no regions).", defs, platform.AttrVolumeRegion),
				Optional: true,
				Computed: true,
				// A change replaces the volume or not as the attribute table says.
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"snapshot_retention": schema.Int64Attribute{
				CustomType: wholeNumber,
				MarkdownDescription: withPlatformNotes("How many days the platform keeps the volume's snapshots (its "+
					"automatic ones and those of `sbx_snapshot`). When omitted the platform's default applies. A change "+
					"applies to snapshots taken after it.", defs, platform.AttrVolumeSnapshotRetention),
				Optional:   true,
				Validators: []validator.Int64{int64validator.AtLeast(1)},
			},
			"from_snapshot_id": schema.StringAttribute{
				MarkdownDescription: withPlatformNotes("Id of a volume snapshot (`sbx_snapshot.x.id`) to restore into the "+
					"new volume. Changing it to another snapshot replaces the volume (and its data). **A volume restored "+
					"from a snapshot holds its own data**: when the snapshot it was restored from is gone (deleted or "+
					"expired, so its `sbx_snapshot` is created anew), the volume is kept, with its data, "+
					"`from_snapshot_id` records the configured value in place and the plan warns; run "+
					"`terraform apply -replace` to start a new volume from the new snapshot.", defs, platform.AttrVolumeFromSnapshotID),
				Optional:   true,
				Validators: []validator.String{objectIDValidator("snapshot")},
				// Replacement is ModifyPlan's: a lost snapshot never replaces
				// the volume (resource_volume_snapshot_lost.go).
			},
			"labels": schema.MapAttribute{
				MarkdownDescription: withPlatformNotes(labelsDescription("volume")+labelsNeedIdle, defs, platform.AttrVolumeLabels),
				ElementType:         types.StringType,
				Optional:            true,
				Validators:          []validator.Map{labelKeysValidator{}},
			},
			"state":      computedString("The volume's state as the platform reports it (e.g. `available`, `in_use`)."),
			"created_at": computedString("When the volume was created (RFC 3339)."),
			"attached_to": schema.ListAttribute{
				MarkdownDescription: "Ids of the sandboxes that mount the volume, as of the last refresh.",
				ElementType:         types.StringType,
				Computed:            true,
				PlanModifiers:       []planmodifier.List{listplanmodifier.UseStateForUnknown()},
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
		},
	}
}

func (r *volumeResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.platform = platformFrom(req.ProviderData, &resp.Diagnostics)
	r.owner = ownerFrom(req.ProviderData)
	r.names = namesFrom(req.ProviderData)
}

func (r *volumeResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer recordIdentity(ctx, r.platform, resp.Identity, &resp.State)
	var plan volumeModel
	resp.Diagnostics.Append(getPlan(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, volumeCreateTimeout)
	resp.Diagnostics.Append(diags...)
	spec := platform.VolumeSpec{
		Name:   plan.Name.ValueString(),
		SizeGB: plan.SizeGB.ValueInt64(),
		// In days; 0 leaves the platform's default.
		SnapshotRetentionDays: plan.SnapshotRetention.ValueInt64(),
		Region:                plan.Region.ValueString(),
		FromSnapshotID:        plan.FromSnapshotID.ValueString(),
		Labels:                mapFromTF(ctx, plan.Labels, &resp.Diagnostics),
	}
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	spec.Marks = platform.NewMarks(r.owner)
	v, err := r.platform.Volumes().Create(ctx, spec)
	if v != nil {
		// A volume that exists despite the error is saved, so Terraform
		// taints it instead of leaving it behind.
		resp.Diagnostics.Append(setState(ctx, &resp.State, volumeSettle(plan, v))...)
	}
	if err != nil {
		addPlatformError(&resp.Diagnostics, "create", "volume", spec.Name, err)
	}
}

func (r *volumeResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer recordIdentity(ctx, r.platform, resp.Identity, &resp.State, &req.State)
	var state volumeModel
	resp.Diagnostics.Append(getState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	importing := readAfterImport(ctx, req, resp)

	id := state.ID.ValueString()
	v, ok := readOrForget(ctx, resp, "volume", id, r.platform.Volumes().Get,
		func(diags *diag.Diagnostics, reason string) { addGoneWarning(diags, "volume", id, reason) })
	if !ok {
		return
	}
	volumeRefresh(&state, v, importing)
	resp.Diagnostics.Append(setState(ctx, &resp.State, state)...)
	if importing {
		endImport(ctx, resp)
	}
}

func (r *volumeResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer recordIdentity(ctx, r.platform, resp.Identity, &resp.State)
	var plan, state volumeModel
	resp.Diagnostics.Append(getPlan(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(getState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Update(ctx, volumeUpdateTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	id := state.ID.ValueString()
	vols := r.platform.Volumes()
	var v *platform.Volume

	// ModifyPlan planned a replacement for anything the attribute table
	// does not change in place; the rest is one VolumeService.Update.
	var change platform.VolumeUpdate
	if !mapsSame(plan.Labels, state.Labels) {
		labels := mapFromTF(ctx, plan.Labels, &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}
		change.Labels = &labels
	}
	if !plan.SizeGB.IsNull() && !plan.SizeGB.Equal(state.SizeGB) {
		size := plan.SizeGB.ValueInt64()
		change.SizeGB = &size
	}
	if !plan.SnapshotRetention.IsNull() && !plan.SnapshotRetention.Equal(state.SnapshotRetention) {
		days := plan.SnapshotRetention.ValueInt64()
		change.SnapshotRetentionDays = &days
	}
	if change.Labels != nil || change.SizeGB != nil || change.SnapshotRetentionDays != nil {
		got, err := vols.Update(ctx, id, change)
		if err != nil {
			addPlatformError(&resp.Diagnostics, "update", "volume", id, err)
			return
		}
		v = got
	}
	if v == nil {
		got, err := vols.Get(ctx, id)
		if err != nil {
			addPlatformError(&resp.Diagnostics, "read", "volume", id, err)
			return
		}
		v = got
	}
	resp.Diagnostics.Append(setState(ctx, &resp.State, volumeSettle(plan, v))...)
}

func (r *volumeResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state volumeModel
	resp.Diagnostics.Append(getState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := state.Timeouts.Delete(ctx, volumeDeleteTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	err := r.platform.Volumes().Delete(ctx, state.ID.ValueString())
	if err != nil && !errors.Is(err, platform.ErrNotFound) {
		addPlatformError(&resp.Diagnostics, "delete", "volume", state.ID.ValueString(), err)
	}
}

func (r *volumeResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if !importExisting(ctx, r.platform, "volume", r.owner, func(ctx context.Context, id string) (platform.Marks, error) {
		v, err := r.platform.Volumes().Get(ctx, id)
		if err != nil {
			return platform.Marks{}, err
		}
		return v.MadeWith, nil
	}, req, resp) {
		return
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateKeyImporting, []byte("true"))...)
}
