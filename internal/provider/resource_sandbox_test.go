package provider

import (
	"context"
	"maps"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// sandboxTestCaps is a platform that can do everything sbx_sandbox asks for
// but lifecycle settings: every state, a start from a snapshot, sizes
// (resized in place, memory of 6 MB or more), a disk size, read-only mounts,
// memory snapshots chosen at create.
var sandboxTestCaps = platform.Capabilities{Attributes: platform.Attributes{
	platform.AttrSandboxFromSnapshotID:  {Support: platform.Replace},
	platform.AttrSandboxState:           {Support: platform.InPlace, Values: platform.DesiredStates},
	platform.AttrSandboxCPUCount:        {Support: platform.InPlace},
	platform.AttrSandboxMemoryMB:        {Support: platform.InPlace, Min: 6},
	platform.AttrSandboxDiskMB:          {Support: platform.Replace},
	platform.AttrSandboxEnv:             {Support: platform.Replace},
	platform.AttrSandboxLabels:          {Support: platform.Replace},
	platform.AttrSandboxVolumeMount:     {Support: platform.Replace},
	platform.AttrSandboxMountReadOnly:   {Support: platform.Replace},
	platform.AttrSandboxMemorySnapshots: {Support: platform.Replace},
}}

// sandboxTestAttributes is sandboxTestCaps' table, a copy, with rows
// replaced or added.
func sandboxTestAttributes(rows platform.Attributes) platform.Attributes {
	out := maps.Clone(sandboxTestCaps.Attributes)
	maps.Copy(out, rows)
	return out
}

// Why the test tables refuse a sandbox attribute or value, worded as the
// platforms' tables word it: the error must carry it.
const (
	sandboxTestWhySize     = "a sandbox takes its size from its template; remove it and set it on the sbx_template"
	sandboxTestWhyDisk     = "the platform sizes a sandbox's disk itself; remove disk_mb"
	sandboxTestWhyReadOnly = "volumes are always mounted read-write here; remove read_only or set it to false"
	sandboxTestWhySnapshot = "this platform cannot start a sandbox from a snapshot; use template_id"
)

// sandboxTestModel is a planned sandbox with every optional value null.
func sandboxTestModel() sandboxModel {
	return sandboxModel{
		ID: types.StringValue("box1"), Name: types.StringValue("box"),
		TemplateID: types.StringValue("tpl"), FromSnapshotID: types.StringNull(),
		State: types.StringValue("running"), CPUCount: types.Int64Null(), MemoryMB: types.Int64Null(),
		DiskMB: types.Int64Null(), Env: types.MapNull(types.StringType), Labels: types.MapNull(types.StringType),
		EnvWO:        types.MapNull(types.StringType),
		VolumeMounts: types.ListNull(types.ObjectType{AttrTypes: sandboxMountAttrTypes}),
		Network:      types.ObjectNull(sandboxNetworkAttrTypes), AutoResume: types.BoolNull(),
		Status:    types.StringValue("running"),
		CreatedAt: types.StringValue("2026-01-01T00:00:00Z"), StartedAt: types.StringValue("2026-01-01T00:00:01Z"),
	}
}

func sandboxTestMap(kv ...string) types.Map {
	m := map[string]attr.Value{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = types.StringValue(kv[i+1])
	}
	return types.MapValueMust(types.StringType, m)
}

// TestSandboxAttributes: the attribute table judges a box's settings
// (planAttributes over sandboxAttributes), naming the attribute, the value
// and what is allowed.
func TestSandboxAttributes(t *testing.T) {
	states := func(vs ...string) func(platform.Attributes) {
		return func(a platform.Attributes) {
			a[platform.AttrSandboxState] = platform.Attribute{Support: platform.InPlace, Values: vs}
		}
	}
	sizedByTemplate := func(a platform.Attributes) {
		a[platform.AttrSandboxCPUCount] = platform.Attribute{Why: sandboxTestWhySize}
		// A refused value below the minimum is reported once, as refused.
		a[platform.AttrSandboxMemoryMB] = platform.Attribute{Why: sandboxTestWhySize, Min: 6}
	}
	readWriteOnly := func(a platform.Attributes) {
		a[platform.AttrSandboxMountReadOnly] = platform.Attribute{Support: platform.Replace, Values: []string{"false"}, Why: sandboxTestWhyReadOnly}
	}
	tests := []struct {
		name   string
		caps   func(platform.Attributes)
		change func(*sandboxModel)
		want   []string // substrings of the one expected error's detail; nil = no error
		path   path.Path
	}{
		{name: "defaults are fine", change: func(*sandboxModel) {}},
		{name: "paused without pause", caps: states("running", "stopped"),
			change: func(m *sandboxModel) { m.State = types.StringValue("paused") },
			want:   []string{`state = "paused"`, "test-platform", `"running", "stopped"`}, path: path.Root("state")},
		{name: "stopped without stop", caps: states("running", "paused"),
			change: func(m *sandboxModel) { m.State = types.StringValue("stopped") },
			want:   []string{`state = "stopped"`, `"running", "paused"`}, path: path.Root("state")},
		{name: "paused with pause", change: func(m *sandboxModel) { m.State = types.StringValue("paused") }},
		{name: "memory below minimum", change: func(m *sandboxModel) { m.MemoryMB = types.Int64Value(4) },
			want: []string{"memory_mb = 4", "minimum of 6", "test-platform"}, path: path.Root("memory_mb")},
		{name: "memory at minimum", change: func(m *sandboxModel) { m.MemoryMB = types.Int64Value(6) }},
		{name: "memory unknown", change: func(m *sandboxModel) { m.MemoryMB = types.Int64Unknown() }},
		{name: "cpu above maximum", caps: func(a platform.Attributes) {
			a[platform.AttrSandboxCPUCount] = platform.Attribute{Support: platform.InPlace, Max: 8}
		},
			change: func(m *sandboxModel) { m.CPUCount = types.Int64Value(16) },
			want:   []string{"cpu_count = 16", "maximum of 8"}, path: path.Root("cpu_count")},
		{name: "cpu with no known maximum", change: func(m *sandboxModel) { m.CPUCount = types.Int64Value(64) }},
		{name: "disk without disk sizes", caps: func(a platform.Attributes) {
			a[platform.AttrSandboxDiskMB] = platform.Attribute{Why: sandboxTestWhyDisk}
		},
			change: func(m *sandboxModel) { m.DiskMB = types.Int64Value(2048) },
			want:   []string{"disk_mb = 2048", "remove disk_mb"}, path: path.Root("disk_mb")},
		{name: "cpu on a platform sizing boxes by template", caps: sizedByTemplate,
			change: func(m *sandboxModel) { m.CPUCount = types.Int64Value(2) },
			want:   []string{"cpu_count = 2 is not supported on test-platform", "remove it and set it on the sbx_template"}, path: path.Root("cpu_count")},
		{name: "memory on a platform sizing boxes by template", caps: sizedByTemplate,
			change: func(m *sandboxModel) { m.MemoryMB = types.Int64Value(4) }, // below the minimum too: reported once, as unsupported
			want:   []string{"memory_mb = 4 is not supported", "remove it and set it on the sbx_template"}, path: path.Root("memory_mb")},
		{name: "unknown size on a platform sizing boxes by template", caps: sizedByTemplate,
			change: func(m *sandboxModel) { m.CPUCount = types.Int64Unknown() },
			want:   []string{"cpu_count = (known after apply)"}, path: path.Root("cpu_count")},
		{name: "no size on a platform sizing boxes by template", caps: sizedByTemplate,
			change: func(*sandboxModel) {}},
		{name: "read-only mount unsupported", caps: readWriteOnly,
			change: func(m *sandboxModel) { m.VolumeMounts = sandboxTestMounts(false, true) },
			want:   []string{"volume_mount[1].read_only = true", "test-platform", "read-write"},
			path:   path.Root("volume_mount").AtListIndex(1).AtName("read_only")},
		{name: "read-write mounts where read-only is unsupported", caps: readWriteOnly,
			change: func(m *sandboxModel) { m.VolumeMounts = sandboxTestMounts(false, false) }},
		{name: "read-only mount supported", change: func(m *sandboxModel) { m.VolumeMounts = sandboxTestMounts(true) }},
		{name: "snapshot restore unsupported",
			caps: func(a platform.Attributes) {
				a[platform.AttrSandboxFromSnapshotID] = platform.Attribute{Why: sandboxTestWhySnapshot}
			},
			change: func(m *sandboxModel) {
				m.TemplateID = types.StringNull()
				m.FromSnapshotID = types.StringUnknown()
			},
			want: []string{"from_snapshot_id = (known after apply)", "use template_id"}, path: path.Root("from_snapshot_id")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			table := sandboxTestAttributes(nil)
			if tt.caps != nil {
				tt.caps(table)
			}
			m := sandboxTestModel()
			tt.change(&m)
			var diags diag.Diagnostics
			planAttributes(table, "test-platform", sandboxAttributes(m, nil), &diags)
			sandboxTestExpectOneError(t, diags, tt.path, tt.want)
		})
	}
}

