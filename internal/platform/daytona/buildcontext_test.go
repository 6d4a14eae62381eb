package daytona

import (
	"crypto/md5" //nolint:gosec // the SDKs' context hash
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
)

// TestContextHash: a part's hash is the SDKs' (object_storage.go
// computeHashForPath): MD5 over each entry's archive path and a newline,
// then a file's content, in walk order (a directory before what it holds,
// "a/b" before "a-b").
func TestContextHash(t *testing.T) {
	dir := t.TempDir()
	for p, c := range map[string]string{"src/a/b": "B", "src/a-b": "AB", "other": "no"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	parts, err := contextParts(dir, "FROM alpine:3.20\nCOPY src /src\nCOPY src /again\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 1 {
		t.Fatalf("%d parts, want 1 (the same files twice)", len(parts))
	}
	h := md5.New() //nolint:gosec // see the import
	for _, s := range []string{"src\n", "src/a\n", "src/a/b\n", "B", "src/a-b\n", "AB"} {
		h.Write([]byte(s))
	}
	if want := hex.EncodeToString(h.Sum(nil)); parts[0].hash != want {
		t.Errorf("hash %s, want %s", parts[0].hash, want)
	}
	if _, err := contextParts("", "FROM alpine:3.20\nCOPY x /x\n"); err == nil {
		t.Error("a COPY without context_dir was accepted")
	}
	if _, err := contextParts(dir, "FROM alpine:3.20\nCOPY missing /x\n"); err == nil {
		t.Error("a missing source was accepted")
	}
}
