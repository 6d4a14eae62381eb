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
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// sandboxFakePlatform answers sandbox and volume calls with canned results,
// to drive the CRUD paths the real engine cannot be made to take on demand.
type sandboxFakePlatform struct {
	boxes      *sandboxFakeBoxes
	vols       *sandboxFakeVolumes
	extensions platform.Extensions
}

func (p *sandboxFakePlatform) Name() string                        { return "fake" }
func (p *sandboxFakePlatform) Capabilities() platform.Capabilities { return sandboxTestCaps }
func (p *sandboxFakePlatform) Close() error                        { return nil }
func (p *sandboxFakePlatform) Templates() platform.TemplateService { return nil }
func (p *sandboxFakePlatform) Volumes() platform.VolumeService     { return p.vols }
func (p *sandboxFakePlatform) Sandboxes() platform.SandboxService  { return p.boxes }
func (p *sandboxFakePlatform) Snapshots() platform.SnapshotService { return nil }

type sandboxFakeBoxes struct {
	box       *platform.Sandbox
	err       error
	gotSpec   platform.SandboxSpec
	deletedID string
	// updates records every Update call's change, in order.
	updates []platform.SandboxUpdate
}

func (f *sandboxFakeBoxes) Create(_ context.Context, spec platform.SandboxSpec) (*platform.Sandbox, error) {
	f.gotSpec = spec
	return f.box, f.err
}
func (f *sandboxFakeBoxes) Get(context.Context, string) (*platform.Sandbox, error) {
	return f.box, f.err
}
func (f *sandboxFakeBoxes) List(context.Context, platform.SandboxFilter) ([]platform.Sandbox, error) {
	return nil, nil
}
func (f *sandboxFakeBoxes) SetState(context.Context, string, platform.SandboxState) (*platform.Sandbox, error) {
	return f.box, f.err
}
func (f *sandboxFakeBoxes) Update(_ context.Context, _ string, change platform.SandboxUpdate) (*platform.Sandbox, error) {
	f.updates = append(f.updates, change)
	return f.box, f.err
}
func (f *sandboxFakeBoxes) Delete(_ context.Context, id string) error {
	f.deletedID = id
	return f.err
}

type sandboxFakeVolumes struct {
	vol *platform.Volume
	err error
	// updates records every Update call's change, in order.
	updates []platform.VolumeUpdate
}

func (f *sandboxFakeVolumes) Create(context.Context, platform.VolumeSpec) (*platform.Volume, error) {
	return f.vol, f.err
}
func (f *sandboxFakeVolumes) Get(context.Context, string) (*platform.Volume, error) {
	return f.vol, f.err
}
func (f *sandboxFakeVolumes) List(context.Context, platform.VolumeFilter) ([]platform.Volume, error) {
	return nil, nil
}
func (f *sandboxFakeVolumes) Update(_ context.Context, _ string, change platform.VolumeUpdate) (*platform.Volume, error) {
	f.updates = append(f.updates, change)
	return f.vol, f.err
}
func (f *sandboxFakeVolumes) Delete(context.Context, string) error { return f.err }

// sandboxTestTimeouts is an unset timeouts block.
func sandboxTestTimeouts() timeouts.Value {
	return timeouts.Value{Object: types.ObjectNull(map[string]attr.Type{
		"create": types.StringType, "update": types.StringType, "delete": types.StringType,
	})}
}

// sandboxTestSchemaOf returns a resource's schema and an empty state for it.
func sandboxTestSchemaOf(t *testing.T, r resource.Resource) (tfsdk.State, tfsdk.Plan) {
	t.Helper()
	ctx := context.Background()
	var resp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &resp)
	null := tftypes.NewValue(resp.Schema.Type().TerraformType(ctx), nil)
	return tfsdk.State{Schema: resp.Schema, Raw: null}, tfsdk.Plan{Schema: resp.Schema, Raw: null}
}

func sandboxTestMustSet(t *testing.T, diags diag.Diagnostics) {
	t.Helper()
	if diags.HasError() {
		t.Fatalf("building request: %v", diags)
	}
}