// sandboxTestMounts is a volume_mount list, one mount per read_only flag.
func sandboxTestMounts(readOnly ...bool) types.List {
	objType := types.ObjectType{AttrTypes: sandboxMountAttrTypes}
	elems := make([]attr.Value, 0, len(readOnly))
	for i, ro := range readOnly {
		elems = append(elems, types.ObjectValueMust(sandboxMountAttrTypes, map[string]attr.Value{
			"volume_id": types.StringValue("vol"), "path": types.StringValue("/m" + strconv.Itoa(i)), "read_only": types.BoolValue(ro), "subpath": types.StringNull(),
		}))
	}
	return types.ListValueMust(objType, elems)
}

// sandboxTestExpectOneError checks diags hold exactly one error at p whose
// detail contains every want, or no error when want is nil.
func sandboxTestExpectOneError(t *testing.T, diags diag.Diagnostics, p path.Path, want []string) {
	t.Helper()
	if want == nil {
		if diags.HasError() {
			t.Fatalf("unexpected errors: %v", diags)
		}
		return
	}
	if diags.ErrorsCount() != 1 {
		t.Fatalf("want one error, got %d: %v", diags.ErrorsCount(), diags)
	}
	d := diags.Errors()[0]
	if wp, ok := d.(diag.DiagnosticWithPath); !ok || !wp.Path().Equal(p) {
		t.Errorf("error not at %s: %v", p, d)
	}
	for _, w := range want {
		if !strings.Contains(d.Detail(), w) {
			t.Errorf("detail %q does not contain %q", d.Detail(), w)
		}
	}
}

