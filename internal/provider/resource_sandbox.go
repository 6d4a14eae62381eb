package provider

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

var (
	_ resource.Resource                     = (*sandboxResource)(nil)
	_ resource.ResourceWithConfigure        = (*sandboxResource)(nil)
	_ resource.ResourceWithConfigValidators = (*sandboxResource)(nil)
	_ resource.ResourceWithModifyPlan       = (*sandboxResource)(nil)
	_ resource.ResourceWithUpgradeState     = (*sandboxResource)(nil)
	_ resource.ResourceWithImportState      = (*sandboxResource)(nil)
)

// Default waits, overridable with the timeouts block.
const (
	sandboxCreateTimeout = 10 * time.Minute
	sandboxUpdateTimeout = 10 * time.Minute
	sandboxDeleteTimeout = 5 * time.Minute
)

// sandboxNamePattern is the widest name every platform, registered or
// planned, accepts for a box.
var sandboxNamePattern = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$`)

// privateKeyImporting marks a state that came from ImportState, so the
// first Read fills attributes it otherwise leaves as the user wrote them.
const privateKeyImporting = "importing"

// sandboxResource is sbx_sandbox: one box on the configured platform.
type sandboxResource struct {
	// defs are the platforms the provider offers, whose tables document the
	// schema (nil: platforms.All()).
	defs     []platform.Definition
	platform platform.Platform
	// owner and names come from the provider block and the run (see providerData).
	owner     string
	names     *nameRegistry
	retention retentionSettings
	// boxes: the state each sandbox resource recorded (see boxStates).
	boxes *boxStates
}

// NewSandboxResource returns the sbx_sandbox resource, documented for the
// registered platforms.
func NewSandboxResource() resource.Resource { return newSandboxResource(nil) }

// newSandboxResource returns the sbx_sandbox resource of a provider
// offering defs.
func newSandboxResource(defs []platform.Definition) resource.Resource {
	return &sandboxResource{defs: defs}
}

func (r *sandboxResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_sandbox"
}

func (r *sandboxResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defs := definitionsOr(r.defs)
	resp.Schema = sandboxBaseSchema(ctx, defs)
	resp.Schema.Version = sandboxSchemaVersion
	for name, a := range sandboxEnvWOAttributes(defs) {
		resp.Schema.Attributes[name] = a
	}
	for name, a := range sandboxLifecycleAttributes(defs) {
		resp.Schema.Attributes[name] = a
	}
	for name, a := range retentionComputedAttributes(defs, "sandbox") {
		resp.Schema.Attributes[name] = a
	}
	resp.Schema.Attributes["status_since"] = sandboxStatusSinceAttribute()
	if a, ok := resp.Schema.Attributes["platform"].(schema.StringAttribute); ok {
		resp.Schema.Attributes["platform"] = stateKeptByModifyPlan(a)
	}
}

// UpgradeState reads a state saved under an earlier schema version
// (state_upgrade.go).
func (r *sandboxResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return sandboxStateUpgraders()
}

// stateKeptByModifyPlan is a computed attribute without its plan
// modifiers: ModifyPlan keeps its state (sandboxKeepState), in one pass
// for all of them instead of one framework modifier call for each.
func stateKeptByModifyPlan(a schema.StringAttribute) schema.StringAttribute {
	a.PlanModifiers = nil
	return a
}

// sandboxBaseSchema is sbx_sandbox without its lifecycle and retention
// attributes, documented for the platforms defs.
func sandboxBaseSchema(ctx context.Context, defs []platform.Definition) schema.Schema {
	untracked := func(c platform.Capabilities) bool { return !c.EnforcesDeadlines }
	enforcing := func(c platform.Capabilities) bool { return c.EnforcesDeadlines }
	envUnreported := func(c platform.Capabilities) bool { return c.Attribute(platform.AttrSandboxEnv).Unreported }
	envReported := func(c platform.Capabilities) bool {
		return c.Accepts(platform.AttrSandboxEnv) && !c.Attribute(platform.AttrSandboxEnv).Unreported
	}
	return schema.Schema{
		MarkdownDescription: "A sandbox (box) that an AI coding agent runs in, on the configured platform. " +
			"It starts from a template (`template_id`) or from a snapshot " +
			"(`from_snapshot_id`). Its `state` is managed in place: pausing, stopping and starting it again never " +
			"replaces it, and a box paused or stopped outside Terraform plans as an update back to the configured `state`.\n\n" +
			"**Deadlines.** `timeout`, `on_timeout`, `idle_timeout`, `auto_archive_after` and `auto_delete_after` set when the " +
			"platform acts on the box; with the provider's `retention {}` policy they give `expires_at`, " +
			"`retention_rule` and `retention_action`, and `terraform plan` warns when the deadline is within " +
			"`retention.warn_before` or past. A platform that enforces deadlines" + platformsAside(defs, enforcing) +
			" acts on the ones it accepts itself; one that enforces none" + platformsAside(defs, untracked) +
			" only tracks them (plan warnings, the `sbx_sandboxes` data source, the `drift` detector) and nothing stops or deletes the " +
			"box. Each attribute says which platforms accept it.\n\n" +
			"**Import.** By id. `env` is read back where the platform can tell it from the image's" +
			platformsAside(defs, envReported) + "; where the platform does not report it" + platformsAside(defs, envUnreported) +
			", the configured `env` is taken as the box's after an import (an in-place update that calls nothing), not a " +
			"replacement. The same holds for every attribute the platform does not report back (each says so), " +
			"`volume_mount` included; `status_since` is the import time where the platform does not report it.",
		Attributes: map[string]schema.Attribute{
			"id": stateKeptByModifyPlan(idAttribute("sandbox")),
			"name": schema.StringAttribute{
				MarkdownDescription: "Name of the sandbox on the platform (1–63 characters: letters, digits, `_`, `.`, `-`; " +
					"starting with a letter or digit). When omitted the platform picks one. A box is never taken over by its " +
					"name: where the platform keeps names unique, a box of this name that this create did not make " +
					"(another state's, one made by hand or left by a killed apply) fails the create, naming the import " +
					"command, and a `create_before_destroy` replacement cannot work; where a name is only a label, the " +
					"new box of a `create_before_destroy` replacement is made beside the old one. Two sandboxes of one " +
					"configuration with the same name are a plan-time error. Changing it replaces the sandbox.",
				Optional: true,
				Computed: true,
				PlanModifiers: []planmodifier.String{
					// A name an import could not read is taken from the
					// configuration (resource_sandbox_unreported.go).
					stringRequiresReplaceUnlessTaken(platform.AttrSandboxName,
						"Changing the name replaces the sandbox, except when an import could not read it."),
					// Its state is kept by ModifyPlan (sandboxKeepState).
				},
				Validators: []validator.String{
					stringvalidator.RegexMatches(sandboxNamePattern,
						"must be 1-63 characters of letters, digits, '_', '.' or '-', starting with a letter or digit"),
				},
			},
			"template_id": schema.StringAttribute{
				MarkdownDescription: "Id of the template (`sbx_template.x.id`) to start the sandbox from. " +
					"Exactly one of `template_id` and `from_snapshot_id` is required. Changing it replaces the sandbox.",
				Optional:   true,
				Validators: []validator.String{objectIDValidator("template")},
				PlanModifiers: []planmodifier.String{stringRequiresReplaceUnlessTaken(platform.AttrSandboxTemplateID,
					"Changing the template replaces the sandbox, except when an import could not read it.")},
			},
			"from_snapshot_id": schema.StringAttribute{
				MarkdownDescription: withPlatformNotes("Id of a snapshot (`sbx_snapshot.x.id`) to restore into a new sandbox. "+
					"Restoring always makes a new box; the snapshot is left unchanged. Exactly one of `template_id` and "+
					"`from_snapshot_id` is required. Changing it to another snapshot replaces the sandbox. **A box restored "+
					"from a snapshot holds its own data**: when the snapshot it was restored from is gone (deleted or "+
					"expired, so its `sbx_snapshot` is created anew), the sandbox is kept, with its data, "+
					"`from_snapshot_id` records the configured value in place and the plan warns; run "+
					"`terraform apply -replace` to start a new box from the new snapshot.", defs, platform.AttrSandboxFromSnapshotID),
				Optional:   true,
				Validators: []validator.String{objectIDValidator("snapshot")},
				// Replacement is ModifyPlan's: a lost snapshot never replaces
				// the box (resource_sandbox_snapshot_lost.go).
			},
			"state": schema.StringAttribute{
				MarkdownDescription: withPlatformNotes("The state to keep the sandbox in: `running` (default), `paused` "+
					"(frozen with its memory) or `stopped` (processes ended, disk kept). Changing it "+
					"pauses, resumes, stops or starts the box in place — never a replacement. When the box is found "+
					"running, paused or stopped otherwise (paused by hand on the platform, stopped by the platform on a "+
					"timeout), the next plan shows an update back to this value.", defs, platform.AttrSandboxState),
				Optional:   true,
				Computed:   true,
				Default:    stringdefault.StaticString(string(platform.StateRunning)),
				Validators: []validator.String{stringvalidator.OneOf(platform.DesiredStates...)},
			},
			"region": schema.StringAttribute{
				MarkdownDescription: withPlatformNotes("The region the sandbox runs in. When omitted the provider's or the "+
					"platform's default region applies, and this reads the region the sandbox got (null where the "+
					"platform has no regions).", defs, platform.AttrSandboxRegion),
				Optional: true,
				Computed: true,
				// Its state is kept by ModifyPlan (sandboxKeepState).
			},
			"cpu_count": schema.Int64Attribute{
				CustomType: wholeNumber,
				MarkdownDescription: withPlatformNotes("Number of CPUs for the sandbox. When omitted the platform's default applies.",
					defs, platform.AttrSandboxCPUCount),
				Optional:   true,
				Validators: []validator.Int64{int64validator.AtLeast(1)},
			},
			"memory_mb": schema.Int64Attribute{
				CustomType: wholeNumber,
				MarkdownDescription: withPlatformNotes("Memory limit in MiB, at least the platform's minimum. When omitted "+
					"the platform's default applies.", defs, platform.AttrSandboxMemoryMB),
				Optional:   true,
				Validators: []validator.Int64{int64validator.AtLeast(1)},
			},
			"disk_mb": schema.Int64Attribute{
				CustomType:          wholeNumber,
				MarkdownDescription: withPlatformNotes("Disk size in MiB for the sandbox.", defs, platform.AttrSandboxDiskMB),
				Optional:            true,
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
			},
			"env": schema.MapAttribute{
				MarkdownDescription: withPlatformNotes("Environment variables for the sandbox's processes. Sensitive: values "+
					"never appear in plans, logs or error messages. Where the platform reports them, they are read back "+
					"only on import, so an imported box whose `env` matches plans no change; a change made outside "+
					"Terraform later is not detected. Names must be non-empty and contain no `=` or NUL; values contain "+
					"no NUL, and `NAME=value` is at most 131071 bytes (Linux's limit for one variable). A refused entry "+
					"is a plan-time error naming the variable, never its value.", defs, platform.AttrSandboxEnv),
				ElementType: types.StringType,
				Optional:    true,
				Sensitive:   true,
				Validators:  []validator.Map{sandboxEnvKeysValidator{}},
			},
			"auto_resume": schema.BoolAttribute{
				MarkdownDescription: withPlatformNotes("Whether a paused sandbox resumes by itself when traffic reaches it "+
					"(a request to one of its ports). Defaults to `false`: a paused box stays paused until `state` "+
					"says `running`. A box resumed this way plans an update back to `state = \"paused\"` if that is what "+
					"the configuration says.", defs, platform.AttrSandboxAutoResume),
				Optional: true,
			},
			"memory_snapshots": schema.BoolAttribute{
				MarkdownDescription: withPlatformNotes("Whether the sandbox is created able to take memory snapshots "+
					"(`sbx_snapshot` with `include_memory = true`), on platforms that need this chosen when the box is made. "+
					"Defaults to `false`. Where the platform needs no such choice, or has no memory snapshots, `true` is a "+
					"plan-time error.", defs, platform.AttrSandboxMemorySnapshots),
				Optional: true,
				Computed: true,
				// A default rather than UseStateForUnknown: left out, the
				// plan knows it is false, never unknown; a read takes it
				// from the platform where it reports it
				// (sandboxMemorySnapshotsRead).
				Default: booldefault.StaticBool(false),
			},
			"labels": schema.MapAttribute{
				MarkdownDescription: withPlatformNotes(labelsDescription("sandbox"), defs, platform.AttrSandboxLabels),
				ElementType:         types.StringType,
				Optional:            true,
				Validators:          []validator.Map{labelKeysValidator{}},
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "The sandbox's state as the platform reports it, normalized: `running`, `paused`, " +
					"`stopped`, `starting`, `stopping`, `failed` or `unknown`.",
				Computed: true,
			},
			"created_at": stateKeptByModifyPlan(computedString("When the sandbox was created (RFC 3339).")),
			"started_at": schema.StringAttribute{
				MarkdownDescription: "When the sandbox last started (RFC 3339); null if it never started.",
				Computed:            true,
			},
		},
		Blocks: map[string]schema.Block{
			"network": sandboxNetworkBlock(defs),
			"volume_mount": schema.ListNestedBlock{
				MarkdownDescription: withPlatformNotes("A volume to mount into the sandbox. Repeat the block for several "+
					"volumes; each needs its own `path`.", defs, platform.AttrSandboxVolumeMount),
				NestedObject: schema.NestedBlockObject{
					Attributes: map[string]schema.Attribute{
						"volume_id": schema.StringAttribute{
							MarkdownDescription: "Id of the volume (`sbx_volume.x.id`).",
							Required:            true,
							Validators:          []validator.String{objectIDValidator("volume")},
						},
						"path": schema.StringAttribute{
							MarkdownDescription: "Absolute path inside the sandbox to mount the volume at, e.g. `/data`; written clean (no `..`, `.` or `//` segments) and not `/`.",
							Required:            true,
							Validators:          []validator.String{sandboxMountPathValidator()},
						},
						"read_only": schema.BoolAttribute{
							MarkdownDescription: withPlatformNotes("Mount the volume read-only. Defaults to `false`.",
								defs, platform.AttrSandboxMountReadOnly),
							Optional: true,
							Computed: true,
							Default:  booldefault.StaticBool(false),
						},
						"subpath": schema.StringAttribute{
							MarkdownDescription: withPlatformNotes("A directory inside the volume to mount instead of its root, "+
								"relative to the root (e.g. `projects/a`). When omitted the whole volume is mounted.",
								defs, platform.AttrSandboxMountSubpath),
							Optional:   true,
							Validators: []validator.String{sandboxSubpathValidator()},
						},
					},
				},
				// Mounts an import could not read are taken from the
				// configuration, not a replacement (resource_unreported_replace.go).
				PlanModifiers: []planmodifier.List{listRequiresReplaceUnlessTaken(platform.AttrSandboxVolumeMount,
					"Changing the mounts replaces the sandbox, except when an import could not read them.")},
				Validators: []validator.List{sandboxUniqueMountPathsValidator{}},
			},
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
		},
	}
}

