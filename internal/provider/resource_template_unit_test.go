package provider

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func TestTemplateNameValidators(t *testing.T) {
	cases := []struct {
		name  string
		valid bool
	}{
		{"agent", true},
		{"agent-2", true},
		{"my.agent_v1-beta", true},
		{"a", true},
		{"0", true},
		{strings.Repeat("a", 128), true},
		{strings.Repeat("a", 129), false},
		{"", false},
		{"Agent", false},
		{"agent--2", false},
		{"-agent", false},
		{"agent.", false},
		{"my agent", false},
		{"sbx/agent", false},
		{"agent:latest", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var diags diag.Diagnostics
			for _, v := range templateNameValidators() {
				req := validator.StringRequest{Path: path.Root("name"), ConfigValue: types.StringValue(tc.name)}
				var resp validator.StringResponse
				v.ValidateString(t.Context(), req, &resp)
				diags.Append(resp.Diagnostics...)
			}
			if !diags.HasError() != tc.valid {
				t.Fatalf("template name %q: errors %v, want valid=%v", tc.name, diags, tc.valid)
			}
			for _, d := range diags.Errors() {
				// Each error names the attribute and the value (or its length).
				if !strings.HasPrefix(d.Detail(), "Attribute name ") || !strings.Contains(d.Detail(), "got: ") {
					t.Errorf("template name %q: unclear error %q", tc.name, d.Detail())
				}
			}
		})
	}
}

func TestTemplateRebuildChanges(t *testing.T) {
	labels := func(kv ...string) types.Map {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		v, _ := types.MapValueFrom(t.Context(), types.StringType, m)
		return v
	}
	base := func() templateModel {
		return templateModel{
			Name:        types.StringValue("agent"),
			Dockerfile:  types.StringValue("FROM scratch\n"),
			ContextDir:  types.StringValue("/ctx"),
			ContextHash: types.StringValue("abc"),
			StartCmd:    types.StringNull(),
			ReadyCmd:    types.StringValue("/agent ready"),
			CPUCount:    types.Int64Null(),
			MemoryMB:    types.Int64Null(),
			DiskMB:      types.Int64Null(),
			Labels:      labels("team", "a"),
		}
	}
	cases := []struct {
		name   string
		change func(*templateModel)
		want   []path.Path
	}{
		{"nothing", func(*templateModel) {}, nil},
		{"context dir moved, same content", func(m *templateModel) { m.ContextDir = types.StringValue("/elsewhere") }, nil},
		{"dockerfile", func(m *templateModel) { m.Dockerfile = types.StringValue("FROM scratch\nCMD [\"x\"]\n") },
			[]path.Path{pathTemplateDockerfile}},
		{"context content", func(m *templateModel) { m.ContextHash = types.StringValue("def") },
			[]path.Path{pathTemplateContextHash}},
		{"hash not known yet", func(m *templateModel) { m.ContextHash = types.StringUnknown() },
			[]path.Path{pathTemplateContextHash}},
		{"start_cmd set", func(m *templateModel) { m.StartCmd = types.StringValue("/agent") },
			[]path.Path{pathTemplateStartCmd}},
		{"ready_cmd removed", func(m *templateModel) { m.ReadyCmd = types.StringNull() },
			[]path.Path{pathTemplateReadyCmd}},
		{"sizes", func(m *templateModel) {
			m.CPUCount, m.MemoryMB, m.DiskMB = types.Int64Value(2), types.Int64Value(512), types.Int64Value(1024)
		}, []path.Path{pathTemplateCPUCount, pathTemplateMemoryMB, pathTemplateDiskMB}},
		{"labels", func(m *templateModel) { m.Labels = labels("team", "b") }, []path.Path{pathTemplateLabels}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			state, plan := base(), base()
			tc.change(&plan)
			got := templateRebuildChanges(plan, state)
			if len(got) != len(tc.want) {
				t.Fatalf("changes = %v, want %v", got, tc.want)
			}
			for i := range got {
				if !got[i].Equal(tc.want[i]) {
					t.Fatalf("changes = %v, want %v", got, tc.want)
				}
			}
		})
	}

	t.Run("after import the configured dockerfile is a rebuild", func(t *testing.T) {
		state, plan := base(), base()
		state.Dockerfile, state.ContextDir, state.ContextHash = types.StringNull(), types.StringNull(), types.StringNull()
		got := templateRebuildChanges(plan, state)
		want := path.Paths{pathTemplateDockerfile, pathTemplateContextHash}
		if len(got) != 2 || !got[0].Equal(want[0]) || !got[1].Equal(want[1]) {
			t.Fatalf("changes = %v, want %v", got, want)
		}
	})
}

