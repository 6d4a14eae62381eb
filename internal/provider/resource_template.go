package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
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
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
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
	_ resource.ResourceWithUpgradeState     = (*templateResource)(nil)
	_ resource.ResourceWithConfigValidators = (*templateResource)(nil)
	_ resource.ResourceWithValidateConfig   = (*templateResource)(nil)
)

// templateResource is sbx_template: an image sandboxes start from.
type templateResource struct {
	// defs are the platforms the provider offers, whose tables document the
	// schema (nil: platforms.All()).
	defs     []platform.Definition
	platform platform.Platform
	// owner and names come from the provider block and the run (see providerData).
	owner string
	names *nameRegistry
	// retention judges the template's deadline (template_retention.go).
	retention retentionSettings
}

// newTemplateResource returns the sbx_template resource of a provider
// offering defs.
func newTemplateResource(defs []platform.Definition) resource.Resource {
	return &templateResource{defs: defs}
}

// templateModel is the sbx_template state and plan.
type templateModel struct {
	ID           types.String `tfsdk:"id"`
	Name         types.String `tfsdk:"name"`
	Dockerfile   types.String `tfsdk:"dockerfile"`
	Image        types.String `tfsdk:"image"`
	FromTemplate types.String `tfsdk:"from_template"`
	ContextDir   types.String `tfsdk:"context_dir"`
	StartCmd     types.String `tfsdk:"start_cmd"`
	ReadyCmd     types.String `tfsdk:"ready_cmd"`
	CPUCount     types.Int64  `tfsdk:"cpu_count"`
	MemoryMB     types.Int64  `tfsdk:"memory_mb"`
	DiskMB       types.Int64  `tfsdk:"disk_mb"`
	Labels       types.Map    `tfsdk:"labels"`
	Public       types.Bool   `tfsdk:"public"`
	ContextHash  types.String `tfsdk:"context_hash"`
	BuildID      types.String `tfsdk:"build_id"`
	Status       types.String `tfsdk:"status"`
	CreatedAt    types.String `tfsdk:"created_at"`
	// Retention, computed (template_retention.go).
	Platform        types.String   `tfsdk:"platform"`
	LastUsedAt      types.String   `tfsdk:"last_used_at"`
	ExpiresAt       types.String   `tfsdk:"expires_at"`
	RetentionRule   types.String   `tfsdk:"retention_rule"`
	RetentionAction types.String   `tfsdk:"retention_action"`
	Timeouts        timeouts.Value `tfsdk:"timeouts"`
}

var (
	pathTemplateDockerfile   = path.Root("dockerfile")
	pathTemplateImage        = path.Root("image")
	pathTemplateFromTemplate = path.Root("from_template")
	pathTemplateContextDir   = path.Root("context_dir")
	pathTemplateStartCmd     = path.Root("start_cmd")
	pathTemplateReadyCmd     = path.Root("ready_cmd")
	pathTemplateCPUCount     = path.Root("cpu_count")
	pathTemplateMemoryMB     = path.Root("memory_mb")
	pathTemplateDiskMB       = path.Root("disk_mb")
	pathTemplateLabels       = path.Root("labels")
	pathTemplatePublic       = path.Root("public")
	pathTemplateContextHash  = path.Root("context_hash")
)

func (r *templateResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_template"
}

