package platformtest

import "testing"

// ResourceHCL puts the value before or after into the body, then the
// timeouts block; a body without %s stays as it is.
func TestResourceHCL(t *testing.T) {
	cases := []struct {
		name           string
		format, b, a   string
		updated        bool
		timeouts, want string
	}{
		{"before", "  size = %s", "1", "2", false, "", "resource \"sbx_volume\" \"v\" {\n  size = 1\n}\n"},
		{"after, with timeouts", "  size = %s", "1", "2", true, "\n  timeouts {\n    update = \"3s\"\n  }\n",
			"resource \"sbx_volume\" \"v\" {\n  size = 2\n\n  timeouts {\n    update = \"3s\"\n  }\n}\n"},
		{"fixed body", `  name = "x"`, "", "", true, "", "resource \"sbx_volume\" \"v\" {\n  name = \"x\"\n}\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := ResourceHCL("sbx_volume", "v", tc.format, tc.b, tc.a)(tc.updated, tc.timeouts); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
