package provider

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// addPlatformError reports a failed platform call: what was being done, to
// which object, and the platform's own message. A call on an existing
// object cut off by the resource's timeout also says that applying again
// is safe: the state still records the object, and the next apply picks
// up where this one stopped (a create says what it left by itself:
// lostcreate.Error).
func addPlatformError(diags *diag.Diagnostics, action, kind, id string, err error) {
	summary := fmt.Sprintf("Failed to %s %s", action, kind)
	detail := err.Error()
	if id != "" {
		detail = fmt.Sprintf("%s %q: %s", kind, id, err.Error())
	}
	if errors.Is(err, context.DeadlineExceeded) && action != "create" {
		detail += fmt.Sprintf(". The %s did not finish within its timeout; the state still records the %s, so "+
			"applying again is safe and finishes the job (raise the resource's timeouts if it needs longer).", action, kind)
	}
	diags.AddError(summary, detail)
}

// addGoneWarning reports that an object vanished outside Terraform and is
// being removed from state, so the next plan shows it being created again.
// reason is why the platform says it is gone (goneReason), "" when it
// does not say.
func addGoneWarning(diags *diag.Diagnostics, kind, id, reason string) {
	diags.AddWarning(fmt.Sprintf("%s no longer exists", kind),
		fmt.Sprintf("The %s %q was not found on the platform; it was deleted outside Terraform (or by the platform itself).%s "+
			"It has been removed from the state, and the next plan will create it again.", kind, id, goneReasonSentence(reason)))
}

// goneReason is why the platform says an object is gone, from its
// not-found error ("finished: timed out (exit code 124)"); "" when the
// error says nothing more than that the object is not there.
func goneReason(err error) string {
	var nf *platform.NotFoundError
	if errors.As(err, &nf) {
		return strings.TrimSpace(nf.Reason)
	}
	return ""
}

// goneReasonSentence is the platform's reason as a sentence for a
// warning's detail, with a leading space; "" when there is none. It is
// what tells a box that ended by itself (its command exited, it timed out)
// from one deleted by hand.
func goneReasonSentence(reason string) string {
	reason = strings.TrimSuffix(strings.TrimSpace(reason), ".")
	if reason == "" {
		return ""
	}
	return fmt.Sprintf(" The platform says why it is gone: %s.", reason)
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
