package fakeapi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSpecPath(t *testing.T) {
	shared := filepath.Join("..", "..", "..", "shared", "specs")
	cases := []struct {
		name string
		env  string
		file string
		want func(string) bool
	}{
		{"override directory", "/specs/here", miniFile, func(p string) bool { return p == "/specs/here/"+miniFile }},
		{"not in the shared copy: testdata", "", miniFile, func(p string) bool { return p == filepath.Join(TestdataDir(), miniFile) }},
		{"the shared copy when there is one", "", "e2b-openapi.yml", func(p string) bool {
			if _, err := os.Stat(filepath.Join(shared, "e2b-openapi.yml")); err != nil {
				return filepath.Base(filepath.Dir(p)) == "testdata"
			}
			return filepath.Base(filepath.Dir(p)) == "specs" && filepath.Base(filepath.Dir(filepath.Dir(p))) == "shared"
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(SpecsDirEnv, tc.env)
			s := &Spec{File: tc.file, Testdata: TestdataDir()}
			if got := s.Path(); !tc.want(got) {
				t.Fatalf("Path() = %s", got)
			}
		})
	}
}

// A document is loaded once, and one that cannot be read or is not valid
// OpenAPI is an error naming the platform and the file.
func TestSpecRouter(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "broken.yaml"), []byte("openapi: 3.0.3\ninfo: {}\npaths: {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, dir, file string
		mention         string // "" for success
	}{
		{"valid", "", miniFile, ""},
		{"missing", dir, "absent.yaml", "load Mini spec"},
		{"invalid", dir, "broken.yaml", "Mini spec " + filepath.Join(dir, "broken.yaml") + " is invalid"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(SpecsDirEnv, tc.dir)
			s := &Spec{Platform: "Mini", File: tc.file, Testdata: TestdataDir()}
			r1, err := s.Router()
			if tc.mention == "" {
				if err != nil {
					t.Fatal(err)
				}
				if r2, _ := s.Router(); r2 != r1 {
					t.Fatal("the document was loaded twice")
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.mention) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.mention)
			}
		})
	}
}

func TestCheckCopies(t *testing.T) {
	cases := []struct {
		name   string
		sum    string
		errors int
	}{
		{"the pinned checksum", miniSum, 0},
		{"another checksum: the copy and the file in use", strings.Repeat("0", 64), 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(SpecsDirEnv, "")
			rec := &recordingTB{TB: t}
			(&Spec{File: miniFile, SHA256: tc.sum, Testdata: TestdataDir()}).CheckCopies(rec)
			if errs := rec.recorded(); len(errs) != tc.errors {
				t.Fatalf("reported %q, want %d errors", errs, tc.errors)
			}
		})
	}
}
