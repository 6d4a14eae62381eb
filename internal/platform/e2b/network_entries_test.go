package e2b

import (
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestAllowOutEntryMustBeAnAddressOrHostName: an allow_out entry that is
// neither an IP address, a CIDR block nor a host name is a problem naming
// it, whether or not the box has internet (E2B would take it for a host
// name that never matches, or refuse it as a name beside the internet).
func TestAllowOutEntryMustBeAnAddressOrHostName(t *testing.T) {
	off, on := false, true
	cases := []struct {
		entry    string
		internet *bool
		want     []string // parts of the one problem's detail; none: no problem
	}{
		{"10.0.0.0/33", &off, []string{`allow_out entry "10.0.0.0/33" is not a valid IP address, CIDR block or host name`, "/33 is not a prefix length"}},
		{"10.0.0.0/33", &on, []string{`allow_out entry "10.0.0.0/33" is not a valid IP address, CIDR block or host name`}},
		{"999.1.1.1", &off, []string{`allow_out entry "999.1.1.1" is not a valid IP address`, "it is not an IP address"}},
		{"999.1.1.1", nil, []string{`allow_out entry "999.1.1.1" is not a valid IP address`}},
		{"300.0.0.0/8", &off, []string{`"300.0.0.0" is not an IP address`}},
		{"exa mple.com", &off, []string{`allow_out entry "exa mple.com"`, "labels of letters, digits and '-'"}},
		{"-bad.example.com", &off, []string{`allow_out entry "-bad.example.com"`}},
		{"10.0.0.0/8", &off, nil},
		{"10.0.0.1", &on, nil},
		{"2001:db8::/32", &off, nil},
		{"example.com", &off, nil},
		{"*.example.com", &off, nil},
		{"api-1.example.io", &off, nil},
	}
	for _, tc := range cases {
		problems := networkProblems(&platform.Network{Internet: tc.internet, AllowOut: []string{tc.entry}})
		if tc.want == nil {
			if len(problems) != 0 {
				t.Errorf("%q: problems %+v, want none", tc.entry, problems)
			}
			continue
		}
		if len(problems) != 1 {
			t.Errorf("%q (internet %v): %d problems %+v, want one", tc.entry, tc.internet, len(problems), problems)
			continue
		}
		if p := problems[0]; p.Attribute != "network" || p.Field != "allow_out" {
			t.Errorf("%q: the problem is on %s.%s, want network.allow_out", tc.entry, p.Attribute, p.Field)
		}
		for _, part := range tc.want {
			if !strings.Contains(problems[0].Detail, part) {
				t.Errorf("%q: detail %q lacks %q", tc.entry, problems[0].Detail, part)
			}
		}
	}
}
