package provider

import (
	"context"
	"errors"
	"strings"
	"testing"

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
	boxes *sandboxFakeBoxes
	vols  *sandboxFakeVolumes
}

func (p *sandboxFakePlatform) Name() string                        { return "fake" }
func (p *sandboxFakePlatform) Capabilities() platform.Capabilities { return sandboxTestCaps }
func (p *sandboxFakePlatform) Templates() platform.TemplateService { return nil }
func (p *sandboxFakePlatform) Volumes() platform.VolumeService     { return p.vols }
func (p *sandboxFakePlatform) Sandboxes() platform.SandboxService  { return p.boxes }
func (p *sandboxFakePlatform) Snapshots() platform.SnapshotService { return nil }

type sandboxFakeBoxes struct {
	box       *platform.Sandbox
	err       error
	gotSpec   platform.SandboxSpec
	deletedID string
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
func (f *sandboxFakeBoxes) SetLifecycle(context.Context, string, platform.Lifecycle) (*platform.Sandbox, error) {
	return f.box, f.err
}
func (f *sandboxFakeBoxes) Resize(context.Context, string, int64, int64) (*platform.Sandbox, error) {
	return f.box, f.err
}
func (f *sandboxFakeBoxes) Delete(_ context.Context, id string) error {
	f.deletedID = id
	return f.err
}

type sandboxFakeVolumes struct {
	vol *platform.Volume
	err error
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
func (f *sandboxFakeVolumes) SetLabels(context.Context, string, map[string]string) (*platform.Volume, error) {
	return f.vol, f.err
}
func (f *sandboxFakeVolumes) Resize(context.Context, string, int64) (*platform.Volume, error) {
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
	m.Status, m.PlatformStatus = types.StringUnknown(), types.StringUnknown()
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
	m.Status, m.PlatformStatus = types.StringUnknown(), types.StringUnknown()
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
