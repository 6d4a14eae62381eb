package e2b

import (
	"context"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestVolumeNameRule: E2B volume names are letters, digits, '_' and '-';
// any other name is a problem on name, suggesting one E2B takes.
func TestVolumeNameRule(t *testing.T) {
	cases := []struct{ name, want string }{
		{"data.v1", `Use a name such as "data-v1".`},
		{"a.b.c", `"a-b-c"`},
		{"data_v-1", ""},
		{"Data9", ""},
		{"", ""}, // unknown at plan time, or the schema's to refuse
	}
	for _, tc := range cases {
		problems := volumeRules{}.CheckVolume(context.Background(), platform.VolumeSpec{Name: tc.name})
		switch {
		case tc.want == "" && len(problems) != 0:
			t.Errorf("%q: problems %+v, want none", tc.name, problems)
		case tc.want != "" && (len(problems) != 1 || problems[0].Attribute != "name" || !strings.Contains(problems[0].Detail, tc.want)):
			t.Errorf("%q: problems %+v, want one on name saying %q", tc.name, problems, tc.want)
		}
	}
}
