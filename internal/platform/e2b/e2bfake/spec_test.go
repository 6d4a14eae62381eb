package e2bfake

import (
	"os"
	"path/filepath"
	"testing"
)

func TestE2BFakeSpecPath(t *testing.T) {
	cases := []struct {
		name string
		env  string
		want func(string) bool
	}{
		{"override directory", "/specs/here", func(p string) bool { return p == "/specs/here/e2b-openapi.yml" }},
		{"the shared copy next to the repository, else the testdata copy", "", func(p string) bool {
			if _, err := os.Stat(p); err != nil {
				return false
			}
			inShared := filepath.Base(filepath.Dir(p)) == "specs" && filepath.Base(filepath.Dir(filepath.Dir(p))) == "shared"
			if _, err := os.Stat(filepath.Join("..", "..", "..", "..", "..", "shared", "specs", SpecFile)); err == nil {
				return inShared
			}
			return filepath.Base(filepath.Dir(p)) == "testdata"
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("SBX_SPECS_DIR", tc.env)
			if got := SpecPath(); !tc.want(got) {
				t.Fatalf("SpecPath() = %s", got)
			}
		})
	}
}
