package daytonafake

import "testing"

// The fallback copy in testdata, and the spec actually in use, are the
// official file byte for byte.
func TestSpecCopyIsTheOfficialFile(t *testing.T) {
	spec.CheckCopies(t)
}
