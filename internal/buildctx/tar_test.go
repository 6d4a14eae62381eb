package buildctx

import (
	"archive/tar"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// buildctxTestReadTar returns name → content (or link target) of every
// entry, and the entries' names in archive order.
func buildctxTestReadTar(t *testing.T, r io.Reader) (map[string]string, map[string]*tar.Header, []string) {
	t.Helper()
	files := map[string]string{}
	headers := map[string]*tar.Header{}
	var order []string
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("reading tar: %v", err)
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if hdr.Typeflag == tar.TypeSymlink {
			body = []byte(hdr.Linkname)
		}
		files[hdr.Name] = string(body)
		headers[hdr.Name] = hdr
		order = append(order, hdr.Name)
	}
	return files, headers, order
}

func TestTar(t *testing.T) {
	dir := t.TempDir()
	buildctxTestWrite(t, dir, map[string]string{
		"agent":           "binary",
		"sub/file":        "content",
		".sbx.Dockerfile": "the user's own, replaced",
		"skip.tmp":        "ignored",
		"keep/a.tmp":      "brought back",
		".dockerignore":   "*.tmp\n!keep/a.tmp\n",
	})
	if err := os.Chmod(filepath.Join(dir, "agent"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub/file", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	rc, err := Tar(dir, map[string][]byte{DockerfileName: []byte("FROM scratch\n")})
	if err != nil {
		t.Fatal(err)
	}
	// Closing the archive's pipe only stops its writer; it never fails.
	defer func() { _ = rc.Close() }()
	files, headers, order := buildctxTestReadTar(t, rc)

	want := map[string]string{
		".dockerignore": "*.tmp\n!keep/a.tmp\n",
		"agent":         "binary",
		"keep/":         "",
		"keep/a.tmp":    "brought back",
		"link":          "sub/file",
		"sub/":          "",
		"sub/file":      "content",
		DockerfileName:  "FROM scratch\n",
	}
	for name, content := range want {
		got, ok := files[name]
		if !ok {
			t.Errorf("archive lacks %q; has %v", name, order)
			continue
		}
		if got != content {
			t.Errorf("%q = %q, want %q", name, got, content)
		}
	}
	for name := range files {
		if _, ok := want[name]; !ok {
			t.Errorf("archive has unexpected %q", name)
		}
	}
	if c := slices.Index(order, DockerfileName); c != len(order)-1 {
		t.Errorf("the injected Dockerfile is entry %d of %v; want it exactly once, last", c, order)
	}
	if m := headers["agent"].Mode & 0o777; m != 0o755 {
		t.Errorf("agent mode = %o, want 755", m)
	}
	if h := headers["sub/file"]; h.Uid != 0 || h.Gid != 0 || h.Uname != "" {
		t.Errorf("owner = %d:%d %q, want root", h.Uid, h.Gid, h.Uname)
	}
}

func TestTarNoContext(t *testing.T) {
	rc, err := Tar("", map[string][]byte{"Dockerfile": []byte("FROM x")})
	if err != nil {
		t.Fatal(err)
	}
	// Closing the archive's pipe only stops its writer; it never fails.
	defer func() { _ = rc.Close() }()
	files, _, _ := buildctxTestReadTar(t, rc)
	if len(files) != 1 || files["Dockerfile"] != "FROM x" {
		t.Errorf("archive = %v, want only the Dockerfile", files)
	}
}

func TestTarRejectsBadExtraNames(t *testing.T) {
	for _, name := range []string{"", "/abs", "../up", "a/../b", ".."} {
		if _, err := Tar("", map[string][]byte{name: nil}); err == nil {
			t.Errorf("extra name %q accepted", name)
		}
	}
}
