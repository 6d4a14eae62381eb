package flyfake

import "testing"

// The fallback copy in testdata, and the spec actually in use, are the
// official file byte for byte.
func TestSpecCopyIsTheOfficialFile(t *testing.T) {
	spec.CheckCopies(t)
}

// kin-openapi loads and checks the document with examples unchecked (see
// spec.go): the only relaxation the file needs.
func TestSpecLoads(t *testing.T) {
	if _, err := spec.Router(); err != nil {
		t.Fatal(err)
	}
}
