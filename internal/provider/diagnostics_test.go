package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestValueForMessage(t *testing.T) {
	cases := []struct {
		in   attr.Value
		want string
	}{
		{types.StringValue(`a"b`), `"a\"b"`},
		{types.StringNull(), `""`},
		{types.Int64Value(7), "7"},
		{types.StringUnknown(), "(known after apply)"},
		{types.Int64Unknown(), "(known after apply)"},
		{types.BoolValue(true), "true"},
	}
	for _, tc := range cases {
		if got := valueForMessage(tc.in); got != tc.want {
			t.Errorf("valueForMessage(%s) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
