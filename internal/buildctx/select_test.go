package buildctx

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func selectRels(t *testing.T, dir, src string) []string {
	t.Helper()
	files, err := Select(dir, src)
	if err != nil {
		t.Fatalf("Select(%q): %v", src, err)
	}
	var out []string
	for _, f := range files {
		out = append(out, f.Rel)
	}
	return out
}

func TestSelect(t *testing.T) {
	dir := t.TempDir()
	buildctxTestWrite(t, dir, map[string]string{
		"a/b": "1", "a.txt": "2", "a/c/d.py": "3", "a/skip.log": "4", "b.txt": "5", ".dockerignore": "**/*.log\n",
	})
	tests := []struct {
		src  string
		want []string
	}{
		// Sorted byte by byte, as the SDKs do: "a.txt" before "a/...".
		{".", []string{".dockerignore", "a", "a.txt", "a/b", "a/c", "a/c/d.py", "b.txt"}},
		{"a", []string{"a", "a/b", "a/c", "a/c/d.py"}},
		{"./a/c/", []string{"a/c", "a/c/d.py"}},
		{"*.txt", []string{"a.txt", "b.txt"}},
		{"a/**/*.py", []string{"a/c/d.py"}},
		{"b.txt", []string{"b.txt"}},
	}
	for _, tt := range tests {
		if got := selectRels(t, dir, tt.src); !slices.Equal(got, tt.want) {
			t.Errorf("Select(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
	for _, src := range []string{"missing", "a/skip.log"} {
		if _, err := Select(dir, src); err == nil || !strings.Contains(err.Error(), src) {
			t.Errorf("Select(%q) error = %v, want one naming it", src, err)
		}
	}
}

func TestWriteTarGz(t *testing.T) {
	dir := t.TempDir()
	buildctxTestWrite(t, dir, map[string]string{"a/b": "hello", "c": "no"})
	if err := os.Symlink("b", filepath.Join(dir, "a", "link")); err != nil {
		t.Fatal(err)
	}
	files, err := Select(dir, "a")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteTarGz(&buf, files); err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(&buf)
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	tr := tar.NewReader(zr)
	var got []string
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(tr)
		got = append(got, hdr.Name+"="+string(body)+hdr.Linkname)
		if hdr.Uid != 0 || hdr.Gid != 0 {
			t.Errorf("%s owned by %d:%d, want root", hdr.Name, hdr.Uid, hdr.Gid)
		}
	}
	if want := []string{"a/=", "a/b=hello", "a/link=b"}; !slices.Equal(got, want) {
		t.Errorf("archive = %q, want %q", got, want)
	}
}