// TestSandboxCreateSavesHalfMadeBox: when the platform returns a box with an
// error, the box is saved (Terraform taints it) and the error reported, and
// the error message carries no env value.
func TestSandboxCreateSavesHalfMadeBox(t *testing.T) {
	ctx := context.Background()
	boxes := &sandboxFakeBoxes{
		box: &platform.Sandbox{ID: "c1", Name: "box", Status: platform.StateStarting, PlatformStatus: "created"},
		err: errors.New("waiting for the box to be ready: context deadline exceeded"),
	}
	r := &sandboxResource{platform: &sandboxFakePlatform{boxes: boxes}}
	state, plan := sandboxTestSchemaOf(t, r)

	m := sandboxTestModel()
	m.ID, m.CreatedAt, m.StartedAt = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
	m.Status = types.StringUnknown()
	m.Env = sandboxTestMap("API_TOKEN", "s3cret-value")
	m.Timeouts = sandboxTestTimeouts()
	sandboxTestMustSet(t, plan.Set(ctx, m))

	resp := resource.CreateResponse{State: state}
	r.Create(ctx, resource.CreateRequest{Plan: plan}, &resp)

	if !resp.Diagnostics.HasError() {
		t.Fatal("the platform's error must be reported")
	}
	for _, d := range resp.Diagnostics {
		if strings.Contains(d.Detail()+d.Summary(), "s3cret-value") {
			t.Errorf("diagnostic leaks an env value: %v", d)
		}
	}
	if boxes.gotSpec.Env["API_TOKEN"] != "s3cret-value" || boxes.gotSpec.State != platform.StateRunning {
		t.Errorf("spec sent = %+v", boxes.gotSpec)
	}
	var saved sandboxModel
	sandboxTestMustSet(t, resp.State.Get(ctx, &saved))
	sandboxTestEqual(t, "saved id", saved.ID.ValueString(), "c1")
	sandboxTestEqual(t, "saved state", saved.State.ValueString(), "running")
	sandboxTestEqual(t, "saved status", saved.Status.ValueString(), "starting")
}

// TestSandboxCreateFailsCleanly: no box, an error, nothing saved.
func TestSandboxCreateFailsCleanly(t *testing.T) {
	ctx := context.Background()
	r := &sandboxResource{platform: &sandboxFakePlatform{boxes: &sandboxFakeBoxes{err: errors.New("no such image")}}}
	state, plan := sandboxTestSchemaOf(t, r)
	m := sandboxTestModel()
	m.ID, m.CreatedAt, m.StartedAt = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
	m.Status = types.StringUnknown()
	m.Timeouts = sandboxTestTimeouts()
	sandboxTestMustSet(t, plan.Set(ctx, m))
	resp := resource.CreateResponse{State: state}
	r.Create(ctx, resource.CreateRequest{Plan: plan}, &resp)
	if !resp.Diagnostics.HasError() || !resp.State.Raw.IsNull() {
		t.Fatalf("want an error and no state, got %v / %v", resp.Diagnostics, resp.State.Raw)
	}
}

// TestSandboxReadGoneAndDeleteGone: a box gone outside Terraform is removed
// from state with a warning; deleting a box already gone succeeds.
func TestSandboxReadGoneAndDeleteGone(t *testing.T) {
	ctx := context.Background()
	gone := &platform.NotFoundError{Kind: "sandbox", ID: "box1"}
	r := &sandboxResource{platform: &sandboxFakePlatform{boxes: &sandboxFakeBoxes{err: gone}}}
	state, _ := sandboxTestSchemaOf(t, r)
	m := sandboxTestModel()
	m.Timeouts = sandboxTestTimeouts()
	sandboxTestMustSet(t, state.Set(ctx, m))

	readResp := resource.ReadResponse{State: state}
	r.Read(ctx, resource.ReadRequest{State: state}, &readResp)
	if readResp.Diagnostics.HasError() || readResp.Diagnostics.WarningsCount() != 1 || !readResp.State.Raw.IsNull() {
		t.Fatalf("want one warning and the resource removed, got %v (state null: %v)", readResp.Diagnostics, readResp.State.Raw.IsNull())
	}

	delResp := resource.DeleteResponse{State: state}
	r.Delete(ctx, resource.DeleteRequest{State: state}, &delResp)
	if delResp.Diagnostics.HasError() {
		t.Fatalf("deleting a box already gone must succeed: %v", delResp.Diagnostics)
	}
}

// TestVolumeReadGone: a volume gone outside Terraform is removed from state with a warning.
func TestVolumeReadGone(t *testing.T) {
	ctx := context.Background()
	r := &volumeResource{platform: &sandboxFakePlatform{vols: &sandboxFakeVolumes{err: &platform.NotFoundError{Kind: "volume", ID: "vol"}}}}
	state, _ := sandboxTestSchemaOf(t, r)
	m := volumeTestModel()
	m.Timeouts = sandboxTestTimeouts()
	sandboxTestMustSet(t, state.Set(ctx, m))
	resp := resource.ReadResponse{State: state}
	r.Read(ctx, resource.ReadRequest{State: state}, &resp)
	if resp.Diagnostics.HasError() || resp.Diagnostics.WarningsCount() != 1 || !resp.State.Raw.IsNull() {
		t.Fatalf("want one warning and the resource removed, got %v", resp.Diagnostics)
	}
	delResp := resource.DeleteResponse{State: state}
	r.Delete(ctx, resource.DeleteRequest{State: state}, &delResp)
	if delResp.Diagnostics.HasError() {
		t.Fatalf("deleting a volume already gone must succeed: %v", delResp.Diagnostics)
	}
}

// sandboxTestUpdate runs Update from state to plan and returns the state
// written and the diagnostics.
func sandboxTestUpdate(t *testing.T, r *sandboxResource, state, plan sandboxModel) (sandboxModel, diag.Diagnostics) {
	t.Helper()
	ctx := context.Background()
	st, pl := sandboxTestSchemaOf(t, r)
	sandboxTestMustSet(t, st.Set(ctx, state))
	sandboxTestMustSet(t, pl.Set(ctx, plan))
	resp := resource.UpdateResponse{State: st}
	r.Update(ctx, resource.UpdateRequest{Plan: pl, State: st}, &resp)
	var out sandboxModel
	if !resp.Diagnostics.HasError() {
		sandboxTestMustSet(t, resp.State.Get(ctx, &out))
	}
	return out, resp.Diagnostics
}

