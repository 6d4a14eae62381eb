package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// Default timeouts: committing a large sandbox or archiving a large volume
// takes a while; removing an image does not.
const (
	snapshotCreateTimeout = 20 * time.Minute
	snapshotDeleteTimeout = 5 * time.Minute
)

var (
	_ resource.Resource                     = (*snapshotResource)(nil)
	_ resource.ResourceWithConfigure        = (*snapshotResource)(nil)
	_ resource.ResourceWithImportState      = (*snapshotResource)(nil)
	_ resource.ResourceWithModifyPlan       = (*snapshotResource)(nil)
	_ resource.ResourceWithUpgradeState     = (*snapshotResource)(nil)
	_ resource.ResourceWithConfigValidators = (*snapshotResource)(nil)
)

// snapshotResource is sbx_snapshot: an immutable checkpoint of a sandbox or a volume.
type snapshotResource struct {
	// defs are the platforms the provider offers, whose tables document the
	// schema (nil: platforms.All()).
	defs     []platform.Definition
	platform platform.Platform
	// owner and names come from the provider block and the run (see providerData).
	owner     string
	names     *nameRegistry
	retention retentionSettings
	// boxes: the state each sandbox resource recorded (see boxStates).
	boxes *boxStates
}

// newSnapshotResource returns the sbx_snapshot resource of a provider
// offering defs.
func newSnapshotResource(defs []platform.Definition) resource.Resource {
	return &snapshotResource{defs: defs}
}

// snapshotModel is the sbx_snapshot state and plan.
type snapshotModel struct {
	ID               types.String   `tfsdk:"id"`
	SandboxID        types.String   `tfsdk:"sandbox_id"`
	VolumeID         types.String   `tfsdk:"volume_id"`
	Name             types.String   `tfsdk:"name"`
	IncludeMemory    types.Bool     `tfsdk:"include_memory"`
	TTL              types.String   `tfsdk:"ttl"`
	Labels           types.Map      `tfsdk:"labels"`
	Kind             types.String   `tfsdk:"kind"`
	CreatedAt        types.String   `tfsdk:"created_at"`
	ExpiresAt        types.String   `tfsdk:"expires_at"`
	SizeBytes        types.Int64    `tfsdk:"size_bytes"`
	ParentSnapshotID types.String   `tfsdk:"parent_snapshot_id"`
	Timeouts         timeouts.Value `tfsdk:"timeouts"`

	// Retention, computed (resource_snapshot_retention.go).
	Platform        types.String `tfsdk:"platform"`
	RetentionRule   types.String `tfsdk:"retention_rule"`
	RetentionAction types.String `tfsdk:"retention_action"`
}

var (
	pathSnapshotSandboxID     = path.Root("sandbox_id")
	pathSnapshotVolumeID      = path.Root("volume_id")
	pathSnapshotIncludeMemory = path.Root("include_memory")
	pathSnapshotTTL           = path.Root("ttl")
)

func (r *snapshotResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_snapshot"
}

func (r *snapshotResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defs := definitionsOr(r.defs)
	resp.Schema = snapshotBaseSchema(ctx, defs)
	resp.Schema.Version = snapshotSchemaVersion
	for name, a := range retentionComputedAttributes(defs, "snapshot") {
		resp.Schema.Attributes[name] = a
	}
}

// UpgradeState reads a state saved under an earlier schema version
// (state_upgrade.go).
func (r *snapshotResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return snapshotStateUpgraders()
}

