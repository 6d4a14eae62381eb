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

// reportedInt64 keeps a null (unconfigured) value null, takes the
// platform's value for a configured one, and keeps the configured value
// when the platform reports nothing (0).
func reportedInt64(prior types.Int64, reported int64, importing bool) types.Int64 {
	switch {
	case reported == 0:
		if prior.IsUnknown() {
			return types.Int64Null()
		}
		return prior
	case importing, !prior.IsNull():
		return types.Int64Value(reported)
	default:
		return prior
	}
}

// keepKnown returns planned unless it is unknown, else got.
func keepKnown(planned, got types.String) types.String {
	if planned.IsUnknown() {
		return got
	}
	return planned
}

// stringOrNull maps "" to null: platforms report "" for "not applicable" or
// "not reported", and a null result lets `!= null` tests work.
func stringOrNull(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// timeFromTF reads an RFC 3339 attribute; null, unknown or bad is the zero time.
func timeFromTF(v types.String) time.Time {
	if v.IsNull() || v.IsUnknown() {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339, v.ValueString())
	if err != nil {
		return time.Time{}
	}
	return t
}
