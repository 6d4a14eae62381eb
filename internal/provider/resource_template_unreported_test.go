package provider

import (
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// templateUnreportedTable reports no template's image or Dockerfile back.
var templateUnreportedTable = platform.Attributes{
	platform.AttrTemplateImage:        {Support: platform.Replace, Unreported: true},
	platform.AttrTemplateDockerfile:   {Support: platform.Replace, Unreported: true},
	platform.AttrTemplateFromTemplate: {Support: platform.Replace},
}

// templateImported is a template as an import leaves it where nothing but
// its id and build is reported.
func templateImported() templateModel {
	return templateModel{ID: types.StringValue("im-1"), Name: types.StringNull(), Dockerfile: types.StringNull(),
		Image: types.StringNull(), FromTemplate: types.StringNull(), ContextDir: types.StringNull(), ContextHash: types.StringNull(),
		Status: types.StringValue(platform.TemplateReady)}
}

func TestTemplateUnreportedAfterImport(t *testing.T) {
	named := templateImported()
	named.Name = types.StringValue("agent")
	adopted := named
	adopted.Image = types.StringValue("reg/agent:1")
	tests := []struct {
		name  string
		state templateModel
		want  []string
	}{
		{"nothing reported", templateImported(),
			[]string{platform.AttrTemplateDockerfile, platform.AttrTemplateImage, templateNameKey}},
		{"a reported name is not recorded", named, []string{platform.AttrTemplateDockerfile, platform.AttrTemplateImage}},
		{"a reported image is not recorded", adopted, []string{platform.AttrTemplateDockerfile}},
		// An apply killed while it built left a template no box starts
		// from: its Dockerfile is not recorded, so the plan builds it.
		{"build unfinished", withStatus(adopted, "building"), []string{}},
		{"build failed", withStatus(adopted, "error"), []string{}},
		{"inactive", withStatus(adopted, platform.TemplateInactive), []string{platform.AttrTemplateDockerfile}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := templateUnreportedAfterImport(templateUnreportedTable, tc.state); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestTemplateTakeUnreported: a taken attribute is no change against the
// state any more (no rebuild); one not taken still is.
func TestTemplateTakeUnreported(t *testing.T) {
	plan := templateImported()
	plan.Name = types.StringValue("agent")
	plan.Dockerfile = types.StringValue("FROM alpine\n")
	plan.ContextHash = types.StringValue("sha256:1")
	plan.ContextDir = types.StringValue("ctx")
	tests := []struct {
		name        string
		recorded    []string
		wantTaken   []string
		wantRebuild bool
	}{
		{"recorded", []string{platform.AttrTemplateDockerfile, templateNameKey},
			[]string{platform.AttrTemplateDockerfile, templateNameKey}, false},
		{"not recorded", nil, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			state := templateImported()
			taken := unreportedTaken(tc.recorded, templateUnreportedAttributes(plan, state))
			if !reflect.DeepEqual(taken, tc.wantTaken) {
				t.Fatalf("taken = %v, want %v", taken, tc.wantTaken)
			}
			templateTakeUnreported(&state, plan, taken)
			if got := len(templateRebuildChanges(plan, state)) > 0; got != tc.wantRebuild {
				t.Errorf("rebuild = %v, want %v (state %+v)", got, tc.wantRebuild, state)
			}
			if !tc.wantRebuild && (!state.Name.Equal(plan.Name) || !state.ContextDir.Equal(plan.ContextDir)) {
				t.Errorf("name and context_dir must be taken along: %+v", state)
			}
		})
	}
}

// TestTakenAfterImport: a schema replacement is spared only for a key the
// import recorded and a prior the import left empty.
func TestTakenAfterImport(t *testing.T) {
	ctx := context.Background()
	recorded := memoryPrivate{}
	var diags diag.Diagnostics
	writeUnreported(ctx, recorded, []string{platform.AttrSandboxVolumeMount}, &diags)
	tests := []struct {
		name       string
		private    privateState
		key        string
		priorEmpty bool
		want       bool
	}{
		{"recorded, left empty", recorded, platform.AttrSandboxVolumeMount, true, true},
		{"recorded, but a prior value", recorded, platform.AttrSandboxVolumeMount, false, false},
		{"another key", recorded, platform.AttrTemplateImage, true, false},
		{"no record (made by the provider)", memoryPrivate{}, platform.AttrSandboxVolumeMount, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := takenAfterImport(ctx, tc.private, tc.key, tc.priorEmpty, &diags); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	if diags.HasError() {
		t.Fatal(diags)
	}
}

func withStatus(m templateModel, status string) templateModel {
	m.Status = types.StringValue(status)
	return m
}
