package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// memorySnapshotsTestWhy is a refusing row's reason, worded as the
// platforms' tables word it: the error must carry it.
const memorySnapshotsTestWhy = "memory snapshots need no opt-in when a sandbox is created here; remove memory_snapshots or set it to false"

// The memory_snapshots rows of the tests: a platform that needs the
// choice made at create, one that accepts only false (its memory
// snapshots need no opt-in, or it has none), and one that does not report
// the choice back.
var (
	memorySnapshotsChosen     = platform.Attribute{Support: platform.Replace}
	memorySnapshotsFalseOnly  = platform.Attribute{Support: platform.Replace, Values: []string{"false"}, Why: memorySnapshotsTestWhy}
	memorySnapshotsUnreported = platform.Attribute{Support: platform.Replace, Unreported: true}
)

// memorySnapshotsTestPlatform is the sandbox fake with the
// memory_snapshots row a test chooses.
type memorySnapshotsTestPlatform struct {
	*sandboxFakePlatform
	row platform.Attribute
}

func (p memorySnapshotsTestPlatform) Capabilities() platform.Capabilities {
	c := sandboxTestCaps
	c.Attributes = sandboxTestAttributes(platform.Attributes{platform.AttrSandboxMemorySnapshots: p.row})
	return c
}

// memorySnapshotsTestResource is sbx_sandbox on a platform with row,
// whose sandbox calls boxes answers.
func memorySnapshotsTestResource(row platform.Attribute, boxes *sandboxFakeBoxes) *sandboxResource {
	return &sandboxResource{platform: memorySnapshotsTestPlatform{&sandboxFakePlatform{boxes: boxes}, row}}
}

// TestSandboxMemorySnapshotsPlan: a new box's memory_snapshots is judged
// by the platform's row: true where the row accepts only false is a
// plan-time error naming the attribute, the value, the platform and what
// to do; false (the default) and null are fine everywhere the row exists.
func TestSandboxMemorySnapshotsPlan(t *testing.T) {
	at := path.Root("memory_snapshots")
	tests := []struct {
		name  string
		row   platform.Attribute
		value types.Bool
		want  []string // substrings of the one error's detail; nil: no error
	}{
		{name: "true refused", row: memorySnapshotsFalseOnly, value: types.BoolValue(true),
			want: []string{"memory_snapshots = true is not supported on fake", "must be one of false", memorySnapshotsTestWhy}},
		{name: "false accepted where true is refused", row: memorySnapshotsFalseOnly, value: types.BoolValue(false)},
		{name: "null accepted where true is refused", row: memorySnapshotsFalseOnly, value: types.BoolNull()},
		{name: "true accepted", row: memorySnapshotsChosen, value: types.BoolValue(true)},
		{name: "false accepted", row: memorySnapshotsChosen, value: types.BoolValue(false)},
		{name: "unknown judged at apply", row: memorySnapshotsFalseOnly, value: types.BoolUnknown()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := memorySnapshotsTestResource(tt.row, &sandboxFakeBoxes{})
			plan := unknownPlanCreateModel()
			plan.MemorySnapshots = tt.value
			_, diags := retentionTestModifyPlan(t, r, plan, nil)
			sandboxTestExpectOneError(t, diags.Errors(), at, tt.want)
		})
	}
}

// TestSandboxMemorySnapshotsChange: a change of memory_snapshots replaces
// the box where the platform accepts it; a state written before the
// attribute existed (null) is false, so the default plans no change.
func TestSandboxMemorySnapshotsChange(t *testing.T) {
	at := path.Root("memory_snapshots")
	tests := []struct {
		name        string
		prior, plan types.Bool
		replace     bool
	}{
		{name: "false to true replaces", prior: types.BoolValue(false), plan: types.BoolValue(true), replace: true},
		{name: "true to false replaces", prior: types.BoolValue(true), plan: types.BoolValue(false), replace: true},
		{name: "unchanged", prior: types.BoolValue(true), plan: types.BoolValue(true)},
		{name: "null in state is false", prior: types.BoolNull(), plan: types.BoolValue(false)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			state, plan := sandboxTestModel(), sandboxTestModel()
			state.MemorySnapshots, plan.MemorySnapshots = tt.prior, tt.plan
			table := sandboxTestAttributes(nil)
			var diags diag.Diagnostics
			got := planAttributes(table, "fake", sandboxAttributes(plan, &state), &diags)
			if diags.HasError() {
				t.Fatal(diags)
			}
			replaced := false
			for _, p := range got.replace {
				replaced = replaced || p.Equal(at)
			}
			if replaced != tt.replace || len(got.inPlace) > 0 {
				t.Errorf("replace = %v, in place = %v; want memory_snapshots replacing: %v", got.replace, got.inPlace, tt.replace)
			}
		})
	}
}