// TestSandboxReplacePaths: a changed attribute replaces the box or is
// changed in place, as the table's row says.
func TestSandboxReplacePaths(t *testing.T) {
	docker := sandboxTestAttributes(nil) // resized in place; env and labels fixed at create
	rigid := sandboxTestAttributes(platform.Attributes{
		platform.AttrSandboxCPUCount: {Support: platform.Replace},
		platform.AttrSandboxMemoryMB: {Support: platform.Replace},
	})
	mutable := sandboxTestAttributes(platform.Attributes{
		platform.AttrSandboxEnv:    {Support: platform.InPlace},
		platform.AttrSandboxLabels: {Support: platform.InPlace},
	})
	tests := []struct {
		name    string
		table   platform.Attributes
		change  func(*sandboxModel)
		want    []string // replacing paths
		inPlace []string // table keys changed in place
	}{
		{name: "state change in place", table: rigid,
			change: func(m *sandboxModel) { m.State = types.StringValue("paused") }, inPlace: []string{platform.AttrSandboxState}},
		{name: "memory in place", table: docker, change: func(m *sandboxModel) { m.MemoryMB = types.Int64Value(512) },
			inPlace: []string{platform.AttrSandboxMemoryMB}},
		{name: "memory replaces without resize", table: rigid,
			change: func(m *sandboxModel) { m.MemoryMB = types.Int64Value(512) }, want: []string{"memory_mb"}},
		{name: "cpu replaces without resize", table: rigid,
			change: func(m *sandboxModel) { m.CPUCount = types.Int64Value(2) }, want: []string{"cpu_count"}},
		{name: "env replaces when immutable", table: docker,
			change: func(m *sandboxModel) { m.Env = sandboxTestMap("A", "1") }, want: []string{"env"}},
		{name: "env in place when mutable", table: mutable, change: func(m *sandboxModel) { m.Env = sandboxTestMap("A", "1") },
			inPlace: []string{platform.AttrSandboxEnv}},
		{name: "labels replace when immutable", table: docker,
			change: func(m *sandboxModel) { m.Labels = sandboxTestMap("team", "x") }, want: []string{"labels"}},
		{name: "labels in place when mutable", table: mutable,
			change: func(m *sandboxModel) { m.Labels = sandboxTestMap("team", "x") }, inPlace: []string{platform.AttrSandboxLabels}},
		{name: "empty labels are no change", table: docker,
			change: func(m *sandboxModel) { m.Labels = sandboxTestMap() }},
		{name: "a replacing and an in-place change", table: docker, change: func(m *sandboxModel) {
			m.CPUCount, m.Env = types.Int64Value(2), sandboxTestMap("A", "1")
		}, want: []string{"env"}, inPlace: []string{platform.AttrSandboxCPUCount}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			state := sandboxTestModel()
			plan := sandboxTestModel()
			tt.change(&plan)
			var diags diag.Diagnostics
			got := planAttributes(tt.table, "test-platform", sandboxAttributes(plan, &state), &diags)
			if diags.HasError() {
				t.Fatalf("unexpected errors: %v", diags)
			}
			var names []string
			for _, p := range got.replace {
				names = append(names, p.String())
			}
			if strings.Join(names, ",") != strings.Join(tt.want, ",") {
				t.Errorf("replace paths = %v, want %v", names, tt.want)
			}
			if strings.Join(got.inPlace, ",") != strings.Join(tt.inPlace, ",") {
				t.Errorf("in place = %v, want %v", got.inPlace, tt.inPlace)
			}
		})
	}
}

