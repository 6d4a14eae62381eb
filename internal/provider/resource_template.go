package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Default timeouts: a build may pull nothing (no registry here) but can still
// compile for a long time; deleting an image is quick.
const (
	templateCreateTimeout = 30 * time.Minute
	templateUpdateTimeout = 30 * time.Minute
	templateDeleteTimeout = 5 * time.Minute
)

var (
	_ resource.Resource                     = (*templateResource)(nil)
	_ resource.ResourceWithConfigure        = (*templateResource)(nil)
	_ resource.ResourceWithImportState      = (*templateResource)(nil)
	_ resource.ResourceWithModifyPlan       = (*templateResource)(nil)
	_ resource.ResourceWithConfigValidators = (*templateResource)(nil)
	_ resource.ResourceWithValidateConfig   = (*templateResource)(nil)
)

// templateResource is sbx_template: an image sandboxes start from.
type templateResource struct {
	platform platform.Platform
	// owner and names come from the provider block and the run (see providerData).
	owner string
	names *nameRegistry
}

// NewTemplateResource returns the sbx_template resource.
func NewTemplateResource() resource.Resource { return &templateResource{} }

// templateModel is the sbx_template state and plan.
type templateModel struct {
	ID          types.String   `tfsdk:"id"`
	Name        types.String   `tfsdk:"name"`
	Dockerfile  types.String   `tfsdk:"dockerfile"`
	Image       types.String   `tfsdk:"image"`
	ContextDir  types.String   `tfsdk:"context_dir"`
	StartCmd    types.String   `tfsdk:"start_cmd"`
	ReadyCmd    types.String   `tfsdk:"ready_cmd"`
	CPUCount    types.Int64    `tfsdk:"cpu_count"`
	MemoryMB    types.Int64    `tfsdk:"memory_mb"`
	DiskMB      types.Int64    `tfsdk:"disk_mb"`
	Labels      types.Map      `tfsdk:"labels"`
	ContextHash types.String   `tfsdk:"context_hash"`
	BuildID     types.String   `tfsdk:"build_id"`
	Status      types.String   `tfsdk:"status"`
	CreatedAt   types.String   `tfsdk:"created_at"`
	Timeouts    timeouts.Value `tfsdk:"timeouts"`
}

var (
	pathTemplateDockerfile  = path.Root("dockerfile")
	pathTemplateImage       = path.Root("image")
	pathTemplateContextDir  = path.Root("context_dir")
	pathTemplateStartCmd    = path.Root("start_cmd")
	pathTemplateReadyCmd    = path.Root("ready_cmd")
	pathTemplateCPUCount    = path.Root("cpu_count")
	pathTemplateMemoryMB    = path.Root("memory_mb")
	pathTemplateDiskMB      = path.Root("disk_mb")
	pathTemplateLabels      = path.Root("labels")
	pathTemplateContextHash = path.Root("context_hash")
)

func (r *templateResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_template"
}

