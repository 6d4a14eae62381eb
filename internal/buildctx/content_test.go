package buildctx

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteContent(t *testing.T) {
	dir := t.TempDir()
	buildctxTestWrite(t, dir, map[string]string{"a.txt": "hello", "sub/b.txt": "x", "grows.txt": "12"})
	if err := os.Symlink("sub/b.txt", filepath.Join(dir, "link")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	lstat := func(rel string) File {
		t.Helper()
		abs := filepath.Join(dir, rel)
		info, err := os.Lstat(abs)
		if err != nil {
			t.Fatal(err)
		}
		return File{Rel: rel, Abs: abs, Info: info}
	}
	grows := lstat("grows.txt")
	if err := os.WriteFile(grows.Abs, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	gone := lstat("a.txt")
	gone.Abs = filepath.Join(dir, "missing")

	tests := []struct {
		name    string
		file    File
		want    string
		wantErr string // "" when no error is expected
	}{
		{name: "regular file", file: lstat("a.txt"), want: "hello"},
		{name: "symlink target, not followed", file: lstat("link"), want: "sub/b.txt"},
		{name: "directory", file: lstat("sub"), want: ""},
		{name: "changed while read", file: grows, wantErr: "grows.txt changed while it was read"},
		{name: "missing", file: gone, wantErr: "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := tt.file.WriteContent(&buf)
			switch {
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("WriteContent = %v, want an error containing %q", err, tt.wantErr)
				}
			case err != nil:
				t.Errorf("WriteContent = %v", err)
			case buf.String() != tt.want:
				t.Errorf("WriteContent wrote %q, want %q", buf.String(), tt.want)
			}
		})
	}
}