// TestSandboxUpdateSendsOneChange: the in-place changes of a plan reach the
// platform as one SandboxService.Update holding only what changed; a size
// left out is 0, the template's.
func TestSandboxUpdateSendsOneChange(t *testing.T) {
	boxes := &sandboxFakeBoxes{box: &platform.Sandbox{ID: "box1", Name: "box", Status: platform.StateRunning, MemoryMB: 512}}
	r := &sandboxResource{platform: &sandboxFakePlatform{boxes: boxes}}
	state := sandboxTestModel()
	state.Timeouts = sandboxTestTimeouts()
	plan := state
	plan.MemoryMB = types.Int64Value(512)
	got, diags := sandboxTestUpdate(t, r, state, plan)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if len(boxes.updates) != 1 {
		t.Fatalf("Update called %d times, want once: %+v", len(boxes.updates), boxes.updates)
	}
	u := boxes.updates[0]
	if u.CPUCount == nil || *u.CPUCount != 0 || u.MemoryMB == nil || *u.MemoryMB != 512 {
		t.Errorf("size sent = %v/%v, want 0 (the template's) / 512", u.CPUCount, u.MemoryMB)
	}
	if u.Labels != nil || u.Env != nil || u.Lifecycle != nil {
		t.Errorf("unchanged attributes sent: %+v", u)
	}
	sandboxTestEqual(t, "memory_mb", got.MemoryMB.ValueInt64(), int64(512))
}

// TestSandboxUpdateResumeSetsLifecycleAfter: a resume with a lifecycle
// change sends the lifecycle once, after the resume, naming what changed,
// so the timeout counts from the resume.
func TestSandboxUpdateResumeSetsLifecycleAfter(t *testing.T) {
	box := &platform.Sandbox{ID: "box1", Name: "box", TemplateID: "tpl", Status: platform.StateRunning, PlatformStatus: "running",
		CreatedAt: retentionTestT0, StartedAt: retentionTestT0}
	r, _ := retentionTestResource(t, box, nil)
	state := retentionTestPausedState()
	plan := state
	plan.State, plan.Timeout = types.StringValue("running"), types.StringValue("1h")
	if _, diags := sandboxTestUpdate(t, r, state, plan); diags.HasError() {
		t.Fatal(diags)
	}
	boxes, ok := r.platform.Sandboxes().(*sandboxFakeBoxes)
	if !ok {
		t.Fatalf("sandbox service is %T", r.platform.Sandboxes())
	}
	updates := boxes.updates
	if len(updates) != 1 {
		t.Fatalf("Update called %d times, want once (after the resume): %+v", len(updates), updates)
	}
	lc := updates[0].Lifecycle
	if lc == nil || lc.Lifecycle.Timeout != time.Hour || len(lc.Changed) != 1 || lc.Changed[0] != platform.AttrSandboxTimeout {
		t.Errorf("lifecycle sent = %+v, want timeout 1h, changed [%s]", lc, platform.AttrSandboxTimeout)
	}
	if sandboxChangesMoreThanLifecycle(updates[0]) {
		t.Errorf("the resume's Update holds more than the lifecycle: %+v", updates[0])
	}
}

// TestVolumeUpdateSendsOneChange: new labels and a larger size reach the
// platform as one VolumeService.Update.
func TestVolumeUpdateSendsOneChange(t *testing.T) {
	ctx := context.Background()
	vols := &sandboxFakeVolumes{vol: &platform.Volume{ID: "vol", Name: "vol", SizeGB: 5, State: "available",
		Labels: map[string]string{"a": "b"}}}
	r := &volumeResource{platform: &sandboxFakePlatform{vols: vols}}
	st, pl := sandboxTestSchemaOf(t, r)
	state := volumeTestModel()
	state.Timeouts = sandboxTestTimeouts()
	state.SizeGB = types.Int64Value(3)
	plan := state
	plan.SizeGB, plan.Labels = types.Int64Value(5), sandboxTestMap("a", "b")
	sandboxTestMustSet(t, st.Set(ctx, state))
	sandboxTestMustSet(t, pl.Set(ctx, plan))
	resp := resource.UpdateResponse{State: st}
	r.Update(ctx, resource.UpdateRequest{Plan: pl, State: st}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	if len(vols.updates) != 1 {
		t.Fatalf("Update called %d times, want once: %+v", len(vols.updates), vols.updates)
	}
	u := vols.updates[0]
	if u.SizeGB == nil || *u.SizeGB != 5 || u.Labels == nil || len(*u.Labels) != 1 || (*u.Labels)["a"] != "b" {
		t.Errorf("change sent = %+v, want size 5 and labels {a = b}", u)
	}
}