func (r *templateResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defs := definitionsOr(r.defs)
	resp.Schema = schema.Schema{
		MarkdownDescription: "A sandbox template: the image sandboxes start from, built from a Dockerfile and a " +
			"build context, or adopted from a prebuilt image. Where the platform derives the template's id from its " +
			"name, the id stays the same across rebuilds and is known at plan time, so a template recreated under the " +
			"same name (removed outside Terraform, say) replaces no sandbox made from it. What a template is on each " +
			"platform is under `dockerfile`.\n\n" +
			"A change to `dockerfile`, `from_template`, to any file under `context_dir` (tracked through `context_hash`), " +
			"`start_cmd`, `ready_cmd`, `cpu_count`, `memory_mb`, `disk_mb`, `labels` or `public` is a **rebuild**: an in-place " +
			"update where the platform keeps the template id across builds, a replacement elsewhere (each attribute " +
			"says which platforms change it in place).\n\n" +
			"**What the provider owns.** The provider removes only images it built: a template's builds (on a " +
			"rebuild, the build the tag moves away from) and, for an adopted `image`, the thin image it made on top " +
			"of it, never the adopted image itself. A create never takes over an existing object by name: when " +
			"the template's image already exists and this create did not make it (an image made by hand, another " +
			"Terraform state's template, one a killed apply left behind), the create fails, names the image and " +
			"says how to import it, and leaves it untouched. A build that fails removes the intermediate images it " +
			"made (never its `FROM` image).\n\n" +
			"**Import.** A template is imported by its id. The platform keeps the " +
			"built image, not the Dockerfile or the build context it came from, so an imported *built* template has " +
			"no `dockerfile` or `context_dir` in state. Where the platform keeps the `context_hash` the build was made " +
			"from (each platform's `dockerfile` note says whether it does), a configuration that hashes to the same value is taken into state " +
			"by the first apply after the import, as an in-place update of the state only: same id, same build, " +
			"nothing rebuilt. Otherwise (another Dockerfile or context, or a platform that keeps no hash) the first " +
			"plan after the import shows an in-place rebuild from the configured Dockerfile (the id stays the same), " +
			"or a replacement where the platform rebuilds no template in place. Plans after that apply are empty. " +
			"An imported *adopted* template (`image`) plans empty at once. Where the platform reports none of " +
			"`dockerfile`, `image`, `from_template` or `name` back (each attribute says so), an import leaves it null and " +
			"the first plan takes the configured value, with a warning, as an in-place update of the state only: no " +
			"rebuild and no replacement. `start_cmd`, `ready_cmd`, `cpu_count` " +
			"and `memory_mb` are read back where the platform records them. " +
			"An object the provider made as something else (a snapshot's id, say) is an import error " +
			"naming what it is and the resource type to import it as.\n\n" +
			"**Importing an image the provider did not build.** Where the platform holds images of its own (see " +
			"`image`), any other image reference (`my-agent:1.2`, an image id) imports as the image itself: `id` and " +
			"`image` are set to that reference, and `name` to the " +
			"last component of its repository (`registry/team/my-agent:1.2` gives `my-agent`; for an image id, that " +
			"of the first of the image's tags in sort order). A configuration with `image` equal to the import id " +
			"and that `name` plans no change; another `name` is an in-place update of the state only (the name does nothing on the platform for such a " +
			"template). `labels` are not read from such an image. A change of any build input (`start_cmd`, `labels`, " +
			"...) or of `image` replaces it with a template the provider builds from the image. " +
			"The provider never removes or changes the imported image: destroying (or replacing) the template removes " +
			"it from the state only, with a warning that the image was left in place. The same holds for an image " +
			"under the template's own id that the provider did not build: destroy leaves it, and a rebuild moves the " +
			"id to the new build and leaves that image on the platform, untagged.\n\n" +
			"**An image tagged over the template by hand.** When such an image takes the template's id from the " +
			"provider's build (an image built or tagged by hand under the id), the next plan warns and rebuilds the " +
			"template in place from its configuration, though nothing configured changed; the apply moves the id back " +
			"to a build of the provider, leaves the hand-made image untagged, and removes the provider's earlier build, " +
			"which no id names any more (so does a destroy). Until then no sandbox starts from the hand-made image: " +
			"its create fails naming the image, so a saved plan applied after the retag makes no box from it.\n\n" +
			"**Deadlines.** Where the platform deactivates templates nobody used for a while (a retention rule for " +
			"templates; see `expires_at`), the template records `last_used_at`, `expires_at` and `retention_*` like " +
			"`sbx_sandbox` and `sbx_snapshot`, `terraform plan` warns before the deadline and flags a template past " +
			"it, and the drift detector reports it. A template the platform deactivated reads as `status = \"inactive\"`; " +
			"where the platform can activate it again, the plan shows an in-place update back to `ready` and the " +
			"apply activates it (see `status`).",
		Attributes: map[string]schema.Attribute{
			"id": idAttribute("template"),
			"name": schema.StringAttribute{
				MarkdownDescription: "Name of the template: lowercase letters and digits, optionally separated by " +
					"single `.`, `_` or `-`, at most 128 characters (`" + templateNamePattern + "`). " +
					"Where the platform derives the template's id from it, `dockerfile` says how. Changing it replaces " +
					"the template, except for an imported image the provider did not build, whose name is recorded in state only, " +
					"and for a name the platform does not report back, which the first plan after an import takes from the configuration.",
				Required: true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIf(templateNameRequiresReplace,
					"Changing the name replaces the template, unless it is an imported image the provider did not build or an import could not read it.",
					"Changing the name replaces the template, unless it is an imported image the provider did not build or an import could not read it.")},
				Validators: templateNameValidators(),
			},
			"dockerfile": schema.StringAttribute{
				MarkdownDescription: withPlatformNotes("The Dockerfile's **content** (not its path), e.g. "+
					"`file(\"${path.module}/Dockerfile\")`. Exactly one of `dockerfile` and `image` must be set. A change "+
					"rebuilds the template. After an import, where the platform recorded the build's `context_hash`, a "+
					"configuration of the same hash is kept without a rebuild and anything else is rebuilt by the first "+
					"apply; where it keeps no record of the build (not reported back), the first plan takes the "+
					"configuration's Dockerfile into the state, with a warning, and builds nothing.", defs, platform.AttrTemplateDockerfile),
				Optional: true,
			},
			"image": schema.StringAttribute{
				MarkdownDescription: withPlatformNotes("A prebuilt image reference to adopt as the template instead of "+
					"building one. Exactly one of `dockerfile` and `image` must be set.", defs, platform.AttrTemplateImage),
				Optional: true,
				// An image an import could not read is taken from the
				// configuration, not a replacement (resource_template_unreported.go).
				PlanModifiers: []planmodifier.String{stringRequiresReplaceUnlessTaken(platform.AttrTemplateImage,
					"Changing the image replaces the template, except when an import could not read it.")},
			},
			"from_template": schema.StringAttribute{
				MarkdownDescription: withPlatformNotes("The id of another template to build this one on (e.g. "+
					"`sbx_template.base.id`): the `dockerfile`'s steps run on top of it. Requires `dockerfile`, which then "+
					"has no `FROM` line (the base is the template: a `FROM` is a plan-time error naming its line); "+
					"conflicts with `image`. A change rebuilds the template.", defs, platform.AttrTemplateFromTemplate),
				Optional: true,
				Validators: []validator.String{
					stringvalidator.AlsoRequires(path.MatchRoot("dockerfile")),
					stringvalidator.ConflictsWith(path.MatchRoot("image")),
					stringvalidator.LengthAtLeast(1),
				},
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
				MarkdownDescription: withPlatformNotes("Command a sandbox started from this template runs, overriding the "+
					"image's own command. A change rebuilds the template.", defs, platform.AttrTemplateStartCmd),
				Optional: true,
			},
			"ready_cmd": schema.StringAttribute{
				MarkdownDescription: withPlatformNotes("Command that must succeed inside a new sandbox before it counts as "+
					"ready. A change rebuilds the template.", defs, platform.AttrTemplateReadyCmd),
				Optional: true,
			},
			"cpu_count": schema.Int64Attribute{
				CustomType: wholeNumber,
				MarkdownDescription: withPlatformNotes("Default number of CPUs for sandboxes started from this template. "+
					"A change rebuilds the template. Read back by an import where the platform reports it.",
					defs, platform.AttrTemplateCPUCount),
				Optional:   true,
				Validators: []validator.Int64{int64validator.AtLeast(1)},
			},
			"memory_mb": schema.Int64Attribute{
				CustomType: wholeNumber,
				MarkdownDescription: withPlatformNotes("Default memory in MiB for sandboxes started from this template. "+
					"A change rebuilds the template. Read back by an import where the platform reports it.",
					defs, platform.AttrTemplateMemoryMB),
				Optional:   true,
				Validators: []validator.Int64{int64validator.AtLeast(1)},
			},
			"disk_mb": schema.Int64Attribute{
				CustomType: wholeNumber,
				MarkdownDescription: withPlatformNotes("Default disk size in MiB for sandboxes started from this template. "+
					"A change rebuilds the template.", defs, platform.AttrTemplateDiskMB),
				Optional:   true,
				Validators: []validator.Int64{int64validator.AtLeast(1)},
			},
			"labels": schema.MapAttribute{
				MarkdownDescription: withPlatformNotes(labelsDescription("template"), defs, platform.AttrTemplateLabels),
				ElementType:         types.StringType,
				Optional:            true,
				Validators:          []validator.Map{labelKeysValidator{}},
			},
			"public": schema.BoolAttribute{
				MarkdownDescription: withPlatformNotes("Whether sandboxes of other accounts (teams) of the platform may start "+
					"from this template. Left out, the platform's default (private) holds and is not tracked. Read back by "+
					"an import where the platform reports it.", defs, platform.AttrTemplatePublic),
				Optional: true,
			},
			"context_hash": schema.StringAttribute{
				MarkdownDescription: "Content hash of `dockerfile` and every file under `context_dir`, computed on " +
					"every plan. When it differs from the state, the plan shows it changing and the template is " +
					"rebuilt. A refresh never recomputes it (the build context may not exist on the machine that " +
					"refreshes). Null for adopted images; after an import, the value the platform recorded with the build " +
					"where it records one, else null. The build is of the files the plan hashed: a saved plan applied after " +
					"they changed stops before building, on Terraform's own check that `context_hash` was planned as one value " +
					"and is now another (Terraform words it as a provider bug; it is the files that changed): run `terraform plan` " +
					"again. Files that change during the apply itself fail the build's own check on `context_dir`.",
				Computed: true,
			},
			"build_id": schema.StringAttribute{
				MarkdownDescription: "Id of the current build (e.g. an image id, `sha256:...`). Changes on " +
					"every rebuild while `id` stays the same; unknown in a plan that rebuilds.",
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"status": schema.StringAttribute{
				MarkdownDescription: templateStatusDescription(defs),
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the current build was made (RFC 3339), as the platform reports it " +
					"(e.g. an image's creation time). Unknown in a plan that rebuilds.",
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
	for name, a := range templateRetentionAttributes(defs) {
		resp.Schema.Attributes[name] = a
	}
	resp.Schema.Version = templateSchemaVersion
}

// UpgradeState reads a state saved under an earlier schema version
// (state_upgrade.go).
func (r *templateResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return templateStateUpgraders()
}

func (r *templateResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.platform = platformFrom(req.ProviderData, &resp.Diagnostics)
	r.owner = ownerFrom(req.ProviderData)
	r.names = namesFrom(req.ProviderData)
	r.retention = retentionFrom(req.ProviderData)
}

func (r *templateResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer recordIdentity(ctx, r.platform, resp.Identity, &resp.State)
	var plan templateModel
	resp.Diagnostics.Append(getPlan(ctx, req.Plan, &plan)...)
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

	if !templateCheckContextUnchanged(plan, &resp.Diagnostics) {
		return
	}
	spec := templateSpecFrom(ctx, plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	spec.Marks = platform.NewMarks(r.owner)
	tpl, err := r.platform.Templates().Create(ctx, spec)
	var notOwned *platform.NotOwnedError
	switch {
	case errors.As(err, &notOwned):
		// The platform's own words: what holds the name, and how to import it.
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Template name already taken", err.Error())
		return
	case err != nil:
		if tpl != nil {
			// The template exists but its build failed: saved, so
			// Terraform marks it tainted and replaces it, instead of
			// leaving an orphan that holds the name.
			plan.applyBuild(tpl)
			templateAfterPlatform(&plan, tpl, r.platform.Name(), r.retention)
			resp.Diagnostics.Append(setState(ctx, &resp.State, &plan)...)
		}
		addPlatformError(&resp.Diagnostics, "build", "template", spec.Name, err)
		return
	}
	plan.applyBuild(tpl)
	templateAfterPlatform(&plan, tpl, r.platform.Name(), r.retention)
	resp.Diagnostics.Append(setState(ctx, &resp.State, &plan)...)
}

func (r *templateResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer recordIdentity(ctx, r.platform, resp.Identity, &resp.State, &req.State)
	var state templateModel
	resp.Diagnostics.Append(getState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	importing := readAfterImport(ctx, req, resp)
	id := state.ID.ValueString()
	if importing {
		// Not found ends the import ("cannot import non-existent remote
		// object"); anything else, e.g. an object of another kind, is an
		// import error in the platform's words.
		tpl, err := r.platform.Templates().Get(ctx, id)
		if platform.IsNotFound(err) {
			resp.State.RemoveResource(ctx)
			return
		}
		if err != nil {
			resp.Diagnostics.AddError("Cannot import "+strconv.Quote(id)+" as sbx_template", err.Error())
			return
		}
		state.applyRead(tpl, true)
		templateAfterPlatform(&state, tpl, r.platform.Name(), r.retention)
		resp.Diagnostics.Append(setState(ctx, &resp.State, &state)...)
		// What the platform does not report is taken from the
		// configuration at the next plan (resource_template_unreported.go).
		writeUnreported(ctx, resp.Private, templateUnreportedAfterImport(r.platform.Capabilities().Attributes, state), &resp.Diagnostics)
		endImport(ctx, resp)
		return
	}
	tpl, ok := readOrForget(ctx, resp, "template", id, r.platform.Templates().Get,
		func(diags *diag.Diagnostics, reason string) { addGoneWarning(diags, "template", id, reason) })
	if !ok {
		return
	}
	templateNoteDisplaced(ctx, state.BuildID, tpl, req.Private, resp.Private, &resp.Diagnostics)
	state.applyRead(tpl, false)
	templateAfterPlatform(&state, tpl, r.platform.Name(), r.retention)
	resp.Diagnostics.Append(setState(ctx, &resp.State, &state)...)
}

func (r *templateResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer recordIdentity(ctx, r.platform, resp.Identity, &resp.State)
	var plan, state templateModel
	resp.Diagnostics.Append(getPlan(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(getState(ctx, req.State, &state)...)
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

	// An imported template's unreported values taken from the
	// configuration are recorded as planned: no build.
	recorded := readUnreported(ctx, req.Private, &resp.Diagnostics)
	taken := unreportedTaken(recorded, templateUnreportedAttributes(plan, state))
	templateTakeUnreported(&state, plan, taken)
	templateTakeRecordedBuild(&state, plan)
	if len(taken) > 0 {
		defer func() {
			if !resp.Diagnostics.HasError() {
				writeUnreported(ctx, resp.Private, slices.DeleteFunc(recorded, func(k string) bool { return slices.Contains(taken, k) }),
					&resp.Diagnostics)
			}
		}()
	}

	// A build another image displaced from the id is rebuilt even when
	// nothing configured changed (resource_template_displaced.go).
	displaced := templateDisplacedBuild(ctx, req.Private, &resp.Diagnostics)
	if len(templateRebuildChanges(plan, state)) == 0 && displaced == "" {
		plan.BuildID, plan.CreatedAt = state.BuildID, state.CreatedAt
		if templateActivationPlanned(r.platform, state) && plan.Status.ValueString() == retention.TemplateReady {
			// The platform deactivated the template: activate it again,
			// same id, same build.
			templateActivate(ctx, r.platform, r.defs, &plan, state, r.retention, &resp.Diagnostics)
			if resp.Diagnostics.HasError() {
				return
			}
			resp.Diagnostics.Append(setState(ctx, &resp.State, &plan)...)
			return
		}
		// Only context_dir's path or the timeouts changed: nothing to build.
		plan.Status, plan.Platform, plan.LastUsedAt = state.Status, keepKnown(plan.Platform, state.Platform), state.LastUsedAt
		templateSetRetentionFields(&plan, templateRetentionOf(state))
		resp.Diagnostics.Append(setState(ctx, &resp.State, &plan)...)
		return
	}
	if !templateCheckContextUnchanged(plan, &resp.Diagnostics) {
		return
	}
	spec := templateSpecFrom(ctx, plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	// A rebuild is a new image on some platforms: it carries the
	// owner like a first build, and a token of its own.
	spec.Marks = platform.NewMarks(r.owner)
	tpl, err := r.platform.Templates().Rebuild(ctx, state.ID.ValueString(), spec)
	if err != nil {
		addPlatformError(&resp.Diagnostics, "rebuild", "template", state.ID.ValueString(), err)
		return
	}
	plan.applyBuild(tpl)
	templateAfterPlatform(&plan, tpl, r.platform.Name(), r.retention)
	resp.Diagnostics.Append(setState(ctx, &resp.State, &plan)...)
	if displaced != "" {
		removeDisplacedBuild(ctx, r.platform, state.ID.ValueString(), displaced, &resp.Diagnostics)
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateKeyDisplacedBuild, nil)...)
	}
}

func (r *templateResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state templateModel
	resp.Diagnostics.Append(getState(ctx, req.State, &state)...)
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

	id := state.ID.ValueString()
	err := r.platform.Templates().Delete(ctx, id)
	var notOwned *platform.NotOwnedError
	switch {
	case errors.As(err, &notOwned):
		// Not the provider's to remove: the template leaves the state only.
		resp.Diagnostics.AddWarning("Template image left in place",
			fmt.Sprintf("The template %q was removed from the Terraform state, but its image was left in place because "+
				"the provider did not build it (%s). Remove the image yourself if nothing needs it any more.", id, notOwned.Detail))
	case err != nil && !platform.IsNotFound(err):
		addPlatformError(&resp.Diagnostics, "delete", "template", id, err)
		return
	}
	removeDisplacedBuild(ctx, r.platform, id, templateDisplacedBuild(ctx, req.Private, &resp.Diagnostics), &resp.Diagnostics)
}

// ImportState takes the template's id (or, where the platform holds images,
// any image reference for an image the provider did not build) and marks the
// state as imported, so the first Read fills in what only an import lacks.
func (r *templateResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if !importExisting(ctx, r.platform, "template", "", func(ctx context.Context, id string) (platform.Marks, error) {
		_, err := r.platform.Templates().Get(ctx, id)
		return platform.Marks{}, err
	}, req, resp) {
		return
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateKeyImporting, []byte("true"))...)
}

// templateSpecFrom turns a plan into what the platform builds.
func templateSpecFrom(ctx context.Context, m templateModel, diags *diag.Diagnostics) platform.TemplateSpec {
	return platform.TemplateSpec{
		Name:         m.Name.ValueString(),
		Dockerfile:   m.Dockerfile.ValueString(),
		ContextDir:   m.ContextDir.ValueString(),
		ContextHash:  m.ContextHash.ValueString(),
		Image:        m.Image.ValueString(),
		FromTemplate: m.FromTemplate.ValueString(),
		StartCmd:     m.StartCmd.ValueString(),
		ReadyCmd:     m.ReadyCmd.ValueString(),
		CPUCount:     m.CPUCount.ValueInt64(),
		MemoryMB:     m.MemoryMB.ValueInt64(),
		DiskMB:       m.DiskMB.ValueInt64(),
		Labels:       mapFromTF(ctx, m.Labels, diags),
		Public:       m.Public.ValueBoolPointer(),
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

// templateIsForeign reports whether a template in state is an image the
// provider did not build, imported by its own reference: its id is the image
// reference it was imported by, which is also its `image`. (A template the
// provider adopts from an image has an id of its own, made from its name.)
func templateIsForeign(m templateModel) bool {
	return isSet(m.Image) && isSet(m.ID) && m.ID.ValueString() == m.Image.ValueString()
}

// templateNameRequiresReplace: a new name is a new template, except for an
// imported image the provider did not build, whose name nothing on the
// platform carries: it changes in state only; and for a name an import
// could not read, which is taken from the configuration.
func templateNameRequiresReplace(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
	var state templateModel
	resp.Diagnostics.Append(getState(ctx, req.State, &state)...)
	resp.RequiresReplace = !templateIsForeign(state) &&
		!takenAfterImport(ctx, req.Private, templateNameKey, req.StateValue.IsNull(), &resp.Diagnostics)
}

// applyRead refreshes what the platform knows. The build inputs (dockerfile,
// context_dir, context_hash) are not stored on the platform and keep their
// state values; name, commands and sizes fill in after an import where the
// platform reports them (an empty or zero value means it does not).
//
// An image the provider did not build, read by its own reference (its Image
// is its ID), is the template as it is: on import its name and image are
// what the platform derives from the reference, later Reads keep the name
// the configuration gave it, and its labels are never read back (they are
// the image's own, not labels the provider put there).
func (m *templateModel) applyRead(t *platform.Template, importing bool) {
	foreign := t.Image != "" && t.Image == t.ID
	m.ID = types.StringValue(t.ID)
	if t.Name != "" && (importing || !foreign) {
		m.Name = types.StringValue(t.Name)
	}
	if t.Image != "" {
		// An adopted template remembers its source image; a built one has none.
		m.Image = types.StringValue(t.Image)
	}
	if t.FromTemplate != "" {
		// Where the platform records the base; elsewhere it keeps its state value.
		m.FromTemplate = types.StringValue(t.FromTemplate)
	}
	if t.ContextHash != "" && importing {
		// What the build was made from, where the platform keeps it: the
		// next plan takes a configuration of the same hash without a
		// rebuild (templateTakeRecordedBuild).
		m.ContextHash = types.StringValue(t.ContextHash)
	}
	if t.StartCmd != "" {
		m.StartCmd = types.StringValue(t.StartCmd)
	}
	if t.ReadyCmd != "" {
		m.ReadyCmd = types.StringValue(t.ReadyCmd)
	}
	// After an import nothing is configured yet: every size the platform
	// reports fills in. Otherwise an unset size stays null, so a platform
	// that reports its default size shows no diff.
	if t.CPUCount > 0 && (importing || !m.CPUCount.IsNull()) {
		m.CPUCount = types.Int64Value(t.CPUCount)
	}
	if t.MemoryMB > 0 && (importing || !m.MemoryMB.IsNull()) {
		m.MemoryMB = types.Int64Value(t.MemoryMB)
	}
	if t.DiskMB > 0 && (importing || !m.DiskMB.IsNull()) {
		m.DiskMB = types.Int64Value(t.DiskMB)
	}
	// Left out, public stays null (private is the default); set, or after
	// an import of a public template, it is what the platform reports.
	if !m.Public.IsNull() || (importing && t.Public) {
		m.Public = types.BoolValue(t.Public)
	}
	m.BuildID = types.StringValue(t.BuildID)
	m.Status = types.StringValue(t.Status)
	m.CreatedAt = timeStringOrNull(t.CreatedAt)
	if !foreign {
		m.Labels = mapToTF(platform.UserLabels(t.Labels), m.Labels)
	}
}
