package provider

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// templateGuardTemplates is a TemplateService that counts the builds asked
// of it; the other methods are not called by Create and Update.
type templateGuardTemplates struct {
	platform.TemplateService
	builds int
}

func (s *templateGuardTemplates) Create(context.Context, platform.TemplateSpec) (*platform.Template, error) {
	s.builds++
	return &platform.Template{ID: "tpl-1", BuildID: "build-2", Status: "ready", CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}, nil
}

func (s *templateGuardTemplates) Rebuild(context.Context, string, platform.TemplateSpec) (*platform.Template, error) {
	s.builds++
	return &platform.Template{ID: "tpl-1", BuildID: "build-2", Status: "ready", CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}, nil
}

// templateGuardPlatform is templateTestFakePlatform with templates.
type templateGuardPlatform struct {
	templateTestFakePlatform
	templates *templateGuardTemplates
}

func (p *templateGuardPlatform) Templates() platform.TemplateService { return p.templates }

// TestTemplateApplyContextChanged: a create or a rebuild whose context_dir
// no longer hashes to the planned context_hash (a file changed after the
// plan) fails with an error on context_dir naming both hashes and saying
// to plan again, and builds nothing; with the files as planned it builds.
func TestTemplateApplyContextChanged(t *testing.T) {
	ctx := t.Context()
	const df = "FROM scratch\nCOPY . /app\n"
	for _, op := range []string{"create", "update"} {
		for _, changed := range []bool{false, true} {
			name := op + "/unchanged"
			if changed {
				name = op + "/changed after the plan"
			}
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				file := filepath.Join(dir, "agent.sh")
				if err := os.WriteFile(file, []byte("echo one\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				planned, err := templateContextHash(dir, df)
				if err != nil {
					t.Fatal(err)
				}
				if changed {
					if err := os.WriteFile(file, []byte("echo two\n"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				templates := &templateGuardTemplates{}
				r := &templateResource{platform: &templateGuardPlatform{
					templateTestFakePlatform: templateTestFakePlatform{caps: platform.Capabilities{Attributes: platform.Attributes{
						platform.AttrTemplateDockerfile: {Support: platform.InPlace},
					}}},
					templates: templates,
				}}
				plan := templateTestModel(dir, df)
				plan.ContextHash = types.StringValue(planned)
				plan.ID = types.StringValue("tpl-1")
				plan.BuildID, plan.Status, plan.CreatedAt = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
				plan.Platform, plan.LastUsedAt = types.StringUnknown(), types.StringUnknown()
				plan.ExpiresAt, plan.RetentionRule, plan.RetentionAction = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
				planValue := templateTestTFValue(t, r, plan)

				var diags diag.Diagnostics
				var text string
				var st tfsdk.State
				switch op {
				case "create":
					resp := resource.CreateResponse{State: tfsdk.State{Schema: planValue.Schema, Raw: planValue.Raw.Copy()}}
					resp.State.RemoveResource(ctx)
					r.Create(ctx, resource.CreateRequest{Plan: tfsdk.Plan(planValue), Config: tfsdk.Config(planValue)}, &resp)
					diags, text, st = resp.Diagnostics, templateGuardDiagText(resp.Diagnostics), resp.State
				case "update":
					prior := templateTestModel(dir, df)
					prior.ID = types.StringValue("tpl-1")
					prior.ContextHash = types.StringValue("sha256:the-last-build")
					prior.BuildID, prior.Status = types.StringValue("build-1"), types.StringValue("ready")
					prior.CreatedAt = types.StringValue("2025-01-01T00:00:00Z")
					priorValue := templateTestTFValue(t, r, prior)
					resp := resource.UpdateResponse{State: tfsdk.State{Schema: priorValue.Schema, Raw: priorValue.Raw.Copy()}}
					r.Update(ctx, resource.UpdateRequest{Plan: tfsdk.Plan(planValue), Config: tfsdk.Config(planValue), State: priorValue}, &resp)
					diags, text, st = resp.Diagnostics, templateGuardDiagText(resp.Diagnostics), resp.State
					if changed {
						var got templateModel
						if d := st.Get(ctx, &got); d.HasError() {
							t.Fatal(d)
						}
						if got.ContextHash.ValueString() != "sha256:the-last-build" || got.BuildID.ValueString() != "build-1" {
							t.Errorf("the failed update changed the state: context_hash %v, build_id %v", got.ContextHash, got.BuildID)
						}
					}
				}
				if !changed {
					if diags.HasError() {
						t.Fatalf("files as planned: %s", text)
					}
					if templates.builds != 1 {
						t.Fatalf("files as planned: %d builds, want 1", templates.builds)
					}
					return
				}
				if templates.builds != 0 {
					t.Errorf("context changed after the plan: %d builds, want none", templates.builds)
				}
				if !diags.HasError() {
					t.Fatal("context changed after the plan: no error")
				}
				now, _ := templateContextHash(dir, df)
				for _, want := range []string{"Build context changed since the plan", "context_dir", planned, now,
					"the files of context_dir changed after the plan was made; run terraform plan again"} {
					if !strings.Contains(text, want) {
						t.Errorf("the error does not say %q:\n%s", want, text)
					}
				}
				if op == "create" && !st.Raw.IsNull() {
					t.Errorf("the failed create saved a state: %v", st.Raw)
				}
			})
		}
	}
}

// templateGuardDiagText is every diagnostic's attribute path, summary and
// detail.
func templateGuardDiagText(diags diag.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		if wp, ok := d.(diag.DiagnosticWithPath); ok {
			b.WriteString(wp.Path().String() + ": ")
		}
		b.WriteString(d.Summary() + ": " + d.Detail() + "\n")
	}
	return b.String()
}
