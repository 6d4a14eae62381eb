package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// templateOwnFakePlatform plans ids from names (platform.IDPlanner) when
// planIDs is set, and has a template service that records deletes.
type templateOwnFakePlatform struct {
	templateTestFakePlatform
	planIDs   bool
	templates *templateOwnFakeTemplates
}

func (f *templateOwnFakePlatform) Templates() platform.TemplateService { return f.templates }

func (f *templateOwnFakePlatform) PlannedID(kind, name string) (string, bool) {
	if !f.planIDs || kind != "template" {
		return "", false
	}
	return "planned/" + name, true
}

// templateOwnFakeTemplates answers Delete with deleteErr and records the ids.
type templateOwnFakeTemplates struct {
	platform.TemplateService
	deleteErr error
	deleted   []string
}

func (f *templateOwnFakeTemplates) Delete(_ context.Context, id string) error {
	f.deleted = append(f.deleted, id)
	return f.deleteErr
}

func templateOwnNullState(t *testing.T, r *templateResource) tfsdk.State {
	t.Helper()
	var sresp resource.SchemaResponse
	r.Schema(t.Context(), resource.SchemaRequest{}, &sresp)
	return tfsdk.State{Schema: sresp.Schema, Raw: tftypes.NewValue(sresp.Schema.Type().TerraformType(t.Context()), nil)}
}

// A create plans the id known where the platform derives it from the name,
// and leaves it unknown elsewhere.
func TestTemplateModifyPlanPlansKnownID(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	for _, planIDs := range []bool{true, false} {
		r := &templateResource{platform: &templateOwnFakePlatform{planIDs: planIDs, templateTestFakePlatform: templateTestFakePlatform{
			caps: platform.Capabilities{Attributes: platform.Attributes{
				platform.AttrTemplateDockerfile: {Support: platform.InPlace},
			}}}}}
		planned := templateTestModel(dir, "FROM scratch\n")
		planned.ID = types.StringUnknown()
		planned.ContextHash, planned.BuildID = types.StringUnknown(), types.StringUnknown()
		planned.Status, planned.CreatedAt = types.StringUnknown(), types.StringUnknown()
		req := resource.ModifyPlanRequest{
			Config: tfsdk.Config(templateTestTFValue(t, r, planned)),
			Plan:   tfsdk.Plan(templateTestTFValue(t, r, planned)),
			State:  templateOwnNullState(t, r),
		}
		resp := resource.ModifyPlanResponse{Plan: req.Plan}
		r.ModifyPlan(ctx, req, &resp)
		if resp.Diagnostics.HasError() {
			t.Fatal(resp.Diagnostics)
		}
		var id types.String
		resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, path.Root("id"), &id)...)
		switch {
		case planIDs && id.ValueString() != "planned/agent":
			t.Errorf("with an IDPlanner, planned id = %v, want planned/agent", id)
		case !planIDs && !id.IsUnknown():
			t.Errorf("without an IDPlanner, planned id = %v, want unknown", id)
		}
	}
}