// Why the test tables refuse a template attribute, worded as the platforms'
// tables word it: the error must carry it.
const (
	templateTestWhyBuild  = "this platform cannot build templates; build the image elsewhere and adopt it with `image`"
	templateTestWhyAdopt  = "this platform cannot adopt prebuilt images; build the template from a `dockerfile`"
	templateTestWhyCPU    = "templates have no size here; remove it and set `cpu_count` on each `sbx_sandbox`"
	templateTestWhyMemory = "templates have no size here; remove it and set `memory_mb` on each `sbx_sandbox`"
	templateTestWhyDisk   = "sandbox disks cannot be sized here; remove `disk_mb`"
	templateTestWhyLabels = "templates carry no labels on this platform; remove labels (find a template by its name with the sbx_template data source)"
)

// TestTemplateAttributes: the attribute table judges a new template's
// build inputs (planAttributes over templateAttributes), naming the
// attribute, the value and what to do instead.
func TestTemplateAttributes(t *testing.T) {
	docker := platform.Capabilities{Attributes: platform.Attributes{
		platform.AttrTemplateDockerfile: {Support: platform.InPlace},
		platform.AttrTemplateImage:      {Support: platform.InPlace},
		platform.AttrTemplateCPUCount:   {Support: platform.InPlace},
		platform.AttrTemplateMemoryMB:   {Support: platform.InPlace},
		platform.AttrTemplateDiskMB:     {Why: templateTestWhyDisk},
	}}
	unsized := platform.Capabilities{Attributes: platform.Attributes{
		platform.AttrTemplateDockerfile: {Support: platform.Replace},
		platform.AttrTemplateImage:      {Support: platform.Replace},
		platform.AttrTemplateCPUCount:   {Why: templateTestWhyCPU},
		platform.AttrTemplateMemoryMB:   {Why: templateTestWhyMemory},
		platform.AttrTemplateDiskMB:     {Why: templateTestWhyDisk},
	}}
	sized := platform.Capabilities{Attributes: platform.Attributes{
		platform.AttrTemplateDockerfile: {Support: platform.Replace},
		platform.AttrTemplateImage:      {Why: templateTestWhyAdopt},
		platform.AttrTemplateCPUCount:   {Support: platform.Replace},
		platform.AttrTemplateMemoryMB:   {Support: platform.Replace},
		platform.AttrTemplateDiskMB:     {Why: templateTestWhyDisk},
		platform.AttrTemplateLabels:     {Why: templateTestWhyLabels},
	}}
	sizedDisk := platform.Capabilities{Attributes: platform.Attributes{
		platform.AttrTemplateDockerfile: {Support: platform.Replace},
		platform.AttrTemplateCPUCount:   {Support: platform.Replace},
		platform.AttrTemplateMemoryMB:   {Support: platform.Replace},
		platform.AttrTemplateDiskMB:     {Support: platform.Replace},
	}}
	imageOnly := platform.Capabilities{Attributes: platform.Attributes{
		platform.AttrTemplateDockerfile: {Why: templateTestWhyBuild},
		platform.AttrTemplateImage:      {Support: platform.Replace},
	}}

	built := templateModel{Dockerfile: types.StringValue("FROM scratch\n")}
	withSizes := built
	withSizes.CPUCount, withSizes.MemoryMB = types.Int64Value(2), types.Int64Value(1024)
	withDisk := built
	withDisk.DiskMB = types.Int64Value(4096)
	adopted := templateModel{Image: types.StringValue("agent:1")}
	unknownCPU := built
	unknownCPU.CPUCount = types.Int64Unknown()
	labelledTpl := built
	labelledTpl.Labels = sandboxTestMap("team", "ml")
	labelling := platform.Capabilities{Attributes: maps.Clone(sized.Attributes)}
	labelling.Attributes[platform.AttrTemplateLabels] = platform.Attribute{Support: platform.Replace}

	cases := []struct {
		name      string
		caps      platform.Capabilities
		model     templateModel
		wantPaths []path.Path
		wantText  []string
	}{
		{"docker builds", docker, built, nil, nil},
		{"docker adopts", docker, adopted, nil, nil},
		{"docker takes template sizes", docker, withSizes, nil, nil},
		{"unsized platform rejects template sizes", unsized, withSizes,
			[]path.Path{pathTemplateCPUCount, pathTemplateMemoryMB},
			[]string{"cpu_count = 2 is not supported on testplat", "memory_mb = 1024", "sbx_sandbox"}},
		{"docker has no template disk", docker, withDisk, []path.Path{pathTemplateDiskMB}, []string{"disk_mb = 4096"}},
		{"sized platform without sized disks", sized, withDisk, []path.Path{pathTemplateDiskMB}, nil},
		{"sized platform takes sizes", sized, withSizes, nil, nil},
		{"sized platform with disks takes disk", sizedDisk, withDisk, nil, nil},
		{"unknown value still rejected", unsized, unknownCPU, []path.Path{pathTemplateCPUCount}, []string{"(known after apply)"}},
		{"labels where templates have none", sized, labelledTpl, []path.Path{pathTemplateLabels},
			[]string{`labels = { team = "ml" } is not supported on testplat`, "templates carry no labels", "sbx_template data source"}},
		{"labels where templates have them", labelling, labelledTpl, nil, nil},
		{"image-only platform cannot build", imageOnly, built, []path.Path{pathTemplateDockerfile}, []string{"adopt it with `image`"}},
		{"build-only platform cannot adopt", sized, adopted, []path.Path{pathTemplateImage}, []string{`image = "agent:1"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var diags diag.Diagnostics
			planAttributes(tc.caps.Attributes, "testplat", templateAttributes(tc.model, nil), &diags)
			templateTestExpectAttrErrors(t, diags, tc.wantPaths, tc.wantText)
		})
	}
}

func TestTemplatePlannedHash(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.txt"), []byte("v1"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "app.txt")
	const df = "FROM scratch\nCOPY app.txt /\n"

	t.Run("adopted image has no hash", func(t *testing.T) {
		var diags diag.Diagnostics
		got := templatePlannedHash(templateModel{Dockerfile: types.StringNull(), ContextDir: types.StringNull()}, &diags)
		if !got.IsNull() || diags.HasError() {
			t.Fatalf("got %v, %v; want null, no error", got, diags)
		}
	})
	t.Run("unknown input gives unknown hash", func(t *testing.T) {
		for _, m := range []templateModel{
			{Dockerfile: types.StringUnknown(), ContextDir: types.StringValue(dir)},
			{Dockerfile: types.StringValue(df), ContextDir: types.StringUnknown()},
		} {
			var diags diag.Diagnostics
			if got := templatePlannedHash(m, &diags); !got.IsUnknown() || diags.HasError() {
				t.Fatalf("got %v, %v; want unknown", got, diags)
			}
		}
	})
	t.Run("hash follows file content and dockerfile", func(t *testing.T) {
		var diags diag.Diagnostics
		m := templateModel{Dockerfile: types.StringValue(df), ContextDir: types.StringValue(dir)}
		h1 := templatePlannedHash(m, &diags)
		if err := os.WriteFile(file, []byte("v2"), 0o644); err != nil {
			t.Fatal(err)
		}
		h2 := templatePlannedHash(m, &diags)
		m.Dockerfile = types.StringValue(df + "CMD [\"/app\"]\n")
		h3 := templatePlannedHash(m, &diags)
		noCtx := templatePlannedHash(templateModel{Dockerfile: types.StringValue(df), ContextDir: types.StringNull()}, &diags)
		if diags.HasError() {
			t.Fatal(diags)
		}
		seen := map[string]bool{}
		for _, h := range []types.String{h1, h2, h3, noCtx} {
			if h.IsNull() || h.IsUnknown() || len(h.ValueString()) != 64 {
				t.Fatalf("hash %v is not a known sha256", h)
			}
			if seen[h.ValueString()] {
				t.Fatalf("hashes %v %v %v %v must all differ", h1, h2, h3, noCtx)
			}
			seen[h.ValueString()] = true
		}
	})
	t.Run("missing and non-directory context are errors naming the path", func(t *testing.T) {
		for _, bad := range []string{filepath.Join(dir, "nope"), file} {
			var diags diag.Diagnostics
			got := templatePlannedHash(templateModel{Dockerfile: types.StringValue(df), ContextDir: types.StringValue(bad)}, &diags)
			if !got.IsUnknown() {
				t.Fatalf("hash = %v, want unknown", got)
			}
			templateTestExpectAttrErrors(t, diags, []path.Path{pathTemplateContextDir}, []string{`context_dir = "` + bad + `"`})
		}
	})
}

// templateTestExpectAttrErrors checks that diags holds exactly one error per
// wanted path, and that the error texts together hold every wanted fragment.
func templateTestExpectAttrErrors(t *testing.T, diags diag.Diagnostics, wantPaths []path.Path, wantText []string) {
	t.Helper()
	errs := diags.Errors()
	if len(errs) != len(wantPaths) {
		t.Fatalf("got %d errors (%v), want %d on %v", len(errs), errs, len(wantPaths), wantPaths)
	}
	var all strings.Builder
	for i, d := range errs {
		withPath, ok := d.(diag.DiagnosticWithPath)
		if !ok || !withPath.Path().Equal(wantPaths[i]) {
			t.Fatalf("error %d (%v) is not on %s", i, d, wantPaths[i])
		}
		all.WriteString(d.Detail() + "\n")
	}
	for _, frag := range wantText {
		if !strings.Contains(all.String(), frag) {
			t.Errorf("errors %q do not mention %q", all.String(), frag)
		}
	}
}

func TestTemplateModifyPlanRebuild(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	const df = "FROM scratch\n"
	hash, err := templateContextHash(dir, df)
	if err != nil {
		t.Fatal(err)
	}
	state := templateTestModel(dir, df)
	state.ID = types.StringValue("tpl-1")
	state.ContextHash = types.StringValue(hash)
	state.BuildID = types.StringValue("build-1")
	state.Status = types.StringValue("ready")
	state.CreatedAt = types.StringValue("2026-01-01T00:00:00Z")

	// imported is the state an import leaves where the platform keeps the
	// build's context_hash but not the Dockerfile or the context.
	imported := func(m *templateModel) { m.Dockerfile, m.ContextDir = types.StringNull(), types.StringNull() }
	// importedUnrecorded is one where the platform keeps neither.
	importedUnrecorded := func(m *templateModel) { imported(m); m.ContextHash = types.StringNull() }
	cases := []struct {
		name        string
		inPlace     bool
		prior       func(*templateModel) // nil: the state as the provider built it
		change      func(*templateModel)
		wantReplace []path.Path
		wantUnknown bool
	}{
		{"no change keeps the build", true, nil, func(*templateModel) {}, nil, false},
		{"in place: new build planned", true, nil, func(m *templateModel) { m.StartCmd = types.StringValue("/agent") }, nil, true},
		{"elsewhere: replacement", false, nil, func(m *templateModel) { m.StartCmd = types.StringValue("/agent") },
			[]path.Path{pathTemplateStartCmd}, false},
		{"elsewhere: changed dockerfile replaces through it and the hash", false, nil,
			func(m *templateModel) { m.Dockerfile = types.StringValue(df + "CMD [\"/x\"]\n") },
			[]path.Path{pathTemplateDockerfile, pathTemplateContextHash}, false},
		{"imported, the recorded hash matches: no build", true, imported, func(*templateModel) {}, nil, false},
		{"imported, the recorded hash matches, elsewhere: no replacement", false, imported, func(*templateModel) {}, nil, false},
		{"imported, another Dockerfile: rebuilt", true, imported,
			func(m *templateModel) { m.Dockerfile = types.StringValue(df + "CMD [\"/x\"]\n") }, nil, true},
		{"imported, no hash recorded: rebuilt", true, importedUnrecorded, func(*templateModel) {}, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			support := platform.Replace
			if tc.inPlace {
				support = platform.InPlace
			}
			r := &templateResource{platform: &templateTestFakePlatform{caps: platform.Capabilities{Attributes: platform.Attributes{
				platform.AttrTemplateDockerfile: {Support: support},
				platform.AttrTemplateStartCmd:   {Support: support},
			}}}}
			prior := state
			if tc.prior != nil {
				tc.prior(&prior)
			}
			planned := state
			tc.change(&planned)
			planned.ContextHash = types.StringUnknown() // computed: the framework plans it unknown
			req := resource.ModifyPlanRequest{
				Config: tfsdk.Config(templateTestTFValue(t, r, planned)),
				Plan:   tfsdk.Plan(templateTestTFValue(t, r, planned)),
				State:  templateTestTFValue(t, r, prior),
			}
			resp := resource.ModifyPlanResponse{Plan: req.Plan}
			r.ModifyPlan(ctx, req, &resp)
			if resp.Diagnostics.HasError() {
				t.Fatal(resp.Diagnostics)
			}
			if len(resp.RequiresReplace) != len(tc.wantReplace) {
				t.Fatalf("RequiresReplace = %v, want %v", resp.RequiresReplace, tc.wantReplace)
			}
			for i := range tc.wantReplace {
				if !resp.RequiresReplace[i].Equal(tc.wantReplace[i]) {
					t.Fatalf("RequiresReplace = %v, want %v", resp.RequiresReplace, tc.wantReplace)
				}
			}
			var got templateModel
			resp.Diagnostics.Append(resp.Plan.Get(ctx, &got)...)
			if got.BuildID.IsUnknown() != tc.wantUnknown || got.Status.IsUnknown() != tc.wantUnknown || got.CreatedAt.IsUnknown() != tc.wantUnknown {
				t.Fatalf("build_id/status/created_at unknown = %v/%v/%v, want %v", got.BuildID.IsUnknown(), got.Status.IsUnknown(), got.CreatedAt.IsUnknown(), tc.wantUnknown)
			}
			if got.ContextHash.IsUnknown() || got.ContextHash.IsNull() {
				t.Fatalf("context_hash not computed: %v", got.ContextHash)
			}
		})
	}
}

// templateTestModel is a built template's configuration.
func templateTestModel(dir, dockerfile string) templateModel {
	return templateModel{
		Name:       types.StringValue("agent"),
		Dockerfile: types.StringValue(dockerfile),
		ContextDir: types.StringValue(dir),
		Labels:     types.MapNull(types.StringType),
		Timeouts: timeouts.Value{Object: types.ObjectNull(map[string]attr.Type{
			"create": types.StringType, "update": types.StringType, "delete": types.StringType,
		})},
	}
}

// templateTestTFValue builds a tfsdk.State of the resource's schema holding m
// (tfsdk.Plan and tfsdk.Config convert from it).
func templateTestTFValue(t *testing.T, r *templateResource, m templateModel) tfsdk.State {
	t.Helper()
	var sresp resource.SchemaResponse
	r.Schema(t.Context(), resource.SchemaRequest{}, &sresp)
	st := tfsdk.State{Schema: sresp.Schema, Raw: tftypes.NewValue(sresp.Schema.Type().TerraformType(t.Context()), nil)}
	if diags := st.Set(t.Context(), &m); diags.HasError() {
		t.Fatalf("building value: %v", diags)
	}
	return st
}

// templateTestFakePlatform is a platform whose capabilities a test chooses;
// ModifyPlan never calls its services.
type templateTestFakePlatform struct{ caps platform.Capabilities }

func (f *templateTestFakePlatform) Name() string                        { return "fakeplat" }
func (f *templateTestFakePlatform) Capabilities() platform.Capabilities { return f.caps }
func (f *templateTestFakePlatform) Close() error                        { return nil }
func (f *templateTestFakePlatform) Templates() platform.TemplateService { return nil }
func (f *templateTestFakePlatform) Volumes() platform.VolumeService     { return nil }
func (f *templateTestFakePlatform) Sandboxes() platform.SandboxService  { return nil }
func (f *templateTestFakePlatform) Snapshots() platform.SnapshotService { return nil }