// TestSandboxMemorySnapshotsCreate: the planned value reaches the
// platform in SandboxSpec.MemorySnapshots and is saved as planned.
func TestSandboxMemorySnapshotsCreate(t *testing.T) {
	for _, want := range []bool{true, false} {
		ctx := context.Background()
		boxes := &sandboxFakeBoxes{box: &platform.Sandbox{ID: "c1", Name: "box", Status: platform.StateRunning, MemorySnapshots: want}}
		r := memorySnapshotsTestResource(memorySnapshotsChosen, boxes)
		state, plan := sandboxTestSchemaOf(t, r)
		m := unknownPlanCreateModel()
		m.MemorySnapshots = types.BoolValue(want)
		sandboxTestMustSet(t, plan.Set(ctx, m))
		resp := resource.CreateResponse{State: state}
		r.Create(ctx, resource.CreateRequest{Plan: plan}, &resp)
		if resp.Diagnostics.HasError() {
			t.Fatal(resp.Diagnostics)
		}
		if boxes.gotSpec.MemorySnapshots != want {
			t.Errorf("SandboxSpec.MemorySnapshots = %v, want %v", boxes.gotSpec.MemorySnapshots, want)
		}
		var saved sandboxModel
		sandboxTestMustSet(t, resp.State.Get(ctx, &saved))
		sandboxTestEqual(t, "saved memory_snapshots", saved.MemorySnapshots.ValueBool(), want)
	}
}

// TestSandboxMemorySnapshotsRead: a read takes memory_snapshots from the
// platform where it reports it, also after an import; where its row says
// it does not (Unreported), the state keeps what it recorded, and an
// import leaves it null for the next plan to take from the configuration.
func TestSandboxMemorySnapshotsRead(t *testing.T) {
	tests := []struct {
		name     string
		row      platform.Attribute
		recorded types.Bool
		reported bool
		want     types.Bool
	}{
		{name: "reported true", row: memorySnapshotsChosen, recorded: types.BoolValue(false), reported: true, want: types.BoolValue(true)},
		{name: "reported false", row: memorySnapshotsFalseOnly, recorded: types.BoolNull(), want: types.BoolValue(false)},
		{name: "unreported keeps the state", row: memorySnapshotsUnreported, recorded: types.BoolValue(true), want: types.BoolValue(true)},
		{name: "unreported after an import stays null", row: memorySnapshotsUnreported, recorded: types.BoolNull(), reported: true,
			want: types.BoolNull()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			box := &platform.Sandbox{ID: "box1", Name: "box", Status: platform.StateRunning, MemorySnapshots: tt.reported}
			r := memorySnapshotsTestResource(tt.row, &sandboxFakeBoxes{box: box})
			st, _ := sandboxTestSchemaOf(t, r)
			m := sandboxTestModel()
			m.Timeouts = sandboxTestTimeouts()
			m.MemorySnapshots = tt.recorded
			sandboxTestMustSet(t, st.Set(ctx, m))
			resp := resource.ReadResponse{State: st}
			r.Read(ctx, resource.ReadRequest{State: st}, &resp)
			if resp.Diagnostics.HasError() {
				t.Fatal(resp.Diagnostics)
			}
			var got sandboxModel
			sandboxTestMustSet(t, resp.State.Get(ctx, &got))
			if !got.MemorySnapshots.Equal(tt.want) {
				t.Errorf("memory_snapshots = %s, want %s", got.MemorySnapshots, tt.want)
			}
		})
	}
}

// TestSandboxMemorySnapshotsUnreportedImport: an imported box whose
// platform does not report memory_snapshots takes the configured value in
// place, with a warning, instead of being replaced.
func TestSandboxMemorySnapshotsUnreportedImport(t *testing.T) {
	table := sandboxTestAttributes(platform.Attributes{platform.AttrSandboxMemorySnapshots: memorySnapshotsUnreported})
	state, plan := sandboxTestModel(), sandboxTestModel()
	state.MemorySnapshots, plan.MemorySnapshots = types.BoolNull(), types.BoolValue(true)
	recorded := unreportedAfterImport(table, sandboxAttributes(state, nil), nil)
	attrs := sandboxAttributes(plan, &state)
	taken := unreportedTaken(recorded, attrs)
	if len(taken) != 1 || taken[0] != platform.AttrSandboxMemorySnapshots {
		t.Fatalf("taken = %v, want [%s] (recorded %v)", taken, platform.AttrSandboxMemorySnapshots, recorded)
	}
	var diags diag.Diagnostics
	planUnreportedFromConfig(attrs, taken, "fake", "sandbox", "Sandbox", "box1", &diags)
	got := planAttributes(table, "fake", attrs, &diags)
	if diags.HasError() || diags.WarningsCount() != 1 || len(got.replace) > 0 {
		t.Fatalf("want one warning and no replacement, got replace %v, %v", got.replace, diags)
	}
}