// An imported image the provider did not build is never rebuilt in place:
// a changed build input replaces it. Its name changes in place.
func TestTemplateModifyPlanForeignImage(t *testing.T) {
	ctx := t.Context()
	r := &templateResource{platform: &templateOwnFakePlatform{templateTestFakePlatform: templateTestFakePlatform{
		caps: platform.Capabilities{Attributes: platform.Attributes{
			platform.AttrTemplateImage:    {Support: platform.InPlace},
			platform.AttrTemplateStartCmd: {Support: platform.InPlace},
		}}}}}
	state := templateTestModel("", "")
	state.Dockerfile, state.ContextDir = types.StringNull(), types.StringNull()
	state.ID, state.Image = types.StringValue("user/agent:1"), types.StringValue("user/agent:1")
	state.ContextHash = types.StringNull()
	state.BuildID, state.Status = types.StringValue("sha256:1"), types.StringValue("ready")
	state.CreatedAt = types.StringValue("2026-01-01T00:00:00Z")
	if !templateIsForeign(state) {
		t.Fatal("an image imported by its own reference is not seen as foreign")
	}
	adopted := state
	adopted.ID = types.StringValue("sbx/agent:latest")
	if templateIsForeign(adopted) {
		t.Fatal("a template the provider adopted from an image is seen as foreign")
	}

	planned := state
	planned.StartCmd = types.StringValue("/agent")
	req := resource.ModifyPlanRequest{
		Config: tfsdk.Config(templateTestTFValue(t, r, planned)),
		Plan:   tfsdk.Plan(templateTestTFValue(t, r, planned)),
		State:  templateTestTFValue(t, r, state),
	}
	resp := resource.ModifyPlanResponse{Plan: req.Plan}
	r.ModifyPlan(ctx, req, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	if len(resp.RequiresReplace) != 1 || !resp.RequiresReplace[0].Equal(pathTemplateStartCmd) {
		t.Errorf("RequiresReplace = %v, want start_cmd", resp.RequiresReplace)
	}

	for _, tc := range []struct {
		state templateModel
		want  bool
	}{{state, false}, {adopted, true}} {
		var out stringplanmodifier.RequiresReplaceIfFuncResponse
		templateNameRequiresReplace(ctx, planmodifier.StringRequest{State: templateTestTFValue(t, r, tc.state)}, &out)
		if out.Diagnostics.HasError() || out.RequiresReplace != tc.want {
			t.Errorf("renaming %s: requires replace = %v, want %v", tc.state.ID, out.RequiresReplace, tc.want)
		}
	}
}

// Reads of an image the provider did not build: the import fills in name
// and image, later reads keep the configured name, and the image's own
// labels are never taken for the template's.
func TestTemplateApplyReadForeignImage(t *testing.T) {
	read := &platform.Template{ID: "user/agent:1", Image: "user/agent:1", Name: "agent", BuildID: "sha256:1",
		Status: "ready", Labels: map[string]string{"maintainer": "someone"}}
	var m templateModel
	m.ID = types.StringValue("user/agent:1")
	m.Labels = types.MapNull(types.StringType)
	m.applyRead(read, true)
	if m.Name.ValueString() != "agent" || m.Image.ValueString() != "user/agent:1" || !m.Labels.IsNull() {
		t.Errorf("after import: name %v image %v labels %v", m.Name, m.Image, m.Labels)
	}
	m.Name = types.StringValue("configured")
	m.applyRead(read, false)
	if m.Name.ValueString() != "configured" || !m.Labels.IsNull() {
		t.Errorf("after a refresh: name %v labels %v; want the configured name and no labels", m.Name, m.Labels)
	}

	// A template the provider built reads its name and labels back.
	built := &platform.Template{ID: "sbx/web:latest", Name: "web", BuildID: "sha256:2", Status: "ready",
		Labels: map[string]string{"team": "a"}}
	var b templateModel
	b.Labels = types.MapNull(types.StringType)
	b.applyRead(built, false)
	if b.Name.ValueString() != "web" || !b.Image.IsNull() || len(b.Labels.Elements()) != 1 {
		t.Errorf("built template read as name %v image %v labels %v", b.Name, b.Image, b.Labels)
	}
}

// Destroying a template whose image the provider did not build forgets it
// with a warning saying the image was left in place; other errors stay errors.
func TestTemplateDeleteLeavesForeignImage(t *testing.T) {
	ctx := t.Context()
	fake := &templateOwnFakeTemplates{deleteErr: &platform.NotOwnedError{Kind: "template", Name: "agent",
		ID: "user/agent:1", Detail: "image user/agent:1 was not built by this provider"}}
	r := &templateResource{platform: &templateOwnFakePlatform{templates: fake}}
	state := templateTestModel("", "")
	state.Dockerfile, state.ContextDir = types.StringNull(), types.StringNull()
	state.ID, state.Image = types.StringValue("user/agent:1"), types.StringValue("user/agent:1")
	req := resource.DeleteRequest{State: templateTestTFValue(t, r, state)}
	resp := resource.DeleteResponse{State: req.State}
	r.Delete(ctx, req, &resp)
	if resp.Diagnostics.HasError() || len(fake.deleted) != 1 || fake.deleted[0] != "user/agent:1" {
		t.Fatalf("delete: %v (deleted %v)", resp.Diagnostics, fake.deleted)
	}
	warnings := resp.Diagnostics.Warnings()
	if len(warnings) != 1 || warnings[0].Summary() != "Template image left in place" ||
		!strings.Contains(warnings[0].Detail(), "was left in place because the provider did not build it") ||
		!strings.Contains(warnings[0].Detail(), "was not built by this provider") {
		t.Errorf("warnings = %v", warnings)
	}

	fake.deleteErr = &platform.ConflictError{Kind: "template", ID: "sbx/agent:latest", Reason: "still in use"}
	resp = resource.DeleteResponse{State: req.State}
	r.Delete(ctx, req, &resp)
	if !resp.Diagnostics.HasError() {
		t.Error("a conflict on delete was not an error")
	}
}
