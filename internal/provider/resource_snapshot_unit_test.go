package provider

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Why the test tables refuse a snapshot attribute or value, worded as the
// platforms' tables word it: the error must carry it.
const (
	snapshotTestWhyFSOnly     = "snapshots hold the filesystem only; remove `include_memory` (a filesystem snapshot is planned) or set it to false"
	snapshotTestWhyMemoryOnly = "snapshots always include memory; remove `include_memory` (a memory snapshot is planned) or set it to true"
	snapshotTestWhyTTL        = "snapshots do not expire here; remove `ttl` and destroy the snapshot when it is no longer needed"
	snapshotTestWhyLabels     = "snapshots carry no labels on this platform; remove labels (find snapshots by name, name_regex or sandbox_id with the sbx_snapshot(s) data sources)"
)

func TestSnapshotCheckCapabilities(t *testing.T) {
	docker := platform.Capabilities{SnapshotDelete: true, Attributes: platform.Attributes{
		platform.AttrSnapshotSandboxID:     {Support: platform.Replace},
		platform.AttrSnapshotVolumeID:      {Support: platform.Replace},
		platform.AttrSnapshotIncludeMemory: {Support: platform.Replace, Values: []string{"false"}, Why: snapshotTestWhyFSOnly},
		platform.AttrSnapshotLabels:        {Support: platform.Replace},
		platform.AttrSnapshotTTL:           {Why: snapshotTestWhyTTL},
	}}
	memoryOnly := platform.Capabilities{Attributes: platform.Attributes{
		platform.AttrSnapshotSandboxID:     {Support: platform.Replace},
		platform.AttrSnapshotIncludeMemory: {Support: platform.Replace, Values: []string{"true"}, Why: snapshotTestWhyMemoryOnly},
		platform.AttrSnapshotTTL:           {Support: platform.Replace},
		platform.AttrSnapshotLabels:        {Why: snapshotTestWhyLabels},
	}}
	noVolumes := platform.Capabilities{Attributes: platform.Attributes{
		platform.AttrSnapshotSandboxID:     {Support: platform.Replace},
		platform.AttrSnapshotIncludeMemory: {Support: platform.Replace, Values: []string{"false"}, Why: snapshotTestWhyFSOnly},
	}}
	noSandboxes := platform.Capabilities{Attributes: platform.Attributes{
		platform.AttrSnapshotVolumeID: {Support: platform.Replace},
	}}

	sandbox := func(mem types.Bool, ttl types.String) snapshotModel {
		return snapshotModel{SandboxID: types.StringValue("box1"), IncludeMemory: mem, TTL: ttl}
	}
	labelled := func(m snapshotModel, labels types.Map) snapshotModel {
		m.Labels = labels
		return m
	}
	volume := snapshotModel{VolumeID: types.StringValue("vol1"), IncludeMemory: types.BoolNull(), TTL: types.StringNull()}
	unknownBox := snapshotModel{SandboxID: types.StringUnknown(), IncludeMemory: types.BoolValue(true), TTL: types.StringNull()}

	cases := []struct {
		name      string
		caps      platform.Capabilities
		config    snapshotModel
		wantPaths []path.Path
		wantText  []string
	}{
		{"docker filesystem snapshot", docker, sandbox(types.BoolNull(), types.StringNull()), nil, nil},
		{"docker explicit false", docker, sandbox(types.BoolValue(false), types.StringNull()), nil, nil},
		{"docker volume snapshot", docker, volume, nil, nil},
		{"docker memory", docker, sandbox(types.BoolValue(true), types.StringNull()),
			[]path.Path{pathSnapshotIncludeMemory}, []string{"include_memory = true is not supported on testplat", "remove `include_memory`"}},
		{"docker memory of a box known only after apply", docker, unknownBox,
			[]path.Path{pathSnapshotIncludeMemory}, []string{"include_memory = true is not supported on testplat"}},
		{"docker ttl", docker, sandbox(types.BoolNull(), types.StringValue("72h")),
			[]path.Path{pathSnapshotTTL}, []string{`ttl = "72h"`, "remove `ttl`"}},
		{"memory-only platform, include_memory left out", memoryOnly, sandbox(types.BoolNull(), types.StringValue("72h")), nil, nil},
		{"memory-only platform refuses an explicit false", memoryOnly, sandbox(types.BoolValue(false), types.StringNull()),
			[]path.Path{pathSnapshotIncludeMemory}, []string{"include_memory = false", "remove `include_memory`", "set it to true"}},
		{"memory-only platform with memory and ttl", memoryOnly, sandbox(types.BoolValue(true), types.StringValue("72h")), nil, nil},
		{"include_memory known only after apply", docker, sandbox(types.BoolUnknown(), types.StringNull()), nil, nil},
		{"no volume snapshots", noVolumes, volume, []path.Path{pathSnapshotVolumeID}, []string{`volume_id = "vol1"`}},
		{"labels where snapshots have none", memoryOnly, labelled(sandbox(types.BoolValue(true), types.StringNull()), sandboxTestMap("gen", "1")),
			[]path.Path{path.Root("labels")}, []string{`labels = { gen = "1" }`, "snapshots carry no labels", "name_regex"}},
		{"labels where snapshots have them", docker, labelled(sandbox(types.BoolNull(), types.StringNull()), sandboxTestMap("gen", "1")), nil, nil},
		{"no sandbox snapshots", noSandboxes, sandbox(types.BoolNull(), types.StringNull()),
			[]path.Path{pathSnapshotSandboxID}, []string{`sandbox_id = "box1"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var diags diag.Diagnostics
			snapshotCheckCapabilities("testplat", tc.caps, tc.config, &diags)
			templateTestExpectAttrErrors(t, diags, tc.wantPaths, tc.wantText)
		})
	}
}

// A new snapshot's include_memory, kind and unreported attributes are
// planned known from its arguments and the platform's capability row.
func TestSnapshotPlanCreate(t *testing.T) {
	docker := platform.Capabilities{SnapshotCreatedAt: true, SnapshotSize: true, Attributes: platform.Attributes{
		platform.AttrSnapshotSandboxID:     {Support: platform.Replace},
		platform.AttrSnapshotVolumeID:      {Support: platform.Replace},
		platform.AttrSnapshotIncludeMemory: {Support: platform.Replace, Values: []string{"false"}},
	}}
	// Snapshots always hold memory; neither size nor time is reported.
	memoryOnly := platform.Capabilities{Attributes: platform.Attributes{
		platform.AttrSnapshotSandboxID:     {Support: platform.Replace},
		platform.AttrSnapshotIncludeMemory: {Support: platform.Replace, Values: []string{"true"}},
	}}
	both := platform.Capabilities{SnapshotCreatedAt: true, Attributes: platform.Attributes{
		platform.AttrSnapshotSandboxID:     {Support: platform.Replace},
		platform.AttrSnapshotIncludeMemory: {Support: platform.Replace},
	}}
	box := func(mem types.Bool) snapshotModel {
		return snapshotModel{SandboxID: types.StringUnknown(), VolumeID: types.StringNull(), IncludeMemory: mem}
	}
	vol := snapshotModel{SandboxID: types.StringNull(), VolumeID: types.StringValue("v"), IncludeMemory: types.BoolNull()}
	cases := []struct {
		name              string
		caps              platform.Capabilities
		config            snapshotModel
		wantMem, wantKind string // rendered values
		wantCreatedNull   bool
		wantSizeNull      bool
	}{
		{"docker, left out: filesystem", docker, box(types.BoolNull()), "false", `"filesystem"`, false, false},
		{"docker volume: false", docker, vol, "false", `"volume"`, false, false},
		{"memory only, left out: memory", memoryOnly, box(types.BoolNull()), "true", `"memory"`, true, true},
		{"memory only, explicit true", memoryOnly, box(types.BoolValue(true)), "true", `"memory"`, true, true},
		{"both kinds, left out: filesystem", both, box(types.BoolNull()), "false", `"filesystem"`, false, true},
		{"both kinds, explicit memory", both, box(types.BoolValue(true)), "true", `"memory"`, false, true},
		{"unknown include_memory: unknown kind", docker, box(types.BoolUnknown()), "<unknown>", "<unknown>", false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			plan := tc.config
			if plan.IncludeMemory.IsNull() {
				plan.IncludeMemory = types.BoolUnknown() // what the framework plans for an unset Optional+Computed
			}
			plan.CreatedAt, plan.SizeBytes = types.StringUnknown(), types.Int64Unknown()
			snapshotPlanCreate(tc.caps, tc.config, &plan)
			if got := plan.IncludeMemory.String(); got != tc.wantMem {
				t.Errorf("include_memory = %s, want %s", got, tc.wantMem)
			}
			if got := plan.Kind.String(); got != tc.wantKind {
				t.Errorf("kind = %s, want %s", got, tc.wantKind)
			}
			if plan.CreatedAt.IsNull() != tc.wantCreatedNull || (!tc.wantCreatedNull && !plan.CreatedAt.IsUnknown()) {
				t.Errorf("created_at = %s, want null=%v (else unknown)", plan.CreatedAt, tc.wantCreatedNull)
			}
			if plan.SizeBytes.IsNull() != tc.wantSizeNull || (!tc.wantSizeNull && !plan.SizeBytes.IsUnknown()) {
				t.Errorf("size_bytes = %s, want null=%v (else unknown)", plan.SizeBytes, tc.wantSizeNull)
			}
		})
	}
}

func TestSnapshotPlannedKind(t *testing.T) {
	cases := []struct {
		name string
		m    snapshotModel
		want types.String
	}{
		{"volume", snapshotModel{VolumeID: types.StringValue("v"), IncludeMemory: types.BoolValue(false)}, types.StringValue("volume")},
		{"filesystem", snapshotModel{SandboxID: types.StringValue("s"), IncludeMemory: types.BoolValue(false)}, types.StringValue("filesystem")},
		{"memory", snapshotModel{SandboxID: types.StringValue("s"), IncludeMemory: types.BoolValue(true)}, types.StringValue("memory")},
		{"unknown", snapshotModel{SandboxID: types.StringValue("s"), IncludeMemory: types.BoolUnknown()}, types.StringUnknown()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := snapshotPlannedKind(tc.m); !got.Equal(tc.want) {
				t.Fatalf("kind = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSnapshotApplySnapshot(t *testing.T) {
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	reports := platform.Capabilities{SnapshotCreatedAt: true, SnapshotSize: true}
	cases := []struct {
		name  string
		caps  platform.Capabilities
		prior snapshotModel
		snap  platform.Snapshot
		check func(t *testing.T, m snapshotModel)
	}{
		{
			name:  "imported sandbox snapshot fills its source and lineage",
			caps:  reports,
			prior: snapshotModel{ID: types.StringValue("sha256:a"), Labels: types.MapNull(types.StringType)},
			snap: platform.Snapshot{ID: "sha256:a", Name: "n", Kind: platform.SnapshotFilesystem, SandboxID: "box",
				ParentSnapshotID: "sha256:p", SizeBytes: 42, CreatedAt: created,
				Labels: map[string]string{"team": "x", platform.LabelManaged: "true"}},
			check: func(t *testing.T, m snapshotModel) {
				if m.SandboxID.ValueString() != "box" || !m.VolumeID.IsNull() || m.Name.ValueString() != "n" ||
					m.IncludeMemory.ValueBool() || m.Kind.ValueString() != "filesystem" ||
					m.ParentSnapshotID.ValueString() != "sha256:p" || m.SizeBytes.ValueInt64() != 42 ||
					m.CreatedAt.ValueString() != "2026-01-02T03:04:05Z" || !m.ExpiresAt.IsNull() {
					t.Fatalf("model = %+v", m)
				}
				got := m.Labels.Elements()
				team, isString := got["team"].(types.String)
				if len(got) != 1 || !isString || team.ValueString() != "x" {
					t.Fatalf("labels = %v, want only the user's", m.Labels)
				}
			},
		},
		{
			name:  "unnamed snapshot with unknown planned name gets null; no parent is null",
			caps:  reports,
			prior: snapshotModel{Name: types.StringUnknown(), Labels: types.MapNull(types.StringType)},
			snap:  platform.Snapshot{ID: "sha256:b", Kind: platform.SnapshotVolume, VolumeID: "vol", ExpiresAt: created},
			check: func(t *testing.T, m snapshotModel) {
				if !m.Name.IsNull() || !m.ParentSnapshotID.IsNull() || !m.Labels.IsNull() ||
					m.VolumeID.ValueString() != "vol" || m.ExpiresAt.ValueString() != "2026-01-02T03:04:05Z" {
					t.Fatalf("model = %+v", m)
				}
			},
		},
		{
			// A platform reporting neither: a 0 size and no time are "not
			// reported", not "empty, at year 1".
			name:  "unreported size and time are null",
			caps:  platform.Capabilities{},
			prior: snapshotModel{Labels: types.MapNull(types.StringType)},
			snap:  platform.Snapshot{ID: "snap-e", Kind: platform.SnapshotMemory, SandboxID: "box", SizeBytes: 0, CreatedAt: created},
			check: func(t *testing.T, m snapshotModel) {
				if !m.SizeBytes.IsNull() || !m.CreatedAt.IsNull() || !m.IncludeMemory.ValueBool() {
					t.Fatalf("model = %+v", m)
				}
			},
		},
		{
			// E2B and Daytona tell a snapshot's lineage only when it is taken.
			name:  "a recorded parent is kept when a read reports none",
			caps:  reports,
			prior: snapshotModel{ParentSnapshotID: types.StringValue("snap-0"), Labels: types.MapNull(types.StringType)},
			snap:  platform.Snapshot{ID: "snap-1", Kind: platform.SnapshotFilesystem, SandboxID: "box"},
			check: func(t *testing.T, m snapshotModel) {
				if m.ParentSnapshotID.ValueString() != "snap-0" {
					t.Fatalf("parent_snapshot_id = %s, want snap-0 kept", m.ParentSnapshotID)
				}
			},
		},
		{
			// Daytona does not say whether a snapshot holds memory.
			name: "include_memory not reported: what was asked for is kept, and the kind follows it",
			caps: platform.Capabilities{Attributes: platform.Attributes{
				platform.AttrSnapshotIncludeMemory: {Support: platform.Replace, Unreported: true}}},
			prior: snapshotModel{IncludeMemory: types.BoolValue(true), Labels: types.MapNull(types.StringType)},
			snap:  platform.Snapshot{ID: "snap-w", Kind: platform.SnapshotFilesystem, SandboxID: "box"},
			check: func(t *testing.T, m snapshotModel) {
				if !m.IncludeMemory.ValueBool() || m.Kind.ValueString() != "memory" {
					t.Fatalf("include_memory %s, kind %s; want true, memory", m.IncludeMemory, m.Kind)
				}
			},
		},
		{
			name:  "memory kind sets include_memory",
			caps:  reports,
			prior: snapshotModel{Labels: types.MapNull(types.StringType)},
			snap:  platform.Snapshot{ID: "sha256:c", Kind: platform.SnapshotMemory, SandboxID: "box"},
			check: func(t *testing.T, m snapshotModel) {
				if !m.IncludeMemory.ValueBool() || m.Kind.ValueString() != "memory" {
					t.Fatalf("model = %+v", m)
				}
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.prior
			m.applySnapshot(tc.caps, &tc.snap)
			tc.check(t, m)
		})
	}
}

func TestSnapshotDeleteAndRead(t *testing.T) {
	ctx := context.Background()
	expires := "2026-03-01T00:00:00Z"
	cases := []struct {
		name       string
		canDelete  bool
		deleteErr  error
		wantCalls  int
		wantErr    string
		wantWarn   string
		expiresAt  types.String
		wantRemove bool
	}{
		{name: "deletable", canDelete: true, wantCalls: 1, wantRemove: true},
		{name: "already gone is success", canDelete: true, deleteErr: &platform.NotFoundError{Kind: "snapshot", ID: "sha256:x"}, wantCalls: 1, wantRemove: true},
		{name: "busy is an error", canDelete: true, deleteErr: &platform.ConflictError{Kind: "snapshot", ID: "sha256:x", Reason: "used by box"}, wantCalls: 1, wantErr: "used by box"},
		{name: "undeletable is forgotten with its expiry", canDelete: false, expiresAt: types.StringValue(expires), wantWarn: expires, wantRemove: true},
		{name: "undeletable without expiry says so", canDelete: false, expiresAt: types.StringNull(), wantWarn: "no expiry date", wantRemove: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fake := &snapshotTestFakePlatform{caps: platform.Capabilities{SnapshotDelete: tc.canDelete}}
			fake.snaps.deleteErr = tc.deleteErr
			r := &snapshotResource{platform: fake}
			m := snapshotTestModel()
			m.ExpiresAt = tc.expiresAt // the zero value is null
			state := snapshotTestState(t, r, m)
			resp := resource.DeleteResponse{State: state}
			r.Delete(ctx, resource.DeleteRequest{State: state}, &resp)

			if fake.snaps.deleteCalls != tc.wantCalls {
				t.Errorf("platform Delete called %d times, want %d", fake.snaps.deleteCalls, tc.wantCalls)
			}
			snapshotTestExpectDiag(t, resp.Diagnostics.Errors(), tc.wantErr)
			snapshotTestExpectDiag(t, resp.Diagnostics.Warnings(), tc.wantWarn)
		})
	}

	t.Run("read of a vanished snapshot removes it with a warning", func(t *testing.T) {
		fake := &snapshotTestFakePlatform{caps: platform.Capabilities{SnapshotDelete: true}}
		r := &snapshotResource{platform: fake}
		state := snapshotTestState(t, r, snapshotTestModel())
		resp := resource.ReadResponse{State: state}
		r.Read(ctx, resource.ReadRequest{State: state}, &resp)
		snapshotTestExpectDiag(t, resp.Diagnostics.Errors(), "")
		snapshotTestExpectDiag(t, resp.Diagnostics.Warnings(), "deleted outside Terraform")
		if !resp.State.Raw.IsNull() {
			t.Fatalf("state not removed: %v", resp.State.Raw)
		}
	})
	t.Run("read refreshes from the platform", func(t *testing.T) {
		fake := &snapshotTestFakePlatform{caps: platform.Capabilities{SnapshotDelete: true, SnapshotSize: true}}
		fake.snaps.get = &platform.Snapshot{ID: "sha256:x", Kind: platform.SnapshotFilesystem, SandboxID: "box", SizeBytes: 7}
		r := &snapshotResource{platform: fake}
		state := snapshotTestState(t, r, snapshotTestModel())
		resp := resource.ReadResponse{State: state}
		r.Read(ctx, resource.ReadRequest{State: state}, &resp)
		var got snapshotModel
		resp.Diagnostics.Append(resp.State.Get(ctx, &got)...)
		if resp.Diagnostics.HasError() || got.SizeBytes.ValueInt64() != 7 || got.SandboxID.ValueString() != "box" {
			t.Fatalf("state = %+v, diags = %v", got, resp.Diagnostics)
		}
	})
}

// snapshotTestModel is a snapshot as it sits in state.
func snapshotTestModel() snapshotModel {
	return snapshotModel{
		ID:            types.StringValue("sha256:x"),
		SandboxID:     types.StringValue("box"),
		IncludeMemory: types.BoolValue(false),
		Labels:        types.MapNull(types.StringType),
		Kind:          types.StringValue("filesystem"),
		Timeouts: timeouts.Value{Object: types.ObjectNull(map[string]attr.Type{
			"create": types.StringType, "delete": types.StringType,
		})},
	}
}

// snapshotTestState builds a tfsdk.State of the resource's schema holding m.
func snapshotTestState(t *testing.T, r *snapshotResource, m snapshotModel) tfsdk.State {
	t.Helper()
	ctx := context.Background()
	var sresp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sresp)
	st := tfsdk.State{Schema: sresp.Schema, Raw: tftypes.NewValue(sresp.Schema.Type().TerraformType(ctx), nil)}
	if diags := st.Set(ctx, &m); diags.HasError() {
		t.Fatalf("building state: %v", diags)
	}
	return st
}

// snapshotTestExpectDiag checks that diags is empty when want is "", else
// that some diagnostic mentions want.
func snapshotTestExpectDiag(t *testing.T, diags diag.Diagnostics, want string) {
	t.Helper()
	if want == "" {
		if len(diags) > 0 {
			t.Errorf("unexpected diagnostics: %v", diags)
		}
		return
	}
	for _, d := range diags {
		if strings.Contains(d.Summary()+" "+d.Detail(), want) {
			return
		}
	}
	t.Errorf("no diagnostic mentions %q: %v", want, diags)
}

// snapshotTestFakePlatform is a platform with only snapshots, whose
// capabilities a test chooses.
type snapshotTestFakePlatform struct {
	caps  platform.Capabilities
	snaps snapshotTestFakeSnapshots
}

func (f *snapshotTestFakePlatform) Name() string                        { return "fakeplat" }
func (f *snapshotTestFakePlatform) Capabilities() platform.Capabilities { return f.caps }
func (f *snapshotTestFakePlatform) Close() error                        { return nil }
func (f *snapshotTestFakePlatform) Templates() platform.TemplateService { return nil }
func (f *snapshotTestFakePlatform) Volumes() platform.VolumeService     { return nil }
func (f *snapshotTestFakePlatform) Sandboxes() platform.SandboxService  { return nil }
func (f *snapshotTestFakePlatform) Snapshots() platform.SnapshotService { return &f.snaps }

type snapshotTestFakeSnapshots struct {
	get         *platform.Snapshot
	deleteErr   error
	deleteCalls int
}

func (s *snapshotTestFakeSnapshots) Create(context.Context, platform.SnapshotSpec) (*platform.Snapshot, error) {
	return nil, errors.New("not used")
}

func (s *snapshotTestFakeSnapshots) Get(_ context.Context, id string) (*platform.Snapshot, error) {
	if s.get == nil {
		return nil, &platform.NotFoundError{Kind: "snapshot", ID: id}
	}
	return s.get, nil
}

func (s *snapshotTestFakeSnapshots) List(context.Context, platform.SnapshotFilter) ([]platform.Snapshot, error) {
	return nil, nil
}

func (s *snapshotTestFakeSnapshots) Delete(context.Context, string) error {
	s.deleteCalls++
	return s.deleteErr
}
