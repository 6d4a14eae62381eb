package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// addPlatformError reports a failed platform call: what was being done, to
// which object, and the platform's own message.
func addPlatformError(diags *diag.Diagnostics, action, kind, id string, err error) {
	summary := fmt.Sprintf("Failed to %s %s", action, kind)
	detail := err.Error()
	if id != "" {
		detail = fmt.Sprintf("%s %q: %s", kind, id, err.Error())
	}
	diags.AddError(summary, detail)
}

// addGoneWarning reports that an object vanished outside Terraform and is
// being removed from state, so the next plan shows it being created again.
func addGoneWarning(diags *diag.Diagnostics, kind, id string) {
	diags.AddWarning(fmt.Sprintf("%s no longer exists", kind),
		fmt.Sprintf("The %s %q was not found on the platform; it was deleted outside Terraform (or by the platform itself). "+
			"It has been removed from the state, and the next plan will create it again.", kind, id))
}