// snapshotBaseSchema is sbx_snapshot without its retention attributes,
// documented for the platforms defs.
func snapshotBaseSchema(ctx context.Context, defs []platform.Definition) schema.Schema {
	replaceString := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	memory := func(c platform.Capabilities) bool {
		return c.Accepts(platform.AttrSnapshotSandboxID) && c.AcceptsValue(platform.AttrSnapshotIncludeMemory, "true")
	}
	volumes := func(c platform.Capabilities) bool { return c.Accepts(platform.AttrSnapshotVolumeID) }
	sourceUnreported := func(c platform.Capabilities) bool { return !c.SnapshotSourceReported }
	undeletable := func(c platform.Capabilities) bool { return !c.SnapshotDelete }
	kindsUndeletable := func(c platform.Capabilities) bool { return c.SnapshotDelete && len(c.SnapshotUndeletableKinds) > 0 }
	// The source never replaces an existing snapshot by changing: ModifyPlan
	// keeps it (resource_snapshot_source.go).
	return schema.Schema{
		MarkdownDescription: "An immutable snapshot of a sandbox's filesystem, with its memory on platforms that take " +
			"memory snapshots" + platformsAside(defs, memory) + ", or of a volume's contents, on platforms that " +
			"snapshot volumes" + platformsAside(defs, volumes) + ". Restore it by giving its id to " +
			"`sbx_sandbox.from_snapshot_id` or `sbx_volume.from_snapshot_id`: restoring always makes a **new** object. " +
			"What a snapshot is on each platform is under `sandbox_id` and `volume_id`.\n\n" +
			"**A snapshot is a checkpoint.** A change or loss of its source never replaces it: when `sandbox_id` or " +
			"`volume_id` changes (another box, or the box replaced or deleted outside Terraform, so its id is known only " +
			"after apply), the snapshot is kept with the data it holds, the source it was taken of stays in state, and " +
			"the plan warns. To take a new snapshot when the source changes, add a new resource, run " +
			"`terraform apply -replace`, or add `lifecycle { replace_triggered_by = [sbx_sandbox.<name>.id] }`. " +
			"`replace_triggered_by` sees a box Terraform replaces; a box deleted outside Terraform is created anew, which " +
			"it does not see: point it at a `terraform_data` whose `triggers_replace` is the box's id instead. Switching " +
			"between `sandbox_id` and `volume_id`, and changing any other argument, replaces the snapshot.\n\n" +
			"**Import.** By id; an id that is not a snapshot (a template image, another image, a sandbox) is an import " +
			"error saying what it is. `ttl` is not recoverable from the platform and stays null after an import. Where the " +
			"platform does not report which sandbox or volume a snapshot came from" + platformsAside(defs, sourceUnreported) +
			", the configured `sandbox_id` is " +
			"recorded in place on the first plan, with a warning when the platform does not confirm it.\n\n" +
			"**Destroy.** Where the platform cannot delete snapshots" + platformsAside(defs, undeletable) +
			", or cannot delete snapshots of its `kind`" + platformsAside(defs, kindsUndeletable) + ", destroying one only " +
			"removes it from the state, with a warning at plan time and at destroy giving when the platform deletes it by itself.",
		Attributes: map[string]schema.Attribute{
			"id": idAttribute("snapshot"),
			"sandbox_id": schema.StringAttribute{
				MarkdownDescription: withPlatformNotes("Id of the sandbox to snapshot. Exactly one of `sandbox_id` and "+
					"`volume_id` must be set. Changing it does not replace an existing snapshot: it keeps the sandbox it "+
					"was taken of, with a plan warning (see above).", defs, platform.AttrSnapshotSandboxID),
				Optional:   true,
				Validators: []validator.String{objectIDValidator("sandbox")},
			},
			"volume_id": schema.StringAttribute{
				MarkdownDescription: withPlatformNotes("Id of the volume to snapshot. Exactly one of `sandbox_id` and "+
					"`volume_id` must be set. Changing it does not replace an existing snapshot: it keeps the volume it "+
					"was taken of, with a plan warning (see above).", defs, platform.AttrSnapshotVolumeID),
				Optional:   true,
				Validators: []validator.String{objectIDValidator("volume")},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "Name of the snapshot, for finding it again (e.g. with the `sbx_snapshot` " +
					"data source). When left out, the platform's own name (if any) is shown. Changing it " +
					"replaces the snapshot.",
				Optional: true,
				Computed: true,
				PlanModifiers: []planmodifier.String{
					stringplanmodifier.UseStateForUnknown(),
					stringplanmodifier.RequiresReplace(),
				},
			},
			"include_memory": schema.BoolAttribute{
				MarkdownDescription: withPlatformNotes("Whether the snapshot also holds the sandbox's memory, so a restored "+
					"sandbox resumes running processes. When left out, the platform's natural kind is planned: `true` "+
					"where the platform takes memory snapshots only, else `false` (filesystem only), and `false` for "+
					"volume snapshots, so one module snapshots on every platform. An explicit value the platform cannot "+
					"honour is a plan-time error. Not allowed with `volume_id`.", defs, platform.AttrSnapshotIncludeMemory),
				Optional: true,
				Computed: true,
				PlanModifiers: []planmodifier.Bool{
					// Kept from state when left out, so removing an explicit
					// value that matched the platform's kind changes nothing.
					boolplanmodifier.UseStateForUnknown(),
					boolplanmodifier.RequiresReplace(),
				},
			},
			"ttl": schema.StringAttribute{
				MarkdownDescription: withPlatformNotes("How long the platform keeps the snapshot before deleting it, as a "+
					"positive duration such as `72h` or `30d`.", defs, platform.AttrSnapshotTTL),
				Optional:      true,
				PlanModifiers: replaceString,
				Validators:    []validator.String{positiveDurationValidator{}},
			},
			"labels": schema.MapAttribute{
				MarkdownDescription: withPlatformNotes(labelsDescription("snapshot")+" Snapshots are immutable: changing "+
					"labels replaces the snapshot.", defs, platform.AttrSnapshotLabels),
				ElementType: types.StringType,
				Optional:    true,
				Validators:  []validator.Map{labelKeysValidator{}},
				PlanModifiers: []planmodifier.Map{mapplanmodifier.RequiresReplaceIf(snapshotLabelsChanged,
					"Changing the labels replaces the snapshot.", "Changing the labels replaces the snapshot.")},
			},
			"kind": computedString("What the snapshot holds: `filesystem` (a sandbox's files), `memory` " +
				"(files and memory) or `volume` (a volume's contents)."),
			"created_at": computedString("When the snapshot was taken (RFC 3339); null where the platform does not " +
				"report it" + platformsAside(defs, snapshotNoCreatedAt) + "."),
			"size_bytes": schema.Int64Attribute{
				MarkdownDescription: "Size of the snapshot in bytes, as the platform reports it; null where the platform " +
					"does not report sizes" + platformsAside(defs, snapshotNoSize) + ".",
				Computed:      true,
				PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"parent_snapshot_id": computedString("Lineage: the snapshot the source sandbox was restored from " +
				"(`sbx_sandbox.from_snapshot_id`); null when the sandbox started from a template, and for volume snapshots."),
		},
		Blocks: map[string]schema.Block{
			"timeouts": timeoutsBlockDescribed(ctx, timeouts.Opts{Create: true, Delete: true},
				"How long to wait for the snapshot to be taken (`create`, default 20m) and removed "+
					"(`delete`, default 5m). Go duration strings such as `30m`."),
		},
	}
}

func (r *snapshotResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.platform = platformFrom(req.ProviderData, &resp.Diagnostics)
	r.owner = ownerFrom(req.ProviderData)
	r.names = namesFrom(req.ProviderData)
	r.retention = retentionFrom(req.ProviderData)
	r.boxes = boxStatesFrom(req.ProviderData)
}

func (r *snapshotResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer recordIdentity(ctx, r.platform, resp.Identity, &resp.State)
	var plan snapshotModel
	resp.Diagnostics.Append(getPlan(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, snapshotCreateTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	spec := platform.SnapshotSpec{
		SandboxID:     plan.SandboxID.ValueString(),
		VolumeID:      plan.VolumeID.ValueString(),
		Name:          plan.Name.ValueString(),
		IncludeMemory: plan.IncludeMemory.ValueBool(),
		Labels:        mapFromTF(ctx, plan.Labels, &resp.Diagnostics),
		// How the box's resource recorded it, should the platform have to
		// resume a paused box for the snapshot and pause it again.
		SandboxState: r.boxes.get(plan.SandboxID.ValueString()),
	}
	if ttl := plan.TTL.ValueString(); ttl != "" {
		// Already validated; parse again only to hand the platform a duration.
		spec.TTL = durationFromTF(plan.TTL)
	}
	if resp.Diagnostics.HasError() {
		return
	}

	spec.Marks = platform.NewMarks(r.owner)
	snap, err := r.platform.Snapshots().Create(ctx, spec)
	if snap != nil {
		// Save the snapshot as soon as it exists, even if something after
		// failed, so it is never orphaned.
		plan.applySnapshot(r.platform.Capabilities(), snap)
		snapshotSetRetention(&plan, snap, r.platform.Name(), r.retention.orDefault())
		resp.Diagnostics.Append(setState(ctx, &resp.State, &plan)...)
		recordSnapshotCreated(ctx, resp.Private, &resp.Diagnostics)
	}
	if err != nil {
		addPlatformError(&resp.Diagnostics, "create", "snapshot", "", fmt.Errorf("snapshot of %s: %w", snapshotSourceID(spec), err))
	}
}

func (r *snapshotResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer recordIdentity(ctx, r.platform, resp.Identity, &resp.State, &req.State)
	var state snapshotModel
	resp.Diagnostics.Append(getState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	snap, ok := readOrForget(ctx, resp, "snapshot", id, r.platform.Snapshots().Get,
		func(diags *diag.Diagnostics, reason string) {
			addGoneOrExpiredWarning(diags, "snapshot", id, r.platform.Name(), snapshotRetentionOf(state), r.retention.now(), reason)
		})
	if !ok {
		return
	}
	state.applySnapshot(r.platform.Capabilities(), snap)
	snapshotSetRetention(&state, snap, r.platform.Name(), r.retention.orDefault())
	resp.Diagnostics.Append(setState(ctx, &resp.State, &state)...)
}

// Update only ever sees a change of the timeouts block: every other argument
// replaces the snapshot.
func (r *snapshotResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer recordIdentity(ctx, r.platform, resp.Identity, &resp.State)
	var plan snapshotModel
	resp.Diagnostics.Append(getPlan(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("expires_at"), &plan.ExpiresAt)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("parent_snapshot_id"), &plan.ParentSnapshotID)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(setState(ctx, &resp.State, &plan)...)
}

func (r *snapshotResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state snapshotModel
	resp.Diagnostics.Append(getState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if caps := r.platform.Capabilities(); snapshotUndeletable(caps, state.Kind) {
		// Returning without error removes it from state; the platform
		// deletes it at its own deadline.
		resp.Diagnostics.AddWarning("Snapshot removed from state only",
			fmt.Sprintf("%s cannot delete %s: snapshot %q was removed from the Terraform state but still exists. %s",
				r.platform.Name(), snapshotUndeletableWhat(caps, state.Kind), state.ID.ValueString(),
				snapshotExpiryPhrase(state.ExpiresAt)))
		return
	}
	timeout, diags := state.Timeouts.Delete(ctx, snapshotDeleteTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	// Only a snapshot the provider took is deleted (resource_snapshot_unrecorded.go).
	if forgetUnrecorded(ctx, r.platform, req.Private, state.ID.ValueString(), rest.SleepContext, &resp.Diagnostics) {
		return
	}
	err := r.platform.Snapshots().Delete(ctx, state.ID.ValueString())
	if err != nil && !platform.IsNotFound(err) {
		addPlatformError(&resp.Diagnostics, "delete", "snapshot", state.ID.ValueString(), err)
	}
}

// ImportState checks that the id is a snapshot first, so the id of anything
// else (a template's image, a sandbox) is an error saying what it is, not a
// "non-existent remote object"; so is an image the platform cannot tell
// from a snapshot and has no record of the provider taking as one.
func (r *snapshotResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importExisting(ctx, r.platform, "snapshot", "", func(ctx context.Context, id string) (platform.Marks, error) {
		return snapshotToImport(ctx, r.platform.Snapshots(), id, rest.SleepContext)
	}, req, resp)
}

// applySnapshot records what the platform reports, per its capability row:
// what it does not report (creation time, size) is null. The source ids are
// kept as planned or stored and fill in only after an import; ttl is not
// reported back and keeps its state value.
func (m *snapshotModel) applySnapshot(caps platform.Capabilities, s *platform.Snapshot) {
	m.ID = types.StringValue(s.ID)
	keepSourceFromState(m, s)
	switch {
	case s.Name != "":
		m.Name = types.StringValue(s.Name)
	case m.Name.IsUnknown():
		m.Name = types.StringNull()
	}
	kind := s.Kind
	if caps.Attribute(platform.AttrSnapshotIncludeMemory).Unreported && !m.IncludeMemory.IsNull() && !m.IncludeMemory.IsUnknown() {
		// The platform does not say whether a snapshot holds memory
		// (a Replace row marked Unreported): what was asked for is what it holds.
		if m.IncludeMemory.ValueBool() {
			kind = platform.SnapshotMemory
		}
	} else {
		m.IncludeMemory = types.BoolValue(kind == platform.SnapshotMemory)
	}
	m.Labels = mapToTF(platform.UserLabels(s.Labels), m.Labels)
	m.Kind = types.StringValue(string(kind))
	// When a snapshot was made and when it expires never change: where a
	// later read cannot tell them (a platform that knows them only from a
	// record it may no longer find), the values recorded are kept.
	switch {
	case !caps.SnapshotCreatedAt:
		m.CreatedAt = types.StringNull()
	case !s.CreatedAt.IsZero() || !knownString(m.CreatedAt):
		m.CreatedAt = timeStringOrNull(s.CreatedAt)
	}
	if !s.ExpiresAt.IsZero() || !knownString(m.ExpiresAt) {
		m.ExpiresAt = timeStringOrNull(s.ExpiresAt)
	}
	// A platform that reports no size says 0; null keeps that from reading
	// as an empty snapshot.
	m.SizeBytes = types.Int64Null()
	if caps.SnapshotSize {
		m.SizeBytes = types.Int64Value(s.SizeBytes)
	}
	// Lineage never changes: where the platform tells it only when the
	// snapshot is taken, a later read keeps what was recorded.
	switch {
	case s.ParentSnapshotID != "":
		m.ParentSnapshotID = types.StringValue(s.ParentSnapshotID)
	case m.ParentSnapshotID.IsUnknown():
		m.ParentSnapshotID = types.StringNull()
	}
}

// snapshotSourceID names what a snapshot is taken of, for error messages.
func snapshotSourceID(spec platform.SnapshotSpec) string {
	if spec.VolumeID != "" {
		return fmt.Sprintf("volume %q", spec.VolumeID)
	}
	return fmt.Sprintf("sandbox %q", spec.SandboxID)
}

// snapshotExpiryPhrase tells the user when an undeletable snapshot goes away.
func snapshotExpiryPhrase(expiresAt types.String) string {
	if expiresAt.IsNull() || expiresAt.IsUnknown() || expiresAt.ValueString() == "" {
		return "The platform reported no expiry date for it; delete it with the platform's own tools if it must go."
	}
	return fmt.Sprintf("The platform deletes it by itself at %s.", expiresAt.ValueString())
}

// snapshotLabelsChanged replaces the snapshot only for a real change of its
// labels: left out and {} are the same labels.
func snapshotLabelsChanged(_ context.Context, req planmodifier.MapRequest, resp *mapplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !mapsSame(req.StateValue, req.PlanValue)
}

// knownString reports whether v holds a value: neither null nor unknown.
func knownString(v types.String) bool { return !v.IsNull() && !v.IsUnknown() }
