package provider

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// labelsCheckSupported is the plan-time error for labels on an object the
// platform cannot label (E2B volumes, snapshots and templates have a name
// and nothing else). An empty map asks for nothing and passes; a wholly
// unknown map is left to the apply, which refuses it if it turns out non-empty.
func labelsCheckSupported(diags *diag.Diagnostics, labels types.Map, supported bool, platformName, object, instead string) {
	if supported || labels.IsNull() || labels.IsUnknown() || len(labels.Elements()) == 0 {
		return
	}
	addUnsupportedError(diags, path.Root("labels"), labelsValueString(labels), platformName,
		fmt.Sprintf("%s carry no labels on this platform; remove labels%s", object, instead))
}

// labelsValueString renders a labels map for a diagnostic, keys sorted.
func labelsValueString(m types.Map) string {
	elems := m.Elements()
	keys := make([]string, 0, len(elems))
	for k := range elems {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		v := "(known after apply)"
		if s, ok := elems[k].(types.String); ok && !s.IsUnknown() && !s.IsNull() {
			v = strconv.Quote(s.ValueString())
		}
		parts = append(parts, fmt.Sprintf("%s = %s", k, v))
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}
