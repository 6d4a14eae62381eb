package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// A list finds every object of its kind that matches its filters, made by
// anyone: importing is the deliberate act of taking ownership, and the
// objects a team made by hand (with the platform's own command line)
// are what a bulk import is for. These filters narrow the list by who made
// an object, where the platform keeps the provider's marks on that kind.

// listProvenanceFilter is the part of a list block's configuration that
// filters by who made an object.
type listProvenanceFilter struct {
	MadeByProvider types.Bool   `tfsdk:"made_by_provider"`
	Owner          types.String `tfsdk:"owner"`
}

// listProvenanceAttributes are the made_by_provider and owner filters of
// the list of kind, whose labels are the capability table's labelsAttr;
// their descriptions name the platforms of defs that keep no labels on the
// kind, where setting either is an error.
func listProvenanceAttributes(defs []platform.Definition, kind, labelsAttr string) map[string]listschema.Attribute {
	// Where no platform refuses the kind's labels, there is no error to tell of.
	refused := "Every platform labels " + plural(kind) + "."
	if names := platformsWhere(definitionsOr(defs), func(c platform.Capabilities) bool {
		return c.Attribute(labelsAttr).Support == platform.Refused
	}); names != "" {
		refused = "An error where the platform keeps no labels on " + plural(kind) + " (" + names + "): it cannot tell who made one."
	}
	return map[string]listschema.Attribute{
		"made_by_provider": listschema.BoolAttribute{
			MarkdownDescription: fmt.Sprintf("`true`: only %[1]s a create of this provider made (they carry the `%[2]s` label); "+
				"`false`: only %[1]s it did not make (by hand, or by another tool). Unset lists both. %[3]s",
				plural(kind), platform.LabelCreateToken, refused),
			Optional: true,
		},
		"owner": listschema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("Only %s a create of this provider made under this `owner` (the provider block's "+
				"setting, label `%s`). %s", plural(kind), platform.LabelOwner, refused),
			Optional: true,
		},
	}
}

// check adds an error for each filter set on a platform that keeps no
// marks on the kind (labelsAttr is the kind's labels attribute in the
// capability table): it could only ever match everything or nothing.
func (f listProvenanceFilter) check(plat platform.Platform, kind, labelsAttr string, diags *diag.Diagnostics) {
	row := plat.Capabilities().Attribute(labelsAttr)
	if row.Support != platform.Refused {
		return
	}
	why := ""
	if row.Why != "" {
		why = " (" + row.Why + ")"
	}
	for _, filter := range []struct {
		name string
		set  bool
	}{{"made_by_provider", !f.MadeByProvider.IsNull()}, {"owner", !f.Owner.IsNull()}} {
		if name := filter.name; filter.set {
			diags.AddAttributeError(path.Root(name), fmt.Sprintf("%s cannot be told on %s", name, plat.Name()),
				fmt.Sprintf("%s keeps no labels on %s%s, so the provider cannot tell which it made or for which owner. "+
					"Leave %s unset: the list then finds every %s that the other filters match.", plat.Name(), plural(kind), why, name, kind))
		}
	}
}

// matches reports whether an object made with marks (managed: it carries
// the provider's managed label) passes the filters.
func (f listProvenanceFilter) matches(managed bool, made platform.Marks) bool {
	madeByProvider := managed || made.CreateToken != ""
	if !f.MadeByProvider.IsNull() && f.MadeByProvider.ValueBool() != madeByProvider {
		return false
	}
	if !f.Owner.IsNull() && (!madeByProvider || made.Owner != f.Owner.ValueString()) {
		return false
	}
	return true
}
