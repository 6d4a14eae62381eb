package provider

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/buildctx"
	dockerfileparse "github.com/sbxhq/terraform-provider-sbx/internal/dockerfile"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// templateContextHash is buildctx.Hash; a variable so unit tests can see
// which inputs reach it without building a context on disk.
var templateContextHash = buildctx.Hash

func (r *templateResource) ConfigValidators(_ context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{
		resourcevalidator.ExactlyOneOf(path.MatchRoot("dockerfile"), path.MatchRoot("image")),
	}
}

// ValidateConfig checks context_dir on the machine that plans: a build
// needs it, and a typo is better reported here than as a failed build. The
// Dockerfile must parse, and one built on from_template may have no FROM
// line.
func (r *templateResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var from, dockerfile types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, pathTemplateFromTemplate, &from)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, pathTemplateDockerfile, &dockerfile)...)
	templateCheckDockerfile(from, dockerfile, &resp.Diagnostics)
	var dir types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, pathTemplateContextDir, &dir)...)
	if dir.IsNull() || dir.IsUnknown() {
		return
	}
	templateCheckContextDir(dir.ValueString(), &resp.Diagnostics)
}

// ModifyPlan computes context_hash, rejects settings the platform cannot
// honour, and turns a changed build input into a rebuild: in place where the
// platform keeps the template id, a replacement elsewhere. It plans the
// retention attributes and their warnings (template_retention.go), and an
// in-place activation of a template the platform deactivated.
func (r *templateResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy: nothing to build or check
	}
	var plan templateModel
	resp.Diagnostics.Append(getPlan(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}

	if r.platform != nil {
		if req.State.Raw.IsNull() {
			planAttributes(r.platform.Capabilities().Attributes, r.platform.Name(), templateAttributes(plan, nil), &resp.Diagnostics)
		}
		templateCheckSpec(ctx, r.platform, plan, &resp.Diagnostics)
		checkUniqueName(r.names, req, resp, "sbx_template", "template", path.Root("name"), plan.Name.ValueString(), priorID(ctx, req))
	}
	plan.ContextHash = templatePlannedHash(plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	if !req.State.Raw.IsNull() && r.platform != nil {
		var state templateModel
		resp.Diagnostics.Append(getState(ctx, req.State, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		unreported := templateUnreportedAttributes(plan, state)
		taken := unreportedTaken(readUnreported(ctx, req.Private, &resp.Diagnostics), unreported)
		planUnreportedFromConfig(unreported, taken, r.platform.Name(), "template", "Template", state.ID.ValueString(), &resp.Diagnostics)
		templateTakeUnreported(&state, plan, taken)
		templateTakeRecordedBuild(&state, plan)
		decision := planAttributes(r.platform.Capabilities().Attributes, r.platform.Name(), templateAttributes(plan, &state), &resp.Diagnostics)
		displaced := templateDisplacedBuild(ctx, req.Private, &resp.Diagnostics)
		newBuild := false
		switch {
		case resp.Diagnostics.HasError():
			return
		case len(decision.replace) > 0:
			resp.RequiresReplace.Append(decision.replace...)
			newBuild = true
		case len(decision.inPlace) > 0 && templateIsForeign(state):
			// An image the provider did not build is never built over: a
			// changed input makes a template of the provider's own.
			resp.RequiresReplace.Append(templateRebuildChanges(plan, state)...)
			newBuild = true
		case len(decision.inPlace) > 0 || displaced != "":
			// Same id, new build (TemplateService.Rebuild): what the build
			// produces is unknown until it runs. An image tagged over the
			// provider's build by hand is rebuilt over in the same way.
			if displaced != "" {
				addDisplacedWarning(&resp.Diagnostics, state.ID.ValueString(), state.BuildID.ValueString(), displaced)
			}
			plan.BuildID = types.StringUnknown()
			plan.Status = types.StringUnknown()
			plan.CreatedAt = types.StringUnknown()
			newBuild = true
		}
		// The deadline: kept from state, unknown for a new build, planned
		// again for an activation of a template the platform deactivated.
		templatePlanRetention(&plan, &state, newBuild, r.platform, r.defs, r.retention, &resp.Diagnostics)
	} else if r.platform != nil {
		templatePlanRetention(&plan, nil, false, r.platform, r.defs, r.retention, &resp.Diagnostics)
	}
	resp.Diagnostics.Append(setPlan(ctx, &resp.Plan, &plan)...)
	if req.State.Raw.IsNull() && r.platform != nil {
		// A create (also the create half of a replacement): where the id
		// follows from the name, plan it known, so a template recreated
		// under its name changes no template_id downstream.
		planKnownID(ctx, r.platform, "template", plan.Name, resp)
	}
}

// templateCheckDockerfile reports a Dockerfile no build can read (every
// platform builds or translates it by BuildKit's syntax), and a FROM line
// in a Dockerfile built on from_template (set, known or not): the base is
// the template.
func templateCheckDockerfile(from, dockerfile types.String, diags *diag.Diagnostics) {
	if dockerfile.IsNull() || dockerfile.IsUnknown() {
		return
	}
	f, err := dockerfileparse.Parse(dockerfile.ValueString())
	if err != nil {
		diags.AddAttributeError(pathTemplateDockerfile, "Dockerfile syntax error", err.Error())
		return
	}
	if from.IsNull() {
		return
	}
	if line := f.FromLine(); line > 0 {
		diags.AddAttributeError(pathTemplateDockerfile, "FROM in a Dockerfile built on from_template",
			fmt.Sprintf("dockerfile line %d is a FROM instruction, but the template is built on from_template: its base "+
				"is that template, and the Dockerfile holds only the steps run on it. Remove line %d (or remove "+
				"from_template to build on that image).", line, line))
	}
}

// templatePlannedHash is the content hash of the planned build input: null
// for an adopted image, unknown while the Dockerfile or the context
// directory is not known yet.
func templatePlannedHash(plan templateModel, diags *diag.Diagnostics) types.String {
	if plan.Dockerfile.IsNull() {
		return types.StringNull()
	}
	if plan.Dockerfile.IsUnknown() || plan.ContextDir.IsUnknown() {
		return types.StringUnknown()
	}
	dir := plan.ContextDir.ValueString()
	if dir != "" && !templateCheckContextDir(dir, diags) {
		return types.StringUnknown()
	}
	sum, err := templateContextHash(dir, plan.Dockerfile.ValueString())
	if err != nil {
		diags.AddAttributeError(pathTemplateContextDir, "Cannot hash the build context",
			fmt.Sprintf("context_dir = %q: %s", dir, err))
		return types.StringUnknown()
	}
	return types.StringValue(sum)
}

// templateCheckContextDir reports a context_dir that is missing or not a
// directory, naming the attribute and the path. It returns true when dir is usable.
func templateCheckContextDir(dir string, diags *diag.Diagnostics) bool {
	fi, err := os.Stat(dir)
	switch {
	case err != nil && os.IsNotExist(err):
		diags.AddAttributeError(pathTemplateContextDir, "Build context directory not found",
			fmt.Sprintf("context_dir = %q does not exist on this machine. Set it to the directory holding the files "+
				"the Dockerfile copies (e.g. \"${path.module}/agent\").", dir))
		return false
	case err != nil:
		diags.AddAttributeError(pathTemplateContextDir, "Cannot read the build context directory",
			fmt.Sprintf("context_dir = %q: %s", dir, err))
		return false
	case !fi.IsDir():
		diags.AddAttributeError(pathTemplateContextDir, "Build context is not a directory",
			fmt.Sprintf("context_dir = %q is a file; it must be a directory holding the files the Dockerfile copies.", dir))
		return false
	}
	return true
}

// templateRebuildChanges lists the build inputs that differ between plan and
// state; any of them means a new build. context_dir itself is absent on
// purpose: moving the same files elsewhere leaves context_hash unchanged.
func templateRebuildChanges(plan, state templateModel) path.Paths {
	inputs := []struct {
		p          path.Path
		plan, prev attr.Value
	}{
		{pathTemplateDockerfile, plan.Dockerfile, state.Dockerfile},
		{pathTemplateFromTemplate, plan.FromTemplate, state.FromTemplate},
		{pathTemplateContextHash, plan.ContextHash, state.ContextHash},
		{pathTemplateStartCmd, plan.StartCmd, state.StartCmd},
		{pathTemplateReadyCmd, plan.ReadyCmd, state.ReadyCmd},
		{pathTemplateCPUCount, plan.CPUCount, state.CPUCount},
		{pathTemplateMemoryMB, plan.MemoryMB, state.MemoryMB},
		{pathTemplateDiskMB, plan.DiskMB, state.DiskMB},
		{pathTemplatePublic, plan.Public, state.Public},
	}
	var out path.Paths
	for _, in := range inputs {
		if !in.plan.Equal(in.prev) {
			out = append(out, in.p)
		}
	}
	if !mapsSame(plan.Labels, state.Labels) {
		out = append(out, pathTemplateLabels)
	}
	return out
}

// templateAttributes are a template's build inputs for the platform's
// attribute table; prior is nil on create. A changed Dockerfile or build
// context (context_hash) is a change of the dockerfile row; context_dir
// itself is absent on purpose: moving the same files elsewhere leaves
// context_hash unchanged.
func templateAttributes(plan templateModel, prior *templateModel) []plannedAttribute {
	attrs := []plannedAttribute{
		{key: platform.AttrTemplateDockerfile, path: pathTemplateDockerfile, plan: plan.Dockerfile, shown: "(a Dockerfile)"},
		{key: platform.AttrTemplateDockerfile, path: pathTemplateContextHash, plan: plan.ContextHash, shown: "(a build context)"},
		{key: platform.AttrTemplateImage, path: pathTemplateImage, plan: plan.Image},
		{key: platform.AttrTemplateStartCmd, path: pathTemplateStartCmd, plan: plan.StartCmd},
		{key: platform.AttrTemplateReadyCmd, path: pathTemplateReadyCmd, plan: plan.ReadyCmd},
		{key: platform.AttrTemplateCPUCount, path: pathTemplateCPUCount, plan: plan.CPUCount},
		{key: platform.AttrTemplateMemoryMB, path: pathTemplateMemoryMB, plan: plan.MemoryMB},
		{key: platform.AttrTemplateDiskMB, path: pathTemplateDiskMB, plan: plan.DiskMB},
		{key: platform.AttrTemplateLabels, path: pathTemplateLabels, plan: plan.Labels},
		{key: platform.AttrTemplatePublic, path: pathTemplatePublic, plan: plan.Public},
		{key: platform.AttrTemplateFromTemplate, path: pathTemplateFromTemplate, plan: plan.FromTemplate},
	}
	if prior != nil {
		priors := []attr.Value{prior.Dockerfile, prior.ContextHash, nil, prior.StartCmd, prior.ReadyCmd,
			prior.CPUCount, prior.MemoryMB, prior.DiskMB, prior.Labels, prior.Public, prior.FromTemplate}
		for i := range attrs {
			attrs[i].prior = priors[i]
		}
	}
	// context_hash is computed: only its changes are judged, not whether it is set.
	if attrs[1].prior == nil {
		attrs = append(attrs[:1], attrs[2:]...)
	}
	return attrs
}

// templateCheckSpec asks a platform that can (Extensions.TemplateSpecs)
// whether it can build the template, e.g. whether the build steps it
// translates a Dockerfile into express every line, so the answer comes at
// plan time, not after a build.
func templateCheckSpec(ctx context.Context, plat platform.Platform, plan templateModel, diags *diag.Diagnostics) {
	v := plat.Extensions().TemplateSpecs
	if v == nil || plan.Dockerfile.IsUnknown() || plan.Labels.IsUnknown() {
		return
	}
	if f, err := dockerfileparse.Parse(plan.Dockerfile.ValueString()); err != nil || !plan.FromTemplate.IsNull() && f.FromLine() > 0 {
		return // reported by ValidateConfig, naming the line
	}
	spec := templateSpecFrom(ctx, plan, diags)
	if plan.FromTemplate.IsUnknown() {
		// The base's id is known after its create; what matters here is
		// that there is one.
		spec.FromTemplate = "(known after apply)"
	}
	err := v.ValidateTemplateSpec(spec)
	switch {
	case err == nil:
	case errors.Is(err, platform.ErrUnsupported):
		diags.AddError("Template setting not supported on "+plat.Name(), err.Error())
	default:
		diags.AddAttributeError(pathTemplateDockerfile, "Dockerfile not supported on "+plat.Name(), err.Error())
	}
}
