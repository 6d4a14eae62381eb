package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// An existing snapshot keeps the source it was taken of whatever the
// configuration now says, with a warning saying so and how to take a new
// one; only a switch between a sandbox and a volume replaces it.
func TestSnapshotSourcePlan(t *testing.T) {
	ctx := context.Background()
	boxSnap := func(source types.String) snapshotModel {
		m := snapshotTestModel()
		m.SandboxID, m.VolumeID = source, types.StringNull()
		return m
	}
	volSnap := snapshotModel{ID: types.StringValue("sha256:v"), SandboxID: types.StringNull(), VolumeID: types.StringValue("vol-a"),
		IncludeMemory: types.BoolValue(false), Labels: types.MapNull(types.StringType), Kind: types.StringValue("volume")}
	configVol := func(v types.String) snapshotModel {
		m := volSnap
		m.VolumeID = v
		return m
	}
	relabelled := boxSnap(types.StringValue("box-b"))
	relabelled.Labels = sandboxTestMap("gen", "2")
	cases := []struct {
		name        string
		state       snapshotModel
		config      snapshotModel
		wantSandbox types.String
		wantVolume  types.String
		wantReplace path.Paths
		wantWarn    []string // all in one warning; nil: no warning
	}{
		{"same source", boxSnap(types.StringValue("box-a")), boxSnap(types.StringValue("box-a")),
			types.StringValue("box-a"), types.StringNull(), nil, nil},
		{"another box", boxSnap(types.StringValue("box-a")), boxSnap(types.StringValue("box-b")),
			types.StringValue("box-a"), types.StringNull(), nil,
			[]string{`sandbox_id is now "box-b"`, `taken of sandbox "box-a"`, "replace_triggered_by", "terraform_data", "new\nsbx_snapshot"}},
		{"box replaced: known after apply", boxSnap(types.StringValue("box-a")), boxSnap(types.StringUnknown()),
			types.StringValue("box-a"), types.StringNull(), nil, []string{"known only after apply", `stays "box-a"`}},
		{"the same box by name", boxSnap(types.StringValue("box-a")), boxSnap(types.StringValue("named-a")),
			types.StringValue("box-a"), types.StringNull(), nil, nil},
		{"replaced for its labels anyway: no warning", boxSnap(types.StringValue("box-a")), relabelled,
			types.StringValue("box-a"), types.StringNull(), nil, nil},
		{"volume changed", volSnap, configVol(types.StringValue("vol-b")),
			types.StringNull(), types.StringValue("vol-a"), nil, []string{`volume_id is now "vol-b"`, `taken of volume "vol-a"`}},
		{"sandbox to volume replaces", boxSnap(types.StringValue("box-a")), configVol(types.StringValue("vol-b")),
			types.StringNull(), types.StringValue("vol-b"), path.Paths{pathSnapshotVolumeID}, nil},
		{"volume to sandbox replaces", volSnap, boxSnap(types.StringValue("box-a")),
			types.StringValue("box-a"), types.StringNull(), path.Paths{pathSnapshotSandboxID}, nil},
		{"imported, source confirmed", boxSnap(types.StringNull()), boxSnap(types.StringValue("box-a")),
			types.StringValue("box-a"), types.StringNull(), nil, nil},
		{"imported, source not confirmed: recorded with a warning", boxSnap(types.StringNull()), boxSnap(types.StringValue("box-b")),
			types.StringValue("box-b"), types.StringNull(), nil, []string{"does not confirm", `sandbox box-b`, "not taken again"}},
		{"imported, source known after apply", boxSnap(types.StringNull()), boxSnap(types.StringUnknown()),
			types.StringUnknown(), types.StringNull(), nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fake := &snapshotSourceTestPlatform{
				snapshotTestFakePlatform: snapshotTestFakePlatform{caps: platform.Capabilities{SnapshotListsBySource: true}},
				boxes:                    map[string]string{"box-a": "box-a", "named-a": "box-a", "box-b": "box-b"},
				sources:                  map[string]string{"box-a": "sha256:x"},
			}
			r := &snapshotResource{platform: fake}
			plan := tc.config // what the framework plans before ModifyPlan
			var diags diag.Diagnostics
			replace := r.snapshotSourcePlan(ctx, tc.config, tc.state, &plan, &diags)
			if !plan.SandboxID.Equal(tc.wantSandbox) || !plan.VolumeID.Equal(tc.wantVolume) {
				t.Errorf("planned sandbox_id %s, volume_id %s; want %s, %s", plan.SandboxID, plan.VolumeID, tc.wantSandbox, tc.wantVolume)
			}
			if len(replace) != len(tc.wantReplace) || (len(replace) == 1 && !replace[0].Equal(tc.wantReplace[0])) {
				t.Errorf("replace = %v, want %v", replace, tc.wantReplace)
			}
			if diags.HasError() {
				t.Fatalf("errors: %v", diags)
			}
			warns := diags.Warnings()
			if tc.wantWarn == nil {
				if len(warns) > 0 {
					t.Errorf("unexpected warnings: %v", warns)
				}
				return
			}
			if len(warns) != 1 {
				t.Fatalf("warnings = %v, want one", warns)
			}
			// The detail is read as terraform wraps it: any white space.
			text := strings.Join(strings.Fields(warns[0].Detail()), " ")
			for _, want := range tc.wantWarn {
				if !strings.Contains(text, strings.Join(strings.Fields(want), " ")) {
					t.Errorf("warning %q does not say %q", text, want)
				}
			}
		})
	}
}