func TestSandboxPlanComputed(t *testing.T) {
	state := sandboxTestModel()

	unchanged := sandboxTestModel()
	unchanged.Status, unchanged.StartedAt = types.StringUnknown(), types.StringUnknown()
	unchanged.MemoryMB = types.Int64Value(512)
	sandboxPlanComputed(&unchanged, state)
	if !unchanged.Status.Equal(state.Status) || !unchanged.StartedAt.Equal(state.StartedAt) {
		t.Errorf("an update that keeps the state must keep status values, got %+v", unchanged)
	}

	paused := sandboxTestModel()
	paused.State = types.StringValue("paused")
	sandboxPlanComputed(&paused, state)
	if paused.Status.ValueString() != "paused" {
		t.Errorf("status = %s, want the planned state", paused.Status)
	}
	if !paused.StartedAt.IsUnknown() {
		t.Errorf("started_at must be unknown on a state change, got %s", paused.StartedAt)
	}
}

func TestSandboxRefresh(t *testing.T) {
	created := time.Date(2026, 3, 1, 10, 0, 0, 0, time.FixedZone("x", 3600))
	tests := []struct {
		name      string
		prior     func(*sandboxModel)
		box       platform.Sandbox
		importing bool
		check     func(*testing.T, sandboxModel)
	}{
		{name: "paused outside terraform becomes the state",
			box: platform.Sandbox{ID: "box1", Status: platform.StatePaused, PlatformStatus: "paused"},
			check: func(t *testing.T, m sandboxModel) {
				sandboxTestEqual(t, "state", m.State.ValueString(), "paused")
				sandboxTestEqual(t, "status", m.Status.ValueString(), "paused")
			}},
		{name: "failed keeps the configured state",
			prior: func(m *sandboxModel) { m.State = types.StringValue("stopped") },
			box:   platform.Sandbox{ID: "box1", Status: platform.StateFailed, PlatformStatus: "dead"},
			check: func(t *testing.T, m sandboxModel) {
				sandboxTestEqual(t, "state", m.State.ValueString(), "stopped")
				sandboxTestEqual(t, "status", m.Status.ValueString(), "failed")
			}},
		{name: "starting keeps the configured state",
			box: platform.Sandbox{ID: "box1", Status: platform.StateStarting},
			check: func(t *testing.T, m sandboxModel) {
				sandboxTestEqual(t, "state", m.State.ValueString(), "running")
				sandboxTestEqual(t, "status", m.Status.ValueString(), "starting")
			}},
		{name: "platform defaults stay out of null cpu and memory",
			box: platform.Sandbox{ID: "box1", Status: platform.StateRunning, CPUCount: 2, MemoryMB: 1024},
			check: func(t *testing.T, m sandboxModel) {
				if !m.CPUCount.IsNull() || !m.MemoryMB.IsNull() {
					t.Errorf("cpu_count/memory_mb = %s/%s, want null", m.CPUCount, m.MemoryMB)
				}
			}},
		{name: "configured memory takes the reported value",
			prior: func(m *sandboxModel) { m.MemoryMB = types.Int64Value(256) },
			box:   platform.Sandbox{ID: "box1", Status: platform.StateRunning, MemoryMB: 512},
			check: func(t *testing.T, m sandboxModel) {
				sandboxTestEqual(t, "memory_mb", m.MemoryMB.ValueInt64(), int64(512))
			}},
		{name: "env and template are kept, labels read without reserved keys, times in UTC",
			prior: func(m *sandboxModel) { m.Env = sandboxTestMap("SECRET", "s") },
			box: platform.Sandbox{ID: "box1", Status: platform.StateRunning, TemplateID: "other", CreatedAt: created,
				Labels: map[string]string{platform.LabelManaged: "true", "team": "a"}},
			check: func(t *testing.T, m sandboxModel) {
				sandboxTestEqual(t, "env", m.Env.String(), sandboxTestMap("SECRET", "s").String())
				sandboxTestEqual(t, "template_id", m.TemplateID.ValueString(), "tpl")
				sandboxTestEqual(t, "labels", m.Labels.String(), sandboxTestMap("team", "a").String())
				sandboxTestEqual(t, "created_at", m.CreatedAt.ValueString(), "2026-03-01T09:00:00Z")
				if !m.StartedAt.IsNull() {
					t.Errorf("started_at = %s, want null for a box never started", m.StartedAt)
				}
			}},
		{name: "import fills everything the platform knows", importing: true,
			prior: func(m *sandboxModel) { *m = sandboxModel{ID: types.StringValue("box1")} },
			box: platform.Sandbox{ID: "box1", Name: "b", Status: platform.StateStopping, TemplateID: "tpl9", CPUCount: 2, MemoryMB: 128,
				VolumeMounts: []platform.VolumeMount{{VolumeID: "v", Path: "/data", ReadOnly: true}}},
			check: func(t *testing.T, m sandboxModel) {
				sandboxTestEqual(t, "name", m.Name.ValueString(), "b")
				sandboxTestEqual(t, "state", m.State.ValueString(), "stopped")
				sandboxTestEqual(t, "template_id", m.TemplateID.ValueString(), "tpl9")
				sandboxTestEqual(t, "cpu_count", m.CPUCount.ValueInt64(), int64(2))
				sandboxTestEqual(t, "memory_mb", m.MemoryMB.ValueInt64(), int64(128))
				sandboxTestEqual(t, "mounts", len(m.VolumeMounts.Elements()), 1)
				if !m.FromSnapshotID.IsNull() || !m.Env.IsNull() || !m.Labels.IsNull() {
					t.Errorf("from_snapshot_id/env/labels should be null: %s %s %s", m.FromSnapshotID, m.Env, m.Labels)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := sandboxTestModel()
			if tt.prior != nil {
				tt.prior(&m)
			}
			box := tt.box
			sandboxRefresh(&m, &box, tt.importing)
			tt.check(t, m)
		})
	}
}

func sandboxTestEqual[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func TestSandboxSettleKeepsPlannedValues(t *testing.T) {
	plan := sandboxTestModel()
	plan.ID, plan.Name, plan.CreatedAt = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
	plan.Status, plan.StartedAt = types.StringUnknown(), types.StringUnknown()
	plan.MemoryMB = types.Int64Value(256)
	started := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	// The box came up "starting": the planned state must survive, status tells the truth.
	got := sandboxSettle(plan, &platform.Sandbox{ID: "c1", Name: "box-x", Status: platform.StateStarting,
		PlatformStatus: "created", MemoryMB: 256, StartedAt: started, CreatedAt: started})
	sandboxTestEqual(t, "id", got.ID.ValueString(), "c1")
	sandboxTestEqual(t, "name", got.Name.ValueString(), "box-x")
	sandboxTestEqual(t, "state", got.State.ValueString(), "running")
	sandboxTestEqual(t, "status", got.Status.ValueString(), "starting")
	sandboxTestEqual(t, "started_at", got.StartedAt.ValueString(), "2026-01-02T03:04:05Z")
	if !got.VolumeMounts.IsNull() {
		t.Errorf("volume_mount = %s, want null", got.VolumeMounts)
	}

	known := sandboxTestModel()
	known.State, known.Status = types.StringValue("paused"), types.StringValue("paused")
	got = sandboxSettle(known, &platform.Sandbox{ID: "box1", Name: "box", Status: platform.StateRunning})
	sandboxTestEqual(t, "planned status", got.Status.ValueString(), "paused")
}

func TestSandboxMountPathValidator(t *testing.T) {
	tests := []struct {
		path    string
		wantErr string
	}{
		{"/data", ""},
		{"/home/agent/work/", ""},
		{"data", `volume_mount[0].path = "data" is not an absolute path`},
		{"./data", "is not an absolute path"},
		{"/", "root filesystem"},
		{"//", "root filesystem"},
		{"/data/..", "root filesystem"},
		{"/data/../etc", `is not a clean path: it mounts at /etc. Write path = "/etc"`},
		{"/data/./x", "it mounts at /data/x"},
		{"/data//x", "it mounts at /data/x"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			req := validator.StringRequest{Path: path.Root("volume_mount").AtListIndex(0).AtName("path"), ConfigValue: types.StringValue(tt.path)}
			var resp validator.StringResponse
			sandboxMountPathValidator().ValidateString(context.Background(), req, &resp)
			if tt.wantErr == "" {
				if resp.Diagnostics.HasError() {
					t.Fatalf("unexpected error: %v", resp.Diagnostics)
				}
				return
			}
			if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), tt.wantErr) {
				t.Fatalf("want error containing %q, got %v", tt.wantErr, resp.Diagnostics)
			}
		})
	}
}

