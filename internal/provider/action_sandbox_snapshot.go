package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

var (
	_ action.Action                   = (*sandboxSnapshotAction)(nil)
	_ action.ActionWithConfigure      = (*sandboxSnapshotAction)(nil)
	_ action.ActionWithModifyPlan     = (*sandboxSnapshotAction)(nil)
	_ action.ActionWithValidateConfig = (*sandboxSnapshotAction)(nil)
)

// sandboxSnapshotAction is the sbx_sandbox_snapshot action: it takes a
// snapshot of a sandbox when invoked (terraform apply -invoke, or a
// resource's action_trigger), without putting it in any state. It is the
// one-off checkpoint before a risky change; sbx_snapshot is the snapshot
// Terraform keeps.
type sandboxSnapshotAction struct {
	defs     []platform.Definition
	platform platform.Platform
	owner    string
	// retention tells the snapshot's deadline in the progress message.
	retention retentionSettings
	boxes     *boxStates
}

// newSandboxSnapshotAction returns the action for a provider offering defs
// (nil: the registered platforms).
func newSandboxSnapshotAction(defs []platform.Definition) action.Action {
	return &sandboxSnapshotAction{defs: defs}
}

// sandboxSnapshotActionModel is the action's configuration.
type sandboxSnapshotActionModel struct {
	SandboxID     types.String `tfsdk:"sandbox_id"`
	Name          types.String `tfsdk:"name"`
	IncludeMemory types.Bool   `tfsdk:"include_memory"`
	TTL           types.String `tfsdk:"ttl"`
	Labels        types.Map    `tfsdk:"labels"`
	Timeout       types.String `tfsdk:"timeout"`
}

// asSnapshot is the configuration as sbx_snapshot's, whose plan-time
// checks the action shares: the same arguments mean the same on both.
func (m sandboxSnapshotActionModel) asSnapshot() snapshotModel {
	return snapshotModel{
		SandboxID:     m.SandboxID,
		VolumeID:      types.StringNull(),
		Name:          m.Name,
		IncludeMemory: m.IncludeMemory,
		TTL:           m.TTL,
		Labels:        m.Labels,
	}
}

func (a *sandboxSnapshotAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_sandbox_snapshot"
}

func (a *sandboxSnapshotAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	defs := definitionsOr(a.defs)
	memory := func(c platform.Capabilities) bool {
		return c.Accepts(platform.AttrSnapshotSandboxID) && c.AcceptsValue(platform.AttrSnapshotIncludeMemory, "true")
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Takes a snapshot of a sandbox when invoked: with `terraform apply -invoke=action.sbx_sandbox_snapshot.<name>`, " +
			"or from a resource's `lifecycle { action_trigger { ... } }` (for example before every update of the sandbox). " +
			"Terraform 1.14 or later; OpenTofu has no actions.\n\n" +
			"It takes the same snapshot `sbx_snapshot` takes, with the same arguments and the same plan-time checks " +
			"(an argument the platform cannot honour is an error before anything runs), memory included on platforms that " +
			"take memory snapshots" + platformsAside(defs, memory) + ". **The snapshot is not in any Terraform state**: " +
			"Terraform does not delete it, and `terraform plan` and `sbx drift` do not watch its deadline. The invocation " +
			"prints its id, its deadline where the platform has one, and the `terraform import` command that puts it " +
			"under an `sbx_snapshot` resource; the `sbx_snapshot(s)` data sources find it by `name`, `labels` or sandbox. " +
			"It carries the provider block's `owner` as `sbx_snapshot`'s do, so `terraform-provider-sbx orphans` lists it " +
			"among the objects no state holds, and `orphans --delete` removes it: import the snapshots to keep. " +
			"A failed snapshot fails the apply that invoked it.",
		Attributes: map[string]schema.Attribute{
			"sandbox_id": schema.StringAttribute{
				MarkdownDescription: withActionNotes("Id of the sandbox to snapshot, usually `sbx_sandbox.<name>.id`.",
					defs, platform.AttrSnapshotSandboxID),
				Required:   true,
				Validators: []validator.String{objectIDValidator("sandbox")},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "Name of the snapshot, for finding it again (the `sbx_snapshot` data source's `name`). " +
					"Where the platform requires unique names, invoke it with a name not in use, or leave it out.",
				Optional: true,
			},
			"include_memory": schema.BoolAttribute{
				MarkdownDescription: withActionNotes("Whether the snapshot also holds the sandbox's memory. When left "+
					"out, the platform's natural kind: memory where the platform takes memory snapshots only, else "+
					"filesystem only.", defs, platform.AttrSnapshotIncludeMemory),
				Optional: true,
			},
			"ttl": schema.StringAttribute{
				MarkdownDescription: withActionNotes("How long the platform keeps the snapshot before deleting it, as a "+
					"positive duration such as `72h` or `30d`.", defs, platform.AttrSnapshotTTL),
				Optional:   true,
				Validators: []validator.String{positiveDurationValidator{}},
			},
			"labels": schema.MapAttribute{
				MarkdownDescription: withActionNotes(labelsDescription("snapshot"), defs, platform.AttrSnapshotLabels),
				ElementType:         types.StringType,
				Optional:            true,
				Validators:          []validator.Map{labelKeysValidator{}},
			},
			"timeout": schema.StringAttribute{
				MarkdownDescription: "How long to wait for the snapshot to be taken, as a duration such as `30m`. " +
					"Defaults to `20m`, as `sbx_snapshot`'s create timeout.",
				Optional:   true,
				Validators: []validator.String{positiveDurationValidator{}},
			},
		},
	}
}

