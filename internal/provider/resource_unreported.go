package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// An imported object's attributes are read back where the platform reports
// them. Where its attribute table says it does not (Unreported: a box's env
// on a platform that keeps no record of it), the import leaves the
// attribute null in state, and a configuration setting it would plan a
// replacement: a new object, the imported one deleted. What the platform
// cannot report is taken from the configuration instead:
//   - the first Read after the import records, in private state, which
//     Unreported attributes it left null (privateKeyUnreported);
//   - the plan records the configured values in place, with a warning,
//     instead of replacing;
//   - the apply writes them to state without calling the platform and
//     drops the record.
// An object whose values were recorded, or that the provider made (a create
// starts with no private state), plans changes as usual.

// privateKeyUnreported lists, as JSON, the attribute table keys an import
// left null because the platform does not report them (for any object of
// the kind, or for this one): null means "not known", not "none".
const privateKeyUnreported = "unreported"

// privateKeyEnvUnreported is the record of earlier provider versions, which
// tracked env only; it is still read so their imports keep their meaning.
const privateKeyEnvUnreported = "env_unreported"

// privateState is the part of the framework's private state a resource reads.
type privateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// privateStateWriter is the part of the framework's private state a resource writes.
type privateStateWriter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// unreportedAfterImport returns the keys of attrs whose value the import
// left null and that the platform does not report: for any object (the
// row is Unreported) or for this one (unreported, what the read said it
// could not report for this object: one made outside the provider).
func unreportedAfterImport(table platform.Attributes, attrs []plannedAttribute, unreported []string) []string {
	var out []string
	for _, a := range attrs {
		notReported := table.Get(a.key).Unreported || slices.Contains(unreported, a.key)
		if notReported && (a.plan == nil || a.plan.IsNull()) && !slices.Contains(out, a.key) {
			out = append(out, a.key)
		}
	}
	return out
}

// readUnreported returns the recorded keys.
func readUnreported(ctx context.Context, private privateState, diags *diag.Diagnostics) []string {
	raw, d := private.GetKey(ctx, privateKeyUnreported)
	diags.Append(d...)
	var keys []string
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &keys); err != nil {
			diags.AddError("Unreadable private state",
				fmt.Sprintf("The record of attributes the platform does not report is not valid (%s). This is a bug in the provider; please report it.", err))
		}
	}
	legacy, d := private.GetKey(ctx, privateKeyEnvUnreported)
	diags.Append(d...)
	if len(legacy) > 0 && !slices.Contains(keys, platform.AttrSandboxEnv) {
		keys = append(keys, platform.AttrSandboxEnv)
	}
	return keys
}

// writeUnreported records keys (none clears the record).
func writeUnreported(ctx context.Context, private privateStateWriter, keys []string, diags *diag.Diagnostics) {
	var raw []byte
	if len(keys) > 0 {
		var err error
		if raw, err = json.Marshal(keys); err != nil {
			diags.AddError("Cannot record unreported attributes", err.Error())
			return
		}
	}
	diags.Append(private.SetKey(ctx, privateKeyUnreported, raw)...)
	diags.Append(private.SetKey(ctx, privateKeyEnvUnreported, nil)...)
}

// unreportedTaken returns the recorded keys whose configured value now
// differs from the null an import left: the values the plan takes from the
// configuration.
func unreportedTaken(recorded []string, attrs []plannedAttribute) []string {
	var out []string
	for _, a := range attrs {
		if a.prior != nil && a.prior.IsNull() && slices.Contains(recorded, a.key) && attributeSet(a.plan) &&
			!slices.Contains(out, a.key) {
			out = append(out, a.key)
		}
	}
	return out
}

// planUnreportedFromConfig makes the taken attributes no change (their
// prior becomes the configured value) and warns, naming the attributes but
// never a value (env values are secrets).
func planUnreportedFromConfig(attrs []plannedAttribute, taken []string, platformName, kind, title, id string, diags *diag.Diagnostics) {
	if len(taken) == 0 {
		return
	}
	names := make([]string, 0, len(taken))
	for i := range attrs {
		if slices.Contains(taken, attrs[i].key) {
			attrs[i].prior = attrs[i].plan
		}
	}
	for _, k := range taken {
		names = append(names, platform.AttrName(k))
	}
	list := strings.Join(names, ", ")
	diags.AddAttributeWarning(attrPathOf(attrs, taken[0]), fmt.Sprintf("%s %s taken from the configuration", title, list),
		fmt.Sprintf("%s does not report the %s of imported %s %s (for any %s, or for one made outside the provider), "+
			"so it cannot be read back. "+
			"The configured value is recorded as the %s's, in place: the %s is kept, not replaced, and keeps what it "+
			"was created with. Once recorded, a change replaces or updates it as usual.",
			platformName, list, kind, id, kind, kind, kind))
}

// attrPathOf is the path of the attribute with key in attrs.
func attrPathOf(attrs []plannedAttribute, key string) path.Path {
	for _, a := range attrs {
		if a.key == key {
			return a.path
		}
	}
	return attrs[0].path
}
