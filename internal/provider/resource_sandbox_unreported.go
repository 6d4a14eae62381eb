package provider

import (
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// A box's name and template_id are read back where the platform reports
// them. A platform that knows them only from records the provider keeps on
// the boxes it makes says, of a box made outside the provider, that it
// cannot report them (platform.Sandbox.Unreported; so may it say of any
// other attribute). The import then leaves them null, as for an
// Unreported row, and the next plan takes them from the configuration
// (resource_unreported.go): the box is kept, not replaced. Both replace
// the box by the schema, so their plan modifiers spare what the import
// recorded (resource_unreported_replace.go).

// sandboxNamingAttributes are name and template_id with their priors
// (prior nil on create). They are no rows of the attribute table (every
// platform takes both), so they join the import's record and what a plan
// takes from the configuration, never planAttributes.
func sandboxNamingAttributes(plan sandboxModel, prior *sandboxModel) []plannedAttribute {
	attrs := []plannedAttribute{
		{key: platform.AttrSandboxName, path: path.Root("name"), plan: plan.Name},
		{key: platform.AttrSandboxTemplateID, path: path.Root("template_id"), plan: plan.TemplateID},
	}
	if prior != nil {
		attrs[0].prior, attrs[1].prior = prior.Name, prior.TemplateID
	}
	return attrs
}

// sandboxUnreportedAttributes are every attribute an import may leave null
// for want of a report: the table's, then name and template_id.
func sandboxUnreportedAttributes(plan sandboxModel, prior *sandboxModel) []plannedAttribute {
	return append(sandboxAttributes(plan, prior), sandboxNamingAttributes(plan, prior)...)
}

// sandboxReports reports whether the platform reported the attribute with
// table key key for sb: its row does not say it never does, and the read
// did not say it could not for this box.
func sandboxReports(row platform.Attribute, sb *platform.Sandbox, key string) bool {
	return !row.Unreported && !slices.Contains(sb.Unreported, key)
}