func (a *sandboxSnapshotAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.platform = platformFrom(req.ProviderData, &resp.Diagnostics)
	a.owner = ownerFrom(req.ProviderData)
	a.retention = retentionFrom(req.ProviderData)
	a.boxes = boxStatesFrom(req.ProviderData)
}

// ValidateConfig judges what needs no platform: a snapshot name left empty.
func (a *sandboxSnapshotAction) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	var config sandboxSnapshotActionModel
	resp.Diagnostics.Append(getConfig(ctx, req.Config, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// An empty sandbox_id is refused by its schema validator, as every id.
	if knownString(config.Name) && strings.TrimSpace(config.Name.ValueString()) == "" {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Empty name",
			fmt.Sprintf("name = %q: give a non-empty value, or leave it out.", config.Name.ValueString()))
	}
}

// ModifyPlan rejects, at plan time, a snapshot the platform cannot take:
// the checks sbx_snapshot makes of the same arguments. It runs again at
// apply with the values that were unknown at plan.
func (a *sandboxSnapshotAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	if a.platform == nil {
		return
	}
	var config sandboxSnapshotActionModel
	resp.Diagnostics.Append(getConfig(ctx, req.Config, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	snap := config.asSnapshot()
	caps := a.platform.Capabilities()
	snapshotCheckCapabilities(a.platform.Name(), caps, snap, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if snap.IncludeMemory.IsNull() {
		snap.IncludeMemory = snapshotNaturalMemory(caps, snap)
	}
	snapshotCheckRules(ctx, a.platform, snap, &resp.Diagnostics)
}

func (a *sandboxSnapshotAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	if a.platform == nil {
		resp.Diagnostics.AddError("Provider not configured",
			"The sbx_sandbox_snapshot action ran before the provider was configured. This is a bug in the provider; please report it.")
		return
	}
	var config sandboxSnapshotActionModel
	resp.Diagnostics.Append(getConfig(ctx, req.Config, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout := snapshotCreateTimeout
	if d := durationFromTF(config.Timeout); d > 0 {
		timeout = d
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	caps := a.platform.Capabilities()
	snap := config.asSnapshot()
	if snap.IncludeMemory.IsNull() {
		snap.IncludeMemory = snapshotNaturalMemory(caps, snap)
	}
	sandboxID := config.SandboxID.ValueString()
	spec := platform.SnapshotSpec{
		SandboxID:     sandboxID,
		Name:          config.Name.ValueString(),
		IncludeMemory: snap.IncludeMemory.ValueBool(),
		TTL:           durationFromTF(config.TTL),
		Labels:        mapFromTF(ctx, config.Labels, &resp.Diagnostics),
		SandboxState:  a.boxes.get(sandboxID),
		// Marked as sbx_snapshot marks its own, so an import block takes
		// it under a resource of this provider block's owner.
		Marks: platform.NewMarks(a.owner),
	}
	if resp.Diagnostics.HasError() {
		return
	}
	progress(resp, fmt.Sprintf("Taking a %s snapshot of sandbox %q on %s.", snapshotPlannedKind(snap).ValueString(), sandboxID, a.platform.Name()))
	started := time.Now()
	made, err := a.platform.Snapshots().Create(ctx, spec)
	if err != nil {
		detail := fmt.Errorf("snapshot of %s: %w", snapshotSourceID(spec), err)
		if made != nil && made.ID != "" {
			// It exists even though something after failed: say where.
			detail = fmt.Errorf("%w. The platform made snapshot %q before the failure; it is in no Terraform state "+
				"(delete it with the platform's tools, or import it as an sbx_snapshot)", detail, made.ID)
		}
		addPlatformError(&resp.Diagnostics, "take", "snapshot", "", detail)
		return
	}
	progress(resp, sandboxSnapshotTaken(caps, made, snap, a.platform.Name(), a.retention.orDefault(), time.Since(started)))
}

// sandboxSnapshotTaken is the message of a snapshot taken: its id, what it
// holds, its deadline, and how to manage it, since no state records it.
func sandboxSnapshotTaken(caps platform.Capabilities, made *platform.Snapshot, asked snapshotModel, platformName string,
	rs retentionSettings, took time.Duration) string {
	m := asked
	m.ID = types.StringNull()
	m.CreatedAt, m.ExpiresAt, m.ParentSnapshotID = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
	m.applySnapshot(caps, made)
	snapshotSetRetention(&m, made, platformName, rs)
	var b strings.Builder
	fmt.Fprintf(&b, "Snapshot %q taken in %s (%s", made.ID, took.Round(100*time.Millisecond), m.Kind.ValueString())
	if !m.SizeBytes.IsNull() {
		fmt.Fprintf(&b, ", %d bytes", m.SizeBytes.ValueInt64())
	}
	b.WriteString(").")
	if knownString(m.ExpiresAt) {
		fmt.Fprintf(&b, " %s %s it at %s", platformName, retentionActionVerb(m.RetentionAction.ValueString()), m.ExpiresAt.ValueString())
		if knownString(m.RetentionRule) && m.RetentionRule.ValueString() != "" {
			fmt.Fprintf(&b, " (%s)", m.RetentionRule.ValueString())
		}
		b.WriteString(".")
	}
	fmt.Fprintf(&b, " It is in no Terraform state; to manage it, import it: terraform import sbx_snapshot.<name> %s", made.ID)
	return b.String()
}

// retentionActionVerb is how a retention action reads in a sentence.
func retentionActionVerb(action string) string {
	switch action {
	case "", "expire", "delete":
		return "deletes"
	default:
		return action + "s"
	}
}

// progress sends msg to Terraform as the invocation's progress, when the
// framework offers a channel for it.
func progress(resp *action.InvokeResponse, msg string) {
	if resp.SendProgress != nil {
		resp.SendProgress(action.InvokeProgressEvent{Message: msg})
	}
}
