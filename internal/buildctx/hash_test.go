package buildctx

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// buildctxTestWrite writes files (path → content) under dir with mode 0644.
func buildctxTestWrite(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func buildctxTestHash(t *testing.T, dir, dockerfile string) string {
	t.Helper()
	h, err := Hash(dir, dockerfile)
	if err != nil {
		t.Fatalf("Hash: %v", err)
	}
	return h
}

func TestHashChanges(t *testing.T) {
	base := map[string]string{"agent": "binary", "etc/config": "a=1", "etc/other": "b=2"}
	const dockerfile = "FROM scratch\nCOPY agent /agent\n"
	tests := []struct {
		name       string
		change     func(t *testing.T, dir string)
		dockerfile string
		wantSame   bool
	}{
		{name: "nothing changed", change: func(*testing.T, string) {}, wantSame: true},
		{name: "mtime only", wantSame: true, change: func(t *testing.T, dir string) {
			other := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
			if err := os.Chtimes(filepath.Join(dir, "agent"), other, other); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "content", change: func(t *testing.T, dir string) {
			buildctxTestWrite(t, dir, map[string]string{"etc/config": "a=2"})
		}},
		{name: "mode", change: func(t *testing.T, dir string) {
			if err := os.Chmod(filepath.Join(dir, "agent"), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "rename", change: func(t *testing.T, dir string) {
			if err := os.Rename(filepath.Join(dir, "etc/other"), filepath.Join(dir, "etc/other2")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "file added", change: func(t *testing.T, dir string) {
			buildctxTestWrite(t, dir, map[string]string{"new": ""})
		}},
		{name: "empty directory added", change: func(t *testing.T, dir string) {
			if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "file removed", change: func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "etc/other")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "content moved between files", change: func(t *testing.T, dir string) {
			// Same bytes overall, different split: length prefixes must tell them apart.
			buildctxTestWrite(t, dir, map[string]string{"etc/config": "a=1b", "etc/other": "=2"})
		}},
		{name: "symlink added", change: func(t *testing.T, dir string) {
			if err := os.Symlink("etc/config", filepath.Join(dir, "link")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "different dockerfile", dockerfile: dockerfile + "CMD [\"/agent\"]\n", change: func(*testing.T, string) {}},
		{name: "ignored file added", wantSame: true, change: func(t *testing.T, dir string) {
			// The base context has a .dockerignore excluding *.log (set below).
			buildctxTestWrite(t, dir, map[string]string{"debug.log": "noise", "etc/x.log": "noise"})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			buildctxTestWrite(t, dir, base)
			buildctxTestWrite(t, dir, map[string]string{".dockerignore": "*.log\n**/*.log\n"})
			before := buildctxTestHash(t, dir, dockerfile)
			tt.change(t, dir)
			df := dockerfile
			if tt.dockerfile != "" {
				df = tt.dockerfile
			}
			after := buildctxTestHash(t, dir, df)
			if (before == after) != tt.wantSame {
				t.Errorf("hash before %s, after %s; want same=%v", before, after, tt.wantSame)
			}
		})
	}
}

func TestHashSymlinkTarget(t *testing.T) {
	dir := t.TempDir()
	buildctxTestWrite(t, dir, map[string]string{"a": "1", "b": "2"})
	if err := os.Symlink("a", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	first := buildctxTestHash(t, dir, "")
	// Changing what the link points at (not the link) must not matter:
	// the link is hashed by its target text.
	buildctxTestWrite(t, dir, map[string]string{"a": "changed"})
	withA := buildctxTestHash(t, dir, "")
	if err := os.Remove(filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("b", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	retargeted := buildctxTestHash(t, dir, "")
	if first == withA {
		t.Error("changing a file's content did not change the hash")
	}
	if retargeted == withA {
		t.Error("changing a symlink's target did not change the hash")
	}
}

func TestHashStable(t *testing.T) {
	dir := t.TempDir()
	buildctxTestWrite(t, dir, map[string]string{"z": "1", "a/b/c": "2", "m": "3"})
	first := buildctxTestHash(t, dir, "FROM scratch")
	for range 5 {
		if got := buildctxTestHash(t, dir, "FROM scratch"); got != first {
			t.Fatalf("hash changed between calls: %s then %s", first, got)
		}
	}
	// The same tree somewhere else hashes the same: the path of dir is not part of it.
	other := t.TempDir()
	buildctxTestWrite(t, other, map[string]string{"m": "3", "a/b/c": "2", "z": "1"})
	if got := buildctxTestHash(t, other, "FROM scratch"); got != first {
		t.Errorf("same tree in another directory hashed %s, want %s", got, first)
	}
	if len(first) != 64 {
		t.Errorf("hash %q is not hex sha256", first)
	}
}

func TestHashNoContext(t *testing.T) {
	a := buildctxTestHash(t, "", "FROM scratch")
	b := buildctxTestHash(t, "", "FROM busybox")
	if a == b {
		t.Error("different Dockerfiles without a context hashed the same")
	}
}

func TestBadContextDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	buildctxTestWrite(t, dir, map[string]string{"file": "x"})
	tests := []struct {
		name, dir, want string
	}{
		{"missing", filepath.Join(dir, "nope"), "does not exist"},
		{"not a directory", file, "is not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Hash(tt.dir, ""); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Hash error = %v, want it to say %q", err, tt.want)
			}
			if _, err := Tar(tt.dir, nil); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Tar error = %v, want it to say %q", err, tt.want)
			}
		})
	}
}
