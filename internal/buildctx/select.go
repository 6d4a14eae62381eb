package buildctx

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
)

// File is one entry of a context that a COPY source selects.
type File struct {
	// Rel is the slash-separated path relative to the context root.
	Rel string
	// Abs is the path on disk.
	Abs string
	// Info is what lstat reports for it (a symlink is not followed).
	Info fs.FileInfo
}

// Select returns the entries of dir that the COPY source src takes, honouring
// the .dockerignore at dir's root: the entries src names (a path, or a
// pattern with "*", "?", "**" and "[...]"), and for a directory everything
// below it. They are sorted by path, byte by byte, as the E2B SDKs order
// them. The root itself is never an entry. A source that selects nothing is
// an error naming it.
func Select(dir, src string) ([]File, error) {
	if err := checkDir(dir); err != nil {
		return nil, err
	}
	pattern := path.Clean(strings.TrimPrefix(src, "./"))
	if pattern == "." || pattern == "" {
		pattern = "**"
	}
	re, err := regexp.Compile(patternRegexp(pattern))
	if err != nil {
		return nil, fmt.Errorf("COPY source %q: %w", src, err)
	}
	sel := ignoreRule{re: re}
	var out []File
	err = walk(dir, func(e entry) error {
		if sel.matches(e.rel) {
			out = append(out, File{Rel: e.rel, Abs: e.abs, Info: e.info})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("COPY source %q matches no file of the build context %q (or .dockerignore excludes it)", src, dir)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	return out, nil
}

// WriteTarGz writes files as a gzipped tar, each under its Rel path, with
// owners reset to root and no parent directories added. A symlink is stored
// as a link.
func WriteTarGz(w io.Writer, files []File) error {
	zw := gzip.NewWriter(w)
	tw := tar.NewWriter(zw)
	for _, f := range files {
		if err := tarEntry(tw, entry{rel: f.Rel, abs: f.Abs, info: f.Info}); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}
