package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// volumeTestModel is a volume state with every optional value null.
func volumeTestModel() volumeModel {
	return volumeModel{
		ID: types.StringValue("vol"), Name: types.StringValue("vol"), SizeGB: types.Int64Null(),
		Region: types.StringNull(), FromSnapshotID: types.StringNull(), Labels: types.MapNull(types.StringType),
		State: types.StringValue("available"), CreatedAt: types.StringValue("2026-01-01T00:00:00Z"),
		AttachedTo: types.ListValueMust(types.StringType, []attr.Value{}),
	}
}

func volumeTestAttached(ids ...string) types.List {
	elems := make([]attr.Value, 0, len(ids))
	for _, id := range ids {
		elems = append(elems, types.StringValue(id))
	}
	return types.ListValueMust(types.StringType, elems)
}

// Why the test tables refuse a volume attribute, worded as the platforms'
// tables word it: the error must carry it.
const (
	volumeTestWhyDockerSize = "Docker volumes have no size (they grow with their content); remove size_gb"
	volumeTestWhySize       = "volumes on this platform have no size; remove size_gb"
	volumeTestWhyRegion     = "this platform has no regions for volumes; remove region"
	volumeTestWhyRestore    = "this platform cannot restore a volume from a snapshot; remove from_snapshot_id"
	volumeTestWhyLabels     = "volumes carry no labels on this platform; remove labels (find a volume by its name with the sbx_volume data source)"
)

