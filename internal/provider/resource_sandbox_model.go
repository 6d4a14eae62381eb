package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// sandboxModel is sbx_sandbox in Terraform's terms.
type sandboxModel struct {
	ID              types.String   `tfsdk:"id"`
	Name            types.String   `tfsdk:"name"`
	TemplateID      types.String   `tfsdk:"template_id"`
	FromSnapshotID  types.String   `tfsdk:"from_snapshot_id"`
	State           types.String   `tfsdk:"state"`
	Region          types.String   `tfsdk:"region"`
	CPUCount        types.Int64    `tfsdk:"cpu_count"`
	MemoryMB        types.Int64    `tfsdk:"memory_mb"`
	DiskMB          types.Int64    `tfsdk:"disk_mb"`
	Env             types.Map      `tfsdk:"env"`
	EnvWO           types.Map      `tfsdk:"env_wo"` // write-only: null in every plan and state (resource_sandbox_env_wo.go)
	EnvWOVersion    types.Int64    `tfsdk:"env_wo_version"`
	Labels          types.Map      `tfsdk:"labels"`
	VolumeMounts    types.List     `tfsdk:"volume_mount"`
	Network         types.Object   `tfsdk:"network"`
	AutoResume      types.Bool     `tfsdk:"auto_resume"`
	MemorySnapshots types.Bool     `tfsdk:"memory_snapshots"`
	Status          types.String   `tfsdk:"status"`
	CreatedAt       types.String   `tfsdk:"created_at"`
	StartedAt       types.String   `tfsdk:"started_at"`
	Timeouts        timeouts.Value `tfsdk:"timeouts"`

	// Lifecycle settings (resource_sandbox_lifecycle.go).
	Timeout          types.String `tfsdk:"timeout"`
	OnTimeout        types.String `tfsdk:"on_timeout"`
	IdleTimeout      types.String `tfsdk:"idle_timeout"`
	AutoArchiveAfter types.String `tfsdk:"auto_archive_after"`
	AutoDeleteAfter  types.String `tfsdk:"auto_delete_after"`

	// Retention, computed (resource_sandbox_retention.go).
	Platform        types.String `tfsdk:"platform"`
	StatusSince     types.String `tfsdk:"status_since"`
	ExpiresAt       types.String `tfsdk:"expires_at"`
	RetentionRule   types.String `tfsdk:"retention_rule"`
	RetentionAction types.String `tfsdk:"retention_action"`
}

// sandboxMountModel is one volume_mount block.
type sandboxMountModel struct {
	VolumeID types.String `tfsdk:"volume_id"`
	Path     types.String `tfsdk:"path"`
	ReadOnly types.Bool   `tfsdk:"read_only"`
	Subpath  types.String `tfsdk:"subpath"`
}

// sandboxMountAttrTypes is the object type of a volume_mount block.
var sandboxMountAttrTypes = map[string]attr.Type{
	"volume_id": types.StringType,
	"path":      types.StringType,
	"read_only": types.BoolType,
	"subpath":   types.StringType,
}

// sandboxSpecFromModel turns a planned sandbox into what the platform is asked for.
func sandboxSpecFromModel(ctx context.Context, m sandboxModel, diags *diag.Diagnostics) platform.SandboxSpec {
	spec := platform.SandboxSpec{
		Name:            m.Name.ValueString(),
		TemplateID:      m.TemplateID.ValueString(),
		FromSnapshotID:  m.FromSnapshotID.ValueString(),
		State:           platform.SandboxState(m.State.ValueString()),
		Region:          m.Region.ValueString(),
		Env:             mapFromTF(ctx, m.Env, diags),
		Labels:          mapFromTF(ctx, m.Labels, diags),
		CPUCount:        m.CPUCount.ValueInt64(),
		MemoryMB:        m.MemoryMB.ValueInt64(),
		DiskMB:          m.DiskMB.ValueInt64(),
		Lifecycle:       sandboxLifecycleFromModel(m),
		Network:         sandboxNetworkSpec(ctx, m.Network, diags),
		AutoResume:      m.AutoResume.ValueBool(),
		MemorySnapshots: m.MemorySnapshots.ValueBool(),
	}
	if spec.State == "" {
		spec.State = platform.StateRunning
	}
	for _, mnt := range sandboxMountsFromTF(ctx, m.VolumeMounts, diags) {
		spec.VolumeMounts = append(spec.VolumeMounts, platform.VolumeMount{
			VolumeID: mnt.VolumeID.ValueString(),
			Path:     mnt.Path.ValueString(),
			ReadOnly: mnt.ReadOnly.ValueBool(),
			Subpath:  mnt.Subpath.ValueString(),
		})
	}
	return spec
}

