package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// templateCheckContextUnchanged hashes the build input again just before a
// build and reports an error on context_dir when it no longer matches the
// planned context_hash: the files of context_dir changed after the plan,
// so the build would be of files nobody reviewed, and the state would
// record a hash the plan did not show. It returns true when the build may
// go on. Nothing is built on an error; a plan made again shows the new
// hash. A plan without a known hash (an adopted image, a Dockerfile or a
// context_dir unknown at plan) has nothing to compare.
//
// Where Terraform plans the resource again during the apply (it always
// does, to fill in values learned so far) and that plan hashes other
// files than the saved plan did, Terraform itself stops before the
// create or update, on its consistency check of the two plans: the
// provider is not shown the saved plan then. This check covers what that
// one cannot, files changed after that last plan, and says so in the
// words a user can act on.
func templateCheckContextUnchanged(plan templateModel, diags *diag.Diagnostics) bool {
	if plan.Dockerfile.IsNull() || plan.Dockerfile.IsUnknown() || plan.ContextDir.IsUnknown() ||
		plan.ContextHash.IsNull() || plan.ContextHash.IsUnknown() {
		return true
	}
	dir := plan.ContextDir.ValueString()
	planned := plan.ContextHash.ValueString()
	now, err := templateContextHash(dir, plan.Dockerfile.ValueString())
	if err != nil {
		diags.AddAttributeError(pathTemplateContextDir, "Cannot hash the build context",
			fmt.Sprintf("context_dir = %q: %s. The plan hashed it to context_hash = %s; nothing was built. Restore the "+
				"directory, or run terraform plan again.", dir, err, planned))
		return false
	}
	if now == planned {
		return true
	}
	diags.AddAttributeError(pathTemplateContextDir, "Build context changed since the plan",
		fmt.Sprintf("The plan hashed dockerfile and the files of context_dir = %q to context_hash = %s; they now hash to "+
			"%s: the files of context_dir changed after the plan was made; run terraform plan again (and review the "+
			"new plan) to build them. Nothing was built.", dir, planned, now))
	return false
}