func TestVolumeCheckPlan(t *testing.T) {
	docker := platform.Capabilities{VolumeLabelsNeedIdle: true, Attributes: platform.Attributes{
		platform.AttrVolumeSizeGB:         {Why: volumeTestWhyDockerSize},
		platform.AttrVolumeRegion:         {Why: volumeTestWhyRegion},
		platform.AttrVolumeLabels:         {Support: platform.InPlace},
		platform.AttrVolumeFromSnapshotID: {Support: platform.Replace},
	}}
	// Volumes without sizes, labels or restores.
	bare := platform.Capabilities{Attributes: platform.Attributes{
		platform.AttrVolumeSizeGB:         {Why: volumeTestWhySize},
		platform.AttrVolumeRegion:         {Why: volumeTestWhyRegion},
		platform.AttrVolumeLabels:         {Why: volumeTestWhyLabels},
		platform.AttrVolumeFromSnapshotID: {Why: volumeTestWhyRestore},
	}}
	fly := platform.Capabilities{Attributes: platform.Attributes{
		platform.AttrVolumeSizeGB:         {Support: platform.InPlace},
		platform.AttrVolumeRegion:         {Support: platform.Replace},
		platform.AttrVolumeFromSnapshotID: {Why: volumeTestWhyRestore},
	}}
	tests := []struct {
		name     string
		platform string
		caps     platform.Capabilities
		state    func(*volumeModel) // nil: create
		plan     func(*volumeModel)
		want     []string
		path     path.Path
	}{
		{name: "plain docker volume", platform: "docker", caps: docker, plan: func(*volumeModel) {}},
		{name: "size on docker", platform: "docker", caps: docker,
			plan: func(m *volumeModel) { m.SizeGB = types.Int64Value(10) },
			want: []string{"size_gb = 10", "docker", "Docker volumes have no size"}, path: path.Root("size_gb")},
		{name: "size elsewhere without sizes", platform: "other", caps: bare,
			plan: func(m *volumeModel) { m.SizeGB = types.Int64Value(3) },
			want: []string{"size_gb = 3", "other", "have no size"}, path: path.Root("size_gb")},
		{name: "size where the table has no row", platform: "other", caps: platform.Capabilities{},
			plan: func(m *volumeModel) { m.SizeGB = types.Int64Value(3) },
			want: []string{"size_gb = 3", "other", "remove size_gb"}, path: path.Root("size_gb")},
		{name: "region on docker", platform: "docker", caps: docker,
			plan: func(m *volumeModel) { m.Region = types.StringValue("ord") },
			want: []string{`region = "ord"`, "no regions"}, path: path.Root("region")},
		{name: "snapshot retention where volumes have no snapshots", platform: "docker", caps: docker,
			plan: func(m *volumeModel) { m.SnapshotRetention = types.Int64Value(7) },
			want: []string{"snapshot_retention = 7", "docker", "remove snapshot_retention"}, path: path.Root("snapshot_retention")},
		{name: "restore unsupported", platform: "fly", caps: fly,
			plan: func(m *volumeModel) { m.FromSnapshotID = types.StringValue("snap") },
			want: []string{`from_snapshot_id = "snap"`, "cannot restore"}, path: path.Root("from_snapshot_id")},
		{name: "grow", platform: "fly", caps: fly,
			state: func(m *volumeModel) { m.SizeGB = types.Int64Value(10) },
			plan:  func(m *volumeModel) { m.SizeGB = types.Int64Value(20) }},
		{name: "shrink", platform: "fly", caps: fly,
			state: func(m *volumeModel) { m.SizeGB = types.Int64Value(20) },
			plan:  func(m *volumeModel) { m.SizeGB = types.Int64Value(10) },
			want:  []string{"size_gb = 10", "current size of 20 GB"}, path: path.Root("size_gb")},
		{name: "labels where volumes have none", platform: testplatName, caps: bare,
			plan: func(m *volumeModel) { m.Labels = sandboxTestMap("team", "ml", "env", "dev") },
			want: []string{`labels = { env = "dev", team = "ml" }`, testplatName, "volumes carry no labels", "sbx_volume data source"},
			path: path.Root("labels")},
		{name: "empty labels where volumes have none", platform: testplatName, caps: bare,
			plan: func(m *volumeModel) { m.Labels = sandboxTestMap() }},
		{name: "no labels where volumes have none", platform: testplatName, caps: bare, plan: func(*volumeModel) {}},
		{name: "relabel idle volume", platform: "docker", caps: docker,
			state: func(*volumeModel) {},
			plan:  func(m *volumeModel) { m.Labels = sandboxTestMap("a", "b") }},
		{name: "relabel mounted volume", platform: "docker", caps: docker,
			state: func(m *volumeModel) { m.AttachedTo = volumeTestAttached("c1", "c2") },
			plan:  func(m *volumeModel) { m.Labels = sandboxTestMap("a", "b") },
			want:  []string{`volume "vol"`, "c1, c2", "Detach", "or destroy them", "stopping them is not enough"}, path: path.Root("labels")},
		{name: "mounted volume with unchanged labels", platform: "docker", caps: docker,
			state: func(m *volumeModel) { m.AttachedTo = volumeTestAttached("c1") },
			plan:  func(m *volumeModel) { m.AttachedTo = volumeTestAttached("c1") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := volumeTestModel()
			tt.plan(&plan)
			var state *volumeModel
			if tt.state != nil {
				s := volumeTestModel()
				tt.state(&s)
				state = &s
			}
			var diags diag.Diagnostics
			volumeCheckPlan(context.Background(), tt.caps, tt.platform, plan, state, &diags)
			sandboxTestExpectOneError(t, diags, tt.path, tt.want)
		})
	}
}

// TestVolumeReplacePaths: volumeCheckPlan returns the changed attributes
// the table does not change in place.
func TestVolumeReplacePaths(t *testing.T) {
	row := func(key string, s platform.Support) platform.Capabilities {
		return platform.Capabilities{Attributes: platform.Attributes{key: {Support: s}}}
	}
	tests := []struct {
		name   string
		caps   platform.Capabilities
		change func(*volumeModel)
		want   string
	}{
		{name: "labels in place", caps: row(platform.AttrVolumeLabels, platform.InPlace),
			change: func(m *volumeModel) { m.Labels = sandboxTestMap("a", "b") }},
		{name: "labels replace when immutable", caps: row(platform.AttrVolumeLabels, platform.Replace),
			change: func(m *volumeModel) { m.Labels = sandboxTestMap("a", "b") }, want: "labels"},
		{name: "grow in place", caps: row(platform.AttrVolumeSizeGB, platform.InPlace),
			change: func(m *volumeModel) { m.SizeGB = types.Int64Value(5) }},
		{name: "size replaces without grow", caps: row(platform.AttrVolumeSizeGB, platform.Replace),
			change: func(m *volumeModel) { m.SizeGB = types.Int64Value(5) }, want: "size_gb"},
		{name: "snapshot retention in place", caps: row(platform.AttrVolumeSnapshotRetention, platform.InPlace),
			change: func(m *volumeModel) { m.SnapshotRetention = types.Int64Value(10) }},
		{name: "unchanged", caps: row(platform.AttrVolumeSizeGB, platform.Replace), change: func(*volumeModel) {}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := volumeTestModel()
			tt.change(&plan)
			state := volumeTestModel()
			var diags diag.Diagnostics
			var names []string
			for _, p := range volumeCheckPlan(context.Background(), tt.caps, "test", plan, &state, &diags) {
				names = append(names, p.String())
			}
			if diags.HasError() {
				t.Fatalf("unexpected errors: %v", diags)
			}
			if strings.Join(names, ",") != tt.want {
				t.Errorf("replace paths = %v, want %q", names, tt.want)
			}
		})
	}
}