// sandboxMountsFromTF decodes the volume_mount blocks; null or unknown gives none.
func sandboxMountsFromTF(ctx context.Context, l types.List, diags *diag.Diagnostics) []sandboxMountModel {
	if l.IsNull() || l.IsUnknown() {
		return nil
	}
	var out []sandboxMountModel
	diags.Append(l.ElementsAs(ctx, &out, false)...)
	return out
}

// sandboxMountsToTF encodes the platform's mounts as volume_mount blocks.
func sandboxMountsToTF(mounts []platform.VolumeMount) types.List {
	objType := types.ObjectType{AttrTypes: sandboxMountAttrTypes}
	elems := make([]attr.Value, 0, len(mounts))
	for _, m := range mounts {
		elems = append(elems, types.ObjectValueMust(sandboxMountAttrTypes, map[string]attr.Value{
			"volume_id": types.StringValue(m.VolumeID),
			"path":      types.StringValue(m.Path),
			"read_only": types.BoolValue(m.ReadOnly),
			"subpath":   stringOrNull(m.Subpath),
		}))
	}
	return types.ListValueMust(objType, elems)
}

// sandboxRefresh writes what the platform reports into m (the prior state).
// It keeps what the user wrote wherever the platform's answer would only
// add noise: env is read back only on import (a change outside Terraform is
// not tracked), and cpu_count / memory_mb stay null unless configured, so a
// platform default never shows up as a diff. After an import (importing) there is
// nothing the user wrote yet, so everything the platform knows is filled in.
func sandboxRefresh(m *sandboxModel, sb *platform.Sandbox, importing bool) {
	m.ID = types.StringValue(sb.ID)
	if sb.Name != "" {
		m.Name = types.StringValue(sb.Name)
	} else if m.Name.IsUnknown() {
		m.Name = types.StringNull()
	}

	// Drift: a box paused, stopped or started outside Terraform takes the
	// state it is really in, so the plan moves it back in place. A box
	// between states (or failed) keeps the configured state.
	switch sb.Status {
	case platform.StateRunning, platform.StatePaused, platform.StateStopped:
		m.State = types.StringValue(string(sb.Status))
	case platform.StateArchived:
		// An archived box is a stopped one whose disk the platform moved
		// elsewhere: state = "stopped" plans nothing, "running" starts it.
		m.State = types.StringValue(string(platform.StateStopped))
	default:
		if m.State.IsNull() || m.State.IsUnknown() {
			m.State = types.StringValue(string(sandboxSettledState(sb.Status)))
		}
	}
	status := sb.Status
	if status == "" {
		status = platform.StateUnknown
	}
	m.Status = types.StringValue(string(status))
	m.CreatedAt = timeStringOrNull(sb.CreatedAt)
	m.StartedAt = timeStringOrNull(sb.StartedAt)

	m.Labels = mapToTF(platform.UserLabels(sb.Labels), m.Labels)
	m.CPUCount = reportedInt64(m.CPUCount, sb.CPUCount, importing)
	m.MemoryMB = reportedInt64(m.MemoryMB, sb.MemoryMB, importing)
	m.DiskMB = reportedInt64(m.DiskMB, sb.DiskMB, importing)
	// Computed: the region the box got, whether or not one was asked for.
	switch {
	case sb.Region != "":
		m.Region = types.StringValue(sb.Region)
	case m.Region.IsUnknown():
		m.Region = types.StringNull()
	}

	if importing {
		m.TemplateID = stringOrNull(sb.TemplateID)
		m.FromSnapshotID = stringOrNull(sb.FromSnapshotID)
		if len(sb.VolumeMounts) > 0 {
			m.VolumeMounts = sandboxMountsToTF(sb.VolumeMounts)
		}
		// The env the box was given, where the platform can tell it from
		// the image's own (its sandbox.env row is not Unreported), so a
		// matching env config plans no replacement; null when it cannot or
		// there is none.
		if len(sb.Env) > 0 {
			m.Env = mapToTF(sb.Env, types.MapNull(types.StringType))
		}
		sandboxLifecycleToModel(m, sb.Lifecycle)
		m.Network = sandboxNetworkToTF(sb.Network)
		m.AutoResume = types.BoolNull()
		if sb.AutoResume {
			m.AutoResume = types.BoolValue(true)
		}
	}
	if m.Network.IsUnknown() {
		m.Network = types.ObjectNull(sandboxNetworkAttrTypes)
	}
	if m.VolumeMounts.IsNull() || m.VolumeMounts.IsUnknown() {
		m.VolumeMounts = types.ListNull(types.ObjectType{AttrTypes: sandboxMountAttrTypes})
	}
}