func (r *templateResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A sandbox template: the image sandboxes start from, built from a Dockerfile and a " +
			"build context, or adopted from a prebuilt image. On Docker it is a local image tagged " +
			"`sbx/<name>:latest`; that tag is the template's id and stays the same across rebuilds.\n\n" +
			"A change to `dockerfile`, to any file under `context_dir` (tracked through `context_hash`), " +
			"`start_cmd`, `ready_cmd`, `cpu_count`, `memory_mb`, `disk_mb` or `labels` is a **rebuild**: an in-place " +
			"update where the platform keeps the template id across builds (Docker), a replacement elsewhere.\n\n" +
			"**Import.** A template is imported by its id (`sbx/<name>:latest` on Docker). The platform keeps the " +
			"built image, not the Dockerfile or the build context it came from, so an imported *built* template has " +
			"no `dockerfile`, `context_dir` or `context_hash` in state, and the first plan after the import shows an " +
			"in-place rebuild from the configured Dockerfile (the id stays the same). Plans after that apply are empty. " +
			"An imported *adopted* template (`image`) plans empty at once. `start_cmd`, `ready_cmd`, `cpu_count` " +
			"and `memory_mb` are read back where the platform records them (Docker keeps them on the image).",
		Attributes: map[string]schema.Attribute{
			"id": idAttribute("template"),
			"name": schema.StringAttribute{
				MarkdownDescription: "Name of the template: lowercase letters and digits, optionally separated by " +
					"single `.`, `_` or `-`, at most 128 characters (`" + templateNamePattern + "`). " +
					"On Docker the template's id is `sbx/<name>:latest`. Changing it replaces the template.",
				Required:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:    []validator.String{templateNameValidator{}},
			},
			"dockerfile": schema.StringAttribute{
				MarkdownDescription: "The Dockerfile's **content** (not its path), e.g. `file(\"${path.module}/Dockerfile\")`. " +
					"Exactly one of `dockerfile` and `image` must be set. A change rebuilds the template. " +
					"After an import this is unknown to the provider, so the first apply after an import rebuilds. " +
					"On E2B it becomes E2B build steps: an instruction E2B cannot express is a plan-time error naming its line.",
				Optional: true,
			},
			"image": schema.StringAttribute{
				MarkdownDescription: "A prebuilt image reference to adopt as the template instead of building one " +
					"(on Docker: an image present in the local engine, e.g. `my-agent:1.2`). Exactly one of " +
					"`dockerfile` and `image` must be set. Changing it replaces the template.",
				Optional:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"context_dir": schema.StringAttribute{
				MarkdownDescription: "Local directory holding the files the Dockerfile's `COPY` and `ADD` read. " +
					"Requires `dockerfile`. It must exist and be a directory when planning; its content is hashed " +
					"into `context_hash`, so changing any file in it rebuilds the template. Moving the same " +
					"content to another path does not rebuild. Not stored on the platform, so not set by import.",
				Optional: true,
				Validators: []validator.String{
					stringvalidator.AlsoRequires(path.MatchRoot("dockerfile")),
				},
			},
			"start_cmd": schema.StringAttribute{
				MarkdownDescription: "Command a sandbox started from this template runs, overriding the image's own " +
					"command. A change rebuilds the template.",
				Optional: true,
			},
			"ready_cmd": schema.StringAttribute{
				MarkdownDescription: "Command that must succeed inside a new sandbox before it counts as ready. " +
					"A change rebuilds the template.",
				Optional: true,
			},
			"cpu_count": schema.Int64Attribute{
				MarkdownDescription: "Default number of CPUs for sandboxes started from this template (a sandbox's own " +
					"`cpu_count` wins). A plan-time error on platforms that do not size templates. On Docker it is " +
					"recorded on the image. A change rebuilds the template. Not read back by an import.",
				Optional:   true,
				Validators: []validator.Int64{int64validator.AtLeast(1)},
			},
			"memory_mb": schema.Int64Attribute{
				MarkdownDescription: "Default memory in MiB for sandboxes started from this template (a sandbox's own " +
					"`memory_mb` wins). A plan-time error on platforms that do not size templates. On Docker it is " +
					"recorded on the image. A change rebuilds the template. Not read back by an import.",
				Optional:   true,
				Validators: []validator.Int64{int64validator.AtLeast(1)},
			},
			"disk_mb": schema.Int64Attribute{
				MarkdownDescription: "Default disk size in MiB for sandboxes started from this template. Only on " +
					"platforms that size both templates and sandbox disks (not Docker: there it is a plan-time " +
					"error). A change rebuilds the template.",
				Optional:   true,
				Validators: []validator.Int64{int64validator.AtLeast(1)},
			},
			"labels": schema.MapAttribute{
				MarkdownDescription: labelsDescription("template") + " On Docker labels are part of the image, so a change rebuilds it.",
				ElementType:         types.StringType,
				Optional:            true,
				Validators:          []validator.Map{reservedLabelsValidator{}},
			},
			"context_hash": schema.StringAttribute{
				MarkdownDescription: "Content hash of `dockerfile` and every file under `context_dir`, computed on " +
					"every plan. When it differs from the state, the plan shows it changing and the template is " +
					"rebuilt. A refresh never recomputes it (the build context may not exist on the machine that " +
					"refreshes). Null for adopted images, and after an import.",
				Computed: true,
			},
			"build_id": schema.StringAttribute{
				MarkdownDescription: "Id of the current build (on Docker: the image id, `sha256:...`). Changes on " +
					"every rebuild while `id` stays the same; unknown in a plan that rebuilds.",
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "Build status as the platform reports it (e.g. `ready`). Unknown in a plan that rebuilds.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the current build was made (RFC 3339), as the platform reports it " +
					"(on Docker: the image's creation time). Unknown in a plan that rebuilds.",
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": timeoutsBlockDescribed(ctx, timeouts.Opts{Create: true, Update: true, Delete: true},
				"How long to wait for a build (`create`, default 30m; `update` = rebuild, default 30m) and for "+
					"removal (`delete`, default 5m). Go duration strings such as `45m`."),
		},
	}
}

func (r *templateResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.platform = platformFrom(req.ProviderData, &resp.Diagnostics)
	r.owner = ownerFrom(req.ProviderData)
	r.names = namesFrom(req.ProviderData)
}

