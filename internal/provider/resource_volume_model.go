package provider

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// volumeModel is sbx_volume in Terraform's terms.
type volumeModel struct {
	ID             types.String `tfsdk:"id"`
	Name           types.String `tfsdk:"name"`
	SizeGB         types.Int64  `tfsdk:"size_gb"`
	Region         types.String `tfsdk:"region"`
	FromSnapshotID types.String `tfsdk:"from_snapshot_id"`
	Labels         types.Map    `tfsdk:"labels"`
	// SnapshotRetention is in days.
	SnapshotRetention types.Int64    `tfsdk:"snapshot_retention"`
	State             types.String   `tfsdk:"state"`
	CreatedAt         types.String   `tfsdk:"created_at"`
	AttachedTo        types.List     `tfsdk:"attached_to"`
	Timeouts          timeouts.Value `tfsdk:"timeouts"`
}

// volumeRefresh writes what the platform reports into m (the prior state).
// Like sbx_sandbox, optional settings the user left out stay null (a
// platform default is not drift); after an import everything known is
// filled in, since there is nothing the user wrote yet.
func volumeRefresh(m *volumeModel, v *platform.Volume, importing bool) {
	m.ID = types.StringValue(v.ID)
	if v.Name != "" {
		m.Name = types.StringValue(v.Name)
	}
	m.SizeGB = reportedInt64(m.SizeGB, v.SizeGB, importing)
	m.SnapshotRetention = reportedInt64(m.SnapshotRetention, v.SnapshotRetentionDays, importing)
	// Computed: the region the volume got, whether or not one was asked for.
	switch {
	case v.Region != "":
		m.Region = types.StringValue(v.Region)
	case m.Region.IsUnknown():
		m.Region = types.StringNull()
	}
	if importing {
		m.FromSnapshotID = stringOrNull(v.FromSnapshotID)
	}
	m.Labels = mapToTF(platform.UserLabels(v.Labels), m.Labels)
	m.State = types.StringValue(v.State)
	m.CreatedAt = timeStringOrNull(v.CreatedAt)
	m.AttachedTo = volumeAttachedToTF(v.AttachedTo)
}

// volumeAttachedToTF lists sandbox ids sorted, so a platform returning them
// in another order is not a change.
func volumeAttachedToTF(ids []string) types.List {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	elems := make([]attr.Value, 0, len(sorted))
	for _, id := range sorted {
		elems = append(elems, types.StringValue(id))
	}
	return types.ListValueMust(types.StringType, elems)
}

// volumeAttachedFromTF decodes attached_to; null or unknown gives none.
func volumeAttachedFromTF(ctx context.Context, l types.List) []string {
	if l.IsNull() || l.IsUnknown() {
		return nil
	}
	var out []string
	_ = l.ElementsAs(ctx, &out, false)
	return out
}

// volumeSettle is the state to save after Create or Update: the plan with
// the platform's answers filled in where the plan did not know them (known
// planned values must come back unchanged; the next refresh records drift).
func volumeSettle(plan volumeModel, v *platform.Volume) volumeModel {
	got := plan
	volumeRefresh(&got, v, false)
	out := plan
	out.ID = got.ID
	out.State = keepKnown(plan.State, got.State)
	out.CreatedAt = keepKnown(plan.CreatedAt, got.CreatedAt)
	out.Region = keepKnown(plan.Region, got.Region)
	out.AttachedTo = plan.AttachedTo
	if plan.AttachedTo.IsUnknown() {
		out.AttachedTo = got.AttachedTo
	}
	return out
}
