package provider

import (
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
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

// valueForMessage renders a configured value for a diagnostic: strings
// quoted, numbers as written, and "(known after apply)" when unknown.
func valueForMessage(v attr.Value) string {
	if v.IsUnknown() {
		return "(known after apply)"
	}
	switch tv := v.(type) {
	case types.String:
		return strconv.Quote(tv.ValueString())
	case types.Int64:
		return strconv.FormatInt(tv.ValueInt64(), 10)
	}
	return v.String()
}