// sandboxMemorySnapshotsRead is memory_snapshots as a read finds it: what
// the platform reports, or, where its row says the platform does not report
// it (Unreported) or the read says it could not for this box, what the
// state recorded: null after an import, which the next plan takes from the
// configuration (resource_unreported.go) instead of replacing the box.
func sandboxMemorySnapshotsRead(row platform.Attribute, recorded types.Bool, sb *platform.Sandbox) types.Bool {
	if !sandboxReports(row, sb, platform.AttrSandboxMemorySnapshots) {
		return recorded
	}
	return types.BoolValue(sb.MemorySnapshots)
}

// sandboxAsRecorded is what the platform reported, read in the light of
// what the platform cannot report (its capability row) and what the state
// recorded (prior):
//   - Where a paused box reads the same whether its memory was kept or not
//     (PauseKindUnreported: the platform says "paused" for both), a box
//     recorded as stopped that reads as paused is still stopped: the provider stopped
//     it, and nothing on the platform can say otherwise. Reading it as
//     paused would plan a needless stop on every run. A box recorded as
//     running that reads as paused was paused behind Terraform's back and
//     keeps planning its move back to the configured state.
//   - Where a sandbox has no size of its own (the table refuses cpu_count
//     and memory_mb: the platform sizes a box by its template), the size
//     reported is the template's, so it is
//     not read into cpu_count / memory_mb (an import would otherwise plan a
//     replacement to remove them).
func sandboxAsRecorded(caps platform.Capabilities, prior sandboxModel, sb *platform.Sandbox) *platform.Sandbox {
	out := *sb
	if caps.PauseKindUnreported && out.Status == platform.StatePaused &&
		prior.State.ValueString() == string(platform.StateStopped) {
		out.Status = platform.StateStopped
	}
	if !caps.Accepts(platform.AttrSandboxCPUCount) && !caps.Accepts(platform.AttrSandboxMemoryMB) {
		out.CPUCount, out.MemoryMB = 0, 0
	}
	return &out
}

// sandboxSettledState is the state an imported box in transition is heading to.
func sandboxSettledState(s platform.SandboxState) platform.SandboxState {
	if s == platform.StateStopping {
		return platform.StateStopped
	}
	return platform.StateRunning
}

// sandboxSettle is the state to save after Create or Update: the plan, with
// the platform's answers filled in wherever the plan did not know the value.
// Known planned values are kept, because Terraform rejects an apply whose
// result contradicts its plan; the next refresh records any later change.
func sandboxSettle(plan sandboxModel, sb *platform.Sandbox) sandboxModel {
	got := plan
	sandboxRefresh(&got, sb, false)
	out := plan
	out.ID = got.ID
	out.Name = keepKnown(plan.Name, got.Name)
	out.Status = keepKnown(plan.Status, got.Status)
	out.CreatedAt = keepKnown(plan.CreatedAt, got.CreatedAt)
	out.StartedAt = keepKnown(plan.StartedAt, got.StartedAt)
	out.Region = keepKnown(plan.Region, got.Region)
	if plan.State.IsUnknown() {
		out.State = got.State
	}
	out.VolumeMounts = got.VolumeMounts
	if !plan.VolumeMounts.IsNull() && !plan.VolumeMounts.IsUnknown() {
		out.VolumeMounts = plan.VolumeMounts
	}
	return out
}