func (r *templateResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan templateModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, templateCreateTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	spec := templateSpecFrom(ctx, plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	spec.Marks = platform.NewMarks(r.owner)
	tpl, err := r.platform.Templates().Create(ctx, spec)
	if err != nil {
		addPlatformError(&resp.Diagnostics, "build", "template", spec.Name, err)
		return
	}
	plan.applyBuild(tpl)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *templateResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state templateModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	tpl, ok := readOrForget(ctx, resp, "template", id, r.platform.Templates().Get,
		func(diags *diag.Diagnostics) { addGoneWarning(diags, "template", id) })
	if !ok {
		return
	}
	state.applyRead(tpl)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *templateResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state templateModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Update(ctx, templateUpdateTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	if len(templateRebuildChanges(plan, state)) == 0 {
		// Only context_dir's path or the timeouts changed: nothing to build.
		plan.BuildID, plan.Status, plan.CreatedAt = state.BuildID, state.Status, state.CreatedAt
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		return
	}
	spec := templateSpecFrom(ctx, plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	// A rebuild is a new image on some platforms (Docker): it carries the
	// owner like a first build, and a token of its own.
	spec.Marks = platform.NewMarks(r.owner)
	tpl, err := r.platform.Templates().Rebuild(ctx, state.ID.ValueString(), spec)
	if err != nil {
		addPlatformError(&resp.Diagnostics, "rebuild", "template", state.ID.ValueString(), err)
		return
	}
	plan.applyBuild(tpl)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *templateResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state templateModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := state.Timeouts.Delete(ctx, templateDeleteTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	err := r.platform.Templates().Delete(ctx, state.ID.ValueString())
	if err != nil && !platform.IsNotFound(err) {
		addPlatformError(&resp.Diagnostics, "delete", "template", state.ID.ValueString(), err)
	}
}

func (r *templateResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// templateSpecFrom turns a plan into what the platform builds.
func templateSpecFrom(ctx context.Context, m templateModel, diags *diag.Diagnostics) platform.TemplateSpec {
	return platform.TemplateSpec{
		Name:       m.Name.ValueString(),
		Dockerfile: m.Dockerfile.ValueString(),
		ContextDir: m.ContextDir.ValueString(),
		Image:      m.Image.ValueString(),
		StartCmd:   m.StartCmd.ValueString(),
		ReadyCmd:   m.ReadyCmd.ValueString(),
		CPUCount:   m.CPUCount.ValueInt64(),
		MemoryMB:   m.MemoryMB.ValueInt64(),
		DiskMB:     m.DiskMB.ValueInt64(),
		Labels:     mapFromTF(ctx, m.Labels, diags),
	}
}

// applyBuild records what a create or rebuild produced. context_hash stays
// as planned: it describes the input that was built.
func (m *templateModel) applyBuild(t *platform.Template) {
	m.ID = types.StringValue(t.ID)
	m.BuildID = types.StringValue(t.BuildID)
	m.Status = types.StringValue(t.Status)
	m.CreatedAt = timeStringOrNull(t.CreatedAt)
}

// applyRead refreshes what the platform knows. The build inputs (dockerfile,
// context_dir, context_hash) are not stored on the platform and keep their
// state values; name, commands and sizes fill in after an import where the
// platform reports them (an empty or zero value means it does not).
func (m *templateModel) applyRead(t *platform.Template) {
	// After an import nothing is configured yet (no name): every size the
	// platform reports fills in. Otherwise an unset size stays null, so a
	// platform that reports its default size (E2B) shows no diff.
	importing := m.Name.IsNull()
	m.ID = types.StringValue(t.ID)
	if t.Name != "" {
		m.Name = types.StringValue(t.Name)
	}
	if t.Image != "" {
		// An adopted template remembers its source image; a built one has none.
		m.Image = types.StringValue(t.Image)
	}
	if t.StartCmd != "" {
		m.StartCmd = types.StringValue(t.StartCmd)
	}
	if t.ReadyCmd != "" {
		m.ReadyCmd = types.StringValue(t.ReadyCmd)
	}
	if t.CPUCount > 0 && (importing || !m.CPUCount.IsNull()) {
		m.CPUCount = types.Int64Value(t.CPUCount)
	}
	if t.MemoryMB > 0 && (importing || !m.MemoryMB.IsNull()) {
		m.MemoryMB = types.Int64Value(t.MemoryMB)
	}
	m.BuildID = types.StringValue(t.BuildID)
	m.Status = types.StringValue(t.Status)
	m.CreatedAt = timeStringOrNull(t.CreatedAt)
	m.Labels = mapToTF(platform.UserLabels(t.Labels), m.Labels)
}