func TestSandboxUniqueMountPathsValidator(t *testing.T) {
	mount := func(p string) attr.Value {
		return types.ObjectValueMust(sandboxMountAttrTypes, map[string]attr.Value{
			"volume_id": types.StringValue("v"), "path": types.StringValue(p), "read_only": types.BoolNull(), "subpath": types.StringNull(),
		})
	}
	unknownPath := types.ObjectValueMust(sandboxMountAttrTypes, map[string]attr.Value{
		"volume_id": types.StringValue("v"), "path": types.StringUnknown(), "read_only": types.BoolNull(), "subpath": types.StringNull(),
	})
	tests := []struct {
		name  string
		elems []attr.Value
		want  string
	}{
		{name: "distinct", elems: []attr.Value{mount("/a"), mount("/b")}},
		{name: "same path", elems: []attr.Value{mount("/a"), mount("/b"), mount("/a")},
			want: `volume_mount[0].path and volume_mount[2].path both mount at "/a"`},
		{name: "same after cleaning", elems: []attr.Value{mount("/data/"), mount("/data")},
			want: "volume_mount[0].path and volume_mount[1].path"},
		{name: "unknown paths are not compared", elems: []attr.Value{unknownPath, unknownPath}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			list := types.ListValueMust(types.ObjectType{AttrTypes: sandboxMountAttrTypes}, tt.elems)
			var resp validator.ListResponse
			sandboxUniqueMountPathsValidator{}.ValidateList(context.Background(),
				validator.ListRequest{Path: path.Root("volume_mount"), ConfigValue: list}, &resp)
			if tt.want == "" {
				if resp.Diagnostics.HasError() {
					t.Fatalf("unexpected error: %v", resp.Diagnostics)
				}
				return
			}
			if resp.Diagnostics.ErrorsCount() != 1 || !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), tt.want) {
				t.Fatalf("want one error containing %q, got %v", tt.want, resp.Diagnostics)
			}
		})
	}
}

// TestSandboxAndVolumeSchemas checks both schemas are valid and documented.
func TestSandboxAndVolumeSchemas(t *testing.T) {
	ctx := context.Background()
	for _, r := range []resource.Resource{NewSandboxResource(), NewVolumeResource()} {
		var resp resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &resp)
		if resp.Diagnostics.HasError() {
			t.Fatalf("schema: %v", resp.Diagnostics)
		}
		if diags := resp.Schema.ValidateImplementation(ctx); diags.HasError() {
			t.Fatalf("schema implementation: %v", diags)
		}
		for name, a := range resp.Schema.Attributes {
			if a.GetMarkdownDescription() == "" {
				t.Errorf("attribute %s has no MarkdownDescription", name)
			}
		}
		if resp.Schema.MarkdownDescription == "" {
			t.Error("resource has no MarkdownDescription")
		}
	}
	var resp resource.SchemaResponse
	NewSandboxResource().Schema(ctx, resource.SchemaRequest{}, &resp)
	if !resp.Schema.Attributes["env"].IsSensitive() {
		t.Error("env must be sensitive")
	}
}
