package provider

import (
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// An imported template's build inputs (dockerfile with its context, image,
// from_template, the start and ready commands) are read back where the platform reports them; where its
// rows are Unreported, and for a name the platform does not report (a
// platform whose images have no name), the import leaves them null and the
// next plan takes them from the configuration (resource_unreported.go):
// the imported template is kept, not rebuilt or replaced.

// templateNameKey stands for name in the import's record. name is not a
// platform attribute-table key: every platform takes a name, and only
// whether it reports one back after an import varies, which the import
// itself shows (a required name left null).
const templateNameKey = "template.name"

// templateUnreportedAttributes are the attributes an import may leave null
// for want of a report, with their prior values.
func templateUnreportedAttributes(plan, prior templateModel) []plannedAttribute {
	return []plannedAttribute{
		{key: platform.AttrTemplateDockerfile, path: pathTemplateDockerfile, plan: plan.Dockerfile, prior: prior.Dockerfile},
		{key: platform.AttrTemplateDockerfile, path: pathTemplateContextHash, plan: plan.ContextHash, prior: prior.ContextHash},
		{key: platform.AttrTemplateImage, path: pathTemplateImage, plan: plan.Image, prior: prior.Image},
		{key: platform.AttrTemplateFromTemplate, path: pathTemplateFromTemplate, plan: plan.FromTemplate, prior: prior.FromTemplate},
		{key: platform.AttrTemplateStartCmd, path: pathTemplateStartCmd, plan: plan.StartCmd, prior: prior.StartCmd},
		{key: platform.AttrTemplateReadyCmd, path: pathTemplateReadyCmd, plan: plan.ReadyCmd, prior: prior.ReadyCmd},
		{key: templateNameKey, path: path.Root("name"), plan: plan.Name, prior: prior.Name},
	}
}

// templateUnreportedAfterImport is what the import of state left null for
// want of a report: the Unreported rows left null, and the name when the
// platform gave none. The Dockerfile is left out for a template with no
// finished build (a build still running, failed, or never started: an
// apply killed while it built), so that no plan takes it from the
// configuration and keeps a template no box can start from: the plan
// builds it instead.
func templateUnreportedAfterImport(table platform.Attributes, state templateModel) []string {
	keys := unreportedAfterImport(table, templateUnreportedAttributes(state, state), nil)
	if !templateBuilt(state) {
		keys = slices.DeleteFunc(keys, func(key string) bool { return key == platform.AttrTemplateDockerfile })
	}
	if state.Name.IsNull() {
		keys = append(keys, templateNameKey)
	}
	return keys
}

// templateBuilt says the template has a build boxes start from: it is
// ready, or inactive (activated again in place).
func templateBuilt(state templateModel) bool {
	switch state.Status.ValueString() {
	case platform.TemplateReady, platform.TemplateInactive:
		return true
	}
	return false
}

// templateTakeUnreported records the taken attributes in state as planned,
// so nothing judging the plan against state (the attribute table, the
// rebuild check, the retention plan) counts them as a change. A taken
// Dockerfile brings its build context along: it describes what was built.
func templateTakeUnreported(state *templateModel, plan templateModel, taken []string) {
	if slices.Contains(taken, platform.AttrTemplateDockerfile) {
		state.Dockerfile, state.ContextDir, state.ContextHash = plan.Dockerfile, plan.ContextDir, plan.ContextHash
	}
	if slices.Contains(taken, platform.AttrTemplateImage) {
		state.Image = plan.Image
	}
	if slices.Contains(taken, platform.AttrTemplateFromTemplate) {
		state.FromTemplate = plan.FromTemplate
	}
	if slices.Contains(taken, platform.AttrTemplateStartCmd) {
		state.StartCmd = plan.StartCmd
	}
	if slices.Contains(taken, platform.AttrTemplateReadyCmd) {
		state.ReadyCmd = plan.ReadyCmd
	}
	if slices.Contains(taken, templateNameKey) {
		state.Name = plan.Name
	}
}

// templateTakeRecordedBuild takes the configured Dockerfile and context
// directory into an imported template's state when the platform recorded
// the build's context_hash and the configuration hashes to the same value:
// the configuration describes the image as built, so the first plan after
// the import updates the state only, with no rebuild. A different hash is
// left to plan the rebuild it is.
func templateTakeRecordedBuild(state *templateModel, plan templateModel) {
	if !state.Dockerfile.IsNull() || state.ContextHash.IsNull() || state.ContextHash.IsUnknown() ||
		plan.Dockerfile.IsNull() || plan.Dockerfile.IsUnknown() || plan.ContextDir.IsUnknown() ||
		!plan.ContextHash.Equal(state.ContextHash) {
		return
	}
	state.Dockerfile, state.ContextDir = plan.Dockerfile, plan.ContextDir
}
