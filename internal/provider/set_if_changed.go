package provider

import (
	"context"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
)

// setStateIfChanged and setPlanIfChanged write model only when it differs
// from read, the model as read from the same state or plan. Writing back
// what was read would leave the object as it is, and even a layout-cached
// write (setModel) converts every attribute: at scale most refreshes and
// plans change nothing. reflect.DeepEqual errs only toward "changed" (a
// NaN, a func), which writes as before.
func setStateIfChanged[M any](ctx context.Context, s *tfsdk.State, read, model M) diag.Diagnostics {
	if reflect.DeepEqual(read, model) {
		return nil
	}
	return setState(ctx, s, model)
}

func setPlanIfChanged[M any](ctx context.Context, p *tfsdk.Plan, read, model M) diag.Diagnostics {
	if reflect.DeepEqual(read, model) {
		return nil
	}
	return setPlan(ctx, p, model)
}