func (r *sandboxResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.platform = platformFrom(req.ProviderData, &resp.Diagnostics)
	r.owner = ownerFrom(req.ProviderData)
	r.names = namesFrom(req.ProviderData)
	r.retention = retentionFrom(req.ProviderData)
	r.boxes = boxStatesFrom(req.ProviderData)
}

func (r *sandboxResource) ConfigValidators(_ context.Context) []resource.ConfigValidator {
	return append([]resource.ConfigValidator{
		newExactlyOneOfRoot("template_id", "from_snapshot_id"),
	}, sandboxEnvWOValidators()...)
}

func (r *sandboxResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer recordIdentity(ctx, r.platform, resp.Identity, &resp.State)
	var plan sandboxModel
	resp.Diagnostics.Append(getPlan(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, sandboxCreateTimeout)
	resp.Diagnostics.Append(diags...)
	spec := sandboxSpecFromModel(ctx, plan, &resp.Diagnostics)
	spec.Env = sandboxEnvWith(spec.Env, sandboxEnvWOFromConfig(ctx, req.Config, &resp.Diagnostics))
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	spec.Marks = platform.NewMarks(r.owner)
	sb, err := r.platform.Sandboxes().Create(ctx, spec)
	if sb != nil {
		// Save the box even when the create failed half-way: Terraform then
		// marks it tainted and replaces it, instead of leaving an orphan.
		out := sandboxSettle(plan, sb)
		sandboxAfterApply(&out, sb, r.platform.Name(), r.retention.orDefault())
		resp.Diagnostics.Append(setState(ctx, &resp.State, out)...)
		r.boxes.record(out.ID.ValueString(), out.State.ValueString())
	}
	if err != nil {
		addPlatformError(&resp.Diagnostics, "create", "sandbox", spec.Name, err)
	}
}

func (r *sandboxResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer recordIdentity(ctx, r.platform, resp.Identity, &resp.State, &req.State)
	var state sandboxModel
	resp.Diagnostics.Append(getState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	importing := readAfterImport(ctx, req, resp)

	id := state.ID.ValueString()
	sb, ok := readOrForget(ctx, resp, "sandbox", id, r.platform.Sandboxes().Get,
		func(diags *diag.Diagnostics, reason string) {
			addGoneOrExpiredWarning(diags, "sandbox", id, r.platform.Name(), sandboxRetentionOf(state), r.retention.now(), reason)
		})
	if !ok {
		return
	}
	read := state
	prevStatus, prevSince := state.Status, state.StatusSince
	caps := r.platform.Capabilities()
	sb = sandboxAsRecorded(caps, state, sb)
	state.MemorySnapshots = sandboxMemorySnapshotsRead(caps.Attribute(platform.AttrSandboxMemorySnapshots), state.MemorySnapshots, sb)
	sandboxRefresh(&state, sb, importing)
	sandboxAfterRead(&state, sb, prevStatus, prevSince, r.platform.Name(), r.retention.orDefault())
	resp.Diagnostics.Append(setStateIfChanged(ctx, &resp.State, read, state)...)
	r.boxes.record(state.ID.ValueString(), state.State.ValueString())
	if importing {
		// What the platform does not report is taken from the
		// configuration at the next plan (resource_unreported.go).
		writeUnreported(ctx, resp.Private,
			unreportedAfterImport(caps.Attributes, sandboxUnreportedAttributes(state, nil), sb.Unreported), &resp.Diagnostics)
		endImport(ctx, resp)
	}
}

func (r *sandboxResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer recordIdentity(ctx, r.platform, resp.Identity, &resp.State)
	var plan, state sandboxModel
	resp.Diagnostics.Append(getPlan(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(getState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Update(ctx, sandboxUpdateTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	id := state.ID.ValueString()
	boxes := r.platform.Sandboxes()
	var sb *platform.Sandbox

	// The plan only reaches Update for changes the attribute table makes
	// in place; anything else was planned as a replacement. An imported
	// box's env the platform did not report is recorded as planned, with no
	// call.
	recorded := readUnreported(ctx, req.Private, &resp.Diagnostics)
	wo := sandboxEnvWOFromConfig(ctx, req.Config, &resp.Diagnostics)
	// As planned: env_wo's variables the box holds already are not sent.
	sandboxEnvWOHeld(ctx, &state, plan, wo, &resp.Diagnostics)
	taken := unreportedTaken(recorded, sandboxUnreportedAttributes(plan, &state))
	resuming := !plan.State.Equal(state.State) && plan.State.ValueString() == string(platform.StateRunning)
	change, changed := sandboxUpdateFrom(ctx, plan, state, taken, &resp.Diagnostics)
	if sandboxUpdateEnvWO(ctx, &change, plan, state, taken, wo, &resp.Diagnostics) {
		changed = true
	}
	// A resume sets the lifecycle again below (where the timeout changes in
	// place); a change of nothing else waits for it.
	resumeSetsLifecycle := resuming && r.platform.Capabilities().InPlace(platform.AttrSandboxTimeout)
	lifecycleOnly := change.Lifecycle != nil && !sandboxChangesMoreThanLifecycle(change)
	if changed && (!resumeSetsLifecycle || !lifecycleOnly) {
		got, err := boxes.Update(ctx, id, change)
		if err != nil {
			addPlatformError(&resp.Diagnostics, "update", "sandbox", id, err)
			return
		}
		sb = got
	}
	if !plan.State.Equal(state.State) {
		got, err := boxes.SetState(ctx, id, platform.SandboxState(plan.State.ValueString()))
		if err != nil {
			addPlatformError(&resp.Diagnostics, "change the state of", "sandbox", id, err)
			return
		}
		sb = got
	}
	if resumeSetsLifecycle && (isSet(plan.Timeout) || change.Lifecycle != nil) {
		// A platform may resume a box with the settings it was created
		// with (one that reconnects a box keeps its create-time timeout). Setting the
		// configured ones again makes the timeout count from this resume,
		// as a fresh start would, whatever changed in place since.
		lc := &platform.LifecycleUpdate{Lifecycle: sandboxLifecycleFromModel(plan)}
		if change.Lifecycle != nil {
			lc.Changed = change.Lifecycle.Changed
		}
		got, err := boxes.Update(ctx, id, platform.SandboxUpdate{Lifecycle: lc})
		if err != nil {
			addPlatformError(&resp.Diagnostics, "set the lifecycle settings of the resumed", "sandbox", id, err)
			return
		}
		sb = got
	}
	if sb == nil {
		// Only provider-side settings (timeouts) changed: nothing to send.
		got, err := boxes.Get(ctx, id)
		if err != nil {
			addPlatformError(&resp.Diagnostics, "read", "sandbox", id, err)
			return
		}
		sb = got
	}
	out := sandboxSettle(plan, sb)
	sandboxAfterApply(&out, sb, r.platform.Name(), r.retention.orDefault())
	resp.Diagnostics.Append(setState(ctx, &resp.State, out)...)
	r.boxes.record(out.ID.ValueString(), out.State.ValueString())
	if len(taken) > 0 {
		writeUnreported(ctx, resp.Private, slices.DeleteFunc(recorded, func(k string) bool { return slices.Contains(taken, k) }), &resp.Diagnostics)
	}
}

func (r *sandboxResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state sandboxModel
	resp.Diagnostics.Append(getState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := state.Timeouts.Delete(ctx, sandboxDeleteTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	err := r.platform.Sandboxes().Delete(ctx, state.ID.ValueString())
	if err != nil && !errors.Is(err, platform.ErrNotFound) {
		addPlatformError(&resp.Diagnostics, "delete", "sandbox", state.ID.ValueString(), err)
	}
}

func (r *sandboxResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if !importExisting(ctx, r.platform, "sandbox", r.owner, func(ctx context.Context, id string) (platform.Marks, error) {
		sb, err := r.platform.Sandboxes().Get(ctx, id)
		if err != nil {
			return platform.Marks{}, err
		}
		return sb.MadeWith, nil
	}, req, resp) {
		return
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateKeyImporting, []byte("true"))...)
}
