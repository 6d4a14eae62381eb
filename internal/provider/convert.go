package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// mapFromTF turns a Terraform map of strings into a Go map; null and unknown become nil.
func mapFromTF(ctx context.Context, m types.Map, diags *diag.Diagnostics) map[string]string {
	if m.IsNull() || m.IsUnknown() {
		return nil
	}
	out := make(map[string]string, len(m.Elements()))
	diags.Append(m.ElementsAs(ctx, &out, false)...)
	return out
}

// mapToTF turns a Go map into a Terraform map of strings. An empty map
// becomes null when the configuration left the attribute out (prior is null),
// so an unset labels attribute never shows a diff against {}.
func mapToTF(in map[string]string, prior types.Map) types.Map {
	if len(in) == 0 && prior.IsNull() {
		return types.MapNull(types.StringType)
	}
	v, _ := types.MapValueFrom(context.Background(), types.StringType, in)
	return v
}

// timeStringOrNull renders a platform timestamp as RFC 3339 (UTC); the zero
// time, which platforms use for "never" or "not reported", becomes null.
func timeStringOrNull(t time.Time) types.String {
	if t.IsZero() {
		return types.StringNull()
	}
	return types.StringValue(t.UTC().Format(time.RFC3339))
}

// mapsSame reports whether two planned or stored maps ask for the same
// thing: null (left out) and a known empty map both mean "none", so moving
// between them (`labels = var.labels` with a default of {}, or an import,
// which cannot tell them apart) changes nothing on the platform and must
// neither replace nor rebuild anything.
func mapsSame(a, b types.Map) bool {
	empty := func(m types.Map) bool { return m.IsNull() || (!m.IsUnknown() && len(m.Elements()) == 0) }
	if empty(a) && empty(b) {
		return true
	}
	return a.Equal(b)
}