func TestVolumeRefresh(t *testing.T) {
	created := time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC)
	v := &platform.Volume{ID: "vol", Name: "vol", SizeGB: 5, Region: "ord", State: "in_use", CreatedAt: created,
		FromSnapshotID: "snap", AttachedTo: []string{"b", "a"},
		Labels: map[string]string{platform.LabelManaged: "true", platform.LabelName: "vol", "team": "x"}}

	m := volumeTestModel()
	volumeRefresh(&m, v, false)
	if !m.SizeGB.IsNull() || !m.FromSnapshotID.IsNull() {
		t.Errorf("unconfigured size/from_snapshot_id must stay null: %s %s", m.SizeGB, m.FromSnapshotID)
	}
	// region is computed: the region the volume got, configured or not.
	sandboxTestEqual(t, "region", m.Region.ValueString(), "ord")
	sandboxTestEqual(t, "labels", m.Labels.String(), sandboxTestMap("team", "x").String())
	sandboxTestEqual(t, "state", m.State.ValueString(), "in_use")
	sandboxTestEqual(t, "attached_to", m.AttachedTo.String(), volumeTestAttached("a", "b").String())
	sandboxTestEqual(t, "created_at", m.CreatedAt.ValueString(), "2026-02-03T04:05:06Z")

	imported := volumeModel{ID: types.StringValue("vol")}
	volumeRefresh(&imported, v, true)
	sandboxTestEqual(t, "name", imported.Name.ValueString(), "vol")
	sandboxTestEqual(t, "size_gb", imported.SizeGB.ValueInt64(), int64(5))
	sandboxTestEqual(t, "region", imported.Region.ValueString(), "ord")
	sandboxTestEqual(t, "from_snapshot_id", imported.FromSnapshotID.ValueString(), "snap")

	// A docker volume made by hand: no labels at all must stay null, so a
	// config without labels plans empty after the import.
	bare := volumeModel{ID: types.StringValue("hand")}
	volumeRefresh(&bare, &platform.Volume{ID: "hand", Name: "hand", State: "available"}, true)
	if !bare.Labels.IsNull() || !bare.SizeGB.IsNull() || !bare.CreatedAt.IsNull() {
		t.Errorf("bare import: labels=%s size_gb=%s created_at=%s, want null", bare.Labels, bare.SizeGB, bare.CreatedAt)
	}
}

func TestVolumeSettleKeepsPlannedValues(t *testing.T) {
	plan := volumeTestModel()
	plan.ID, plan.State, plan.CreatedAt, plan.AttachedTo = types.StringUnknown(), types.StringUnknown(), types.StringUnknown(), types.ListUnknown(types.StringType)
	got := volumeSettle(plan, &platform.Volume{ID: "v1", Name: "vol", State: "available", CreatedAt: time.Unix(0, 0)})
	sandboxTestEqual(t, "id", got.ID.ValueString(), "v1")
	sandboxTestEqual(t, "state", got.State.ValueString(), "available")
	sandboxTestEqual(t, "attached_to", len(got.AttachedTo.Elements()), 0)

	known := volumeTestModel()
	known.AttachedTo = volumeTestAttached("c1")
	got = volumeSettle(known, &platform.Volume{ID: "vol", Name: "vol", State: "busy"})
	sandboxTestEqual(t, "planned state", got.State.ValueString(), "available")
	sandboxTestEqual(t, "planned attached_to", got.AttachedTo.String(), volumeTestAttached("c1").String())
}
