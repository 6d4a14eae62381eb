package fakeapi

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// CheckCopies fails t unless the fallback copy in Testdata, and the file
// actually in use, are the official file byte for byte: a copy can then
// never drift from the document it stands for.
func (s *Spec) CheckCopies(t testing.TB) {
	t.Helper()
	for _, path := range []string{filepath.Join(s.Testdata, s.File), s.Path()} {
		if err := s.checkSum(path); err != nil {
			t.Errorf("%v", err)
		}
	}
}

func (s *Spec) checkSum(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != s.SHA256 {
		return fmt.Errorf("%s has sha256 %s, want the official file's %s", path, got, s.SHA256)
	}
	return nil
}
