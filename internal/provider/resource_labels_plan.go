package provider

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

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
