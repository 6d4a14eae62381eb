package provider

import (
	"context"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// setter is tfsdk.State or tfsdk.Plan.
type setter interface {
	Set(ctx context.Context, val any) diag.Diagnostics
}

// setIfChanged writes model into dst only when it differs from read, the
// model as read from dst's own value. A Set converts the whole model back
// through the framework's reflection (per field, regular expressions
// included), which is most of a no-op refresh or plan's provider CPU at
// scale; writing back what was read would leave dst's value as it is, so
// an unchanged model is left unwritten. reflect.DeepEqual errs only
// toward "changed" (a NaN, a func), which writes as before.
func setIfChanged[M any](ctx context.Context, dst setter, read, model M) diag.Diagnostics {
	if reflect.DeepEqual(read, model) {
		return nil
	}
	return dst.Set(ctx, model)
}