// Where the platform cannot list a source's snapshots (Daytona), an
// imported snapshot's configured source is recorded as written: nothing
// could confirm it, so nothing warns that it is unconfirmed.
func TestSnapshotSourcePlanUnlistable(t *testing.T) {
	fake := &snapshotSourceTestPlatform{boxes: map[string]string{"box-b": "box-b"}}
	r := &snapshotResource{platform: fake}
	state := snapshotTestModel()
	state.SandboxID, state.VolumeID = types.StringNull(), types.StringNull()
	config := snapshotTestModel()
	config.SandboxID, config.VolumeID = types.StringValue("box-b"), types.StringNull()
	plan := config
	var diags diag.Diagnostics
	if replace := r.snapshotSourcePlan(context.Background(), config, state, &plan, &diags); len(replace) != 0 {
		t.Errorf("replace = %v, want none", replace)
	}
	if diags.HasError() || len(diags.Warnings()) != 0 {
		t.Errorf("diagnostics %v, want none", diags)
	}
	if plan.SandboxID.ValueString() != "box-b" {
		t.Errorf("planned sandbox_id %s, want box-b", plan.SandboxID)
	}
}

// The source of a snapshot is kept as created or stored; the platform's
// answer fills only a source state does not have.
func TestKeepSourceFromState(t *testing.T) {
	snap := &platform.Snapshot{SandboxID: "0123abcd"}
	m := snapshotModel{SandboxID: types.StringValue("mybox"), VolumeID: types.StringNull()}
	keepSourceFromState(&m, snap)
	if m.SandboxID.ValueString() != "mybox" || !m.VolumeID.IsNull() {
		t.Fatalf("configured name not kept: %+v", m)
	}
	m.SandboxID = types.StringNull()
	keepSourceFromState(&m, snap)
	if m.SandboxID.ValueString() != "0123abcd" {
		t.Fatalf("source not filled after an import: %+v", m)
	}
}

// snapshotSourceTestPlatform resolves sandbox references (boxes: reference
// to id) and lists a snapshot under its source (sources: source to id).
type snapshotSourceTestPlatform struct {
	snapshotTestFakePlatform
	boxes   map[string]string
	sources map[string]string
}

func (f *snapshotSourceTestPlatform) Sandboxes() platform.SandboxService {
	return snapshotSourceTestBoxes{f}
}

func (f *snapshotSourceTestPlatform) Snapshots() platform.SnapshotService {
	return snapshotSourceTestSnaps{&f.snaps, f}
}

type snapshotSourceTestBoxes struct{ f *snapshotSourceTestPlatform }

func (b snapshotSourceTestBoxes) Get(_ context.Context, id string) (*platform.Sandbox, error) {
	if box, ok := b.f.boxes[id]; ok {
		return &platform.Sandbox{ID: box}, nil
	}
	return nil, &platform.NotFoundError{Kind: "sandbox", ID: id}
}

func (snapshotSourceTestBoxes) Create(context.Context, platform.SandboxSpec) (*platform.Sandbox, error) {
	return nil, nil
}

func (snapshotSourceTestBoxes) List(context.Context, platform.SandboxFilter) ([]platform.Sandbox, error) {
	return nil, nil
}

func (snapshotSourceTestBoxes) SetState(context.Context, string, platform.SandboxState) (*platform.Sandbox, error) {
	return nil, nil
}

func (snapshotSourceTestBoxes) Update(context.Context, string, platform.SandboxUpdate) (*platform.Sandbox, error) {
	return nil, nil
}
func (snapshotSourceTestBoxes) Delete(context.Context, string) error { return nil }

type snapshotSourceTestSnaps struct {
	*snapshotTestFakeSnapshots
	f *snapshotSourceTestPlatform
}

func (s snapshotSourceTestSnaps) List(_ context.Context, filter platform.SnapshotFilter) ([]platform.Snapshot, error) {
	if id, ok := s.f.sources[filter.SandboxID]; ok && filter.SandboxID != "" {
		return []platform.Snapshot{{ID: id, SandboxID: filter.SandboxID}}, nil
	}
	return nil, nil
}
