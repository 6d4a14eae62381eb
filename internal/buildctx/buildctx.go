// Package buildctx turns a local directory into what a container image build
// needs: a stable content hash (so a change in any file is visible in a plan)
// and a streaming tar of the files (the build context sent to the engine).
//
// Both walk the directory the same way: sorted by path, honouring a
// .dockerignore at the directory's root with a simplified version of
// Docker's rules (see ignore.go), so a file the build never sees never
// changes the hash either. Sockets, named pipes and device files are skipped:
// a build cannot COPY them.
package buildctx

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// DockerfileName is the reserved name callers inject a Dockerfile under with
// Tar, so it never clashes with a file of the user's context.
const DockerfileName = ".sbx.Dockerfile"

// entry is one file, directory or symlink of a context, as both the hash and
// the tar see it.
type entry struct {
	rel  string // slash-separated path relative to the context root
	abs  string
	info fs.FileInfo
}

// checkDir says clearly why dir cannot be a build context.
func checkDir(dir string) error {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("build context %q does not exist", dir)
	case err != nil:
		return fmt.Errorf("build context %q: %w", dir, err)
	case !info.IsDir():
		return fmt.Errorf("build context %q is not a directory", dir)
	}
	return nil
}

// walk calls fn for every entry of dir that .dockerignore does not exclude,
// in lexical path order. The root itself is not an entry.
func walk(dir string, fn func(entry) error) error {
	rules, err := readIgnore(dir)
	if err != nil {
		return err
	}
	return filepath.WalkDir(dir, func(abs string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("build context %q: %w", dir, err)
		}
		if abs == dir {
			return nil
		}
		rel, err := filepath.Rel(dir, abs)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rules.excluded(rel) {
			// A later "!pattern" may bring back something inside an
			// excluded directory, so only skip the subtree when no
			// exception exists.
			if d.IsDir() && !rules.hasExceptions() {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return fmt.Errorf("build context %q: %w", dir, err)
		}
		if !supported(info.Mode()) {
			return nil
		}
		return fn(entry{rel: rel, abs: abs, info: info})
	})
}

// supported reports whether a build can use a file of this type.
func supported(m fs.FileMode) bool {
	return m.IsRegular() || m.IsDir() || m&fs.ModeSymlink != 0
}
