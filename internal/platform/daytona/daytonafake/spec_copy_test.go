package daytonafake

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
)

// The fallback copy in testdata, and the spec actually in use, are the
// official file byte for byte.
func TestSpecCopyIsTheOfficialFile(t *testing.T) {
	for _, path := range []string{filepath.Join("testdata", SpecFile), SpecPath()} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("reading %s: %v", path, err)
		}
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != specSHA256 {
			t.Errorf("%s has sha256 %s, want the official file's %s", path, got, specSHA256)
		}
	}
}
