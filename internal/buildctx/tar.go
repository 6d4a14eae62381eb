package buildctx

import (
	"archive/tar"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"time"
)

// Tar streams dir as a tar archive (the build context), plus extra files
// given by name and content, e.g. a Dockerfile under DockerfileName. An extra
// file replaces a file of dir with the same name. Owners are reset to root,
// as the engine expects. The archive is produced while it is read, so a large
// context is never held in memory; a read error from the returned reader
// reports any failure during the walk.
//
// An empty dir means "no context": only the extra files are sent. A dir that
// is missing or not a directory is an error, returned at once.
func Tar(dir string, extra map[string][]byte) (io.ReadCloser, error) {
	for name := range extra {
		if name == "" || path.IsAbs(name) || path.Clean(name) != name || strings.HasPrefix(name, "../") || name == ".." {
			return nil, fmt.Errorf("build context: extra file name %q must be a clean relative path", name)
		}
	}
	if dir != "" {
		if err := checkDir(dir); err != nil {
			return nil, err
		}
	}
	pr, pw := io.Pipe()
	go func() {
		pw.CloseWithError(writeTar(pw, dir, extra))
	}()
	return pr, nil
}

func writeTar(w io.Writer, dir string, extra map[string][]byte) error {
	tw := tar.NewWriter(w)
	if dir != "" {
		err := walk(dir, func(e entry) error {
			if _, replaced := extra[e.rel]; replaced {
				return nil
			}
			return tarEntry(tw, e)
		})
		if err != nil {
			return err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(extra)) {
		body := extra[name]
		hdr := &tar.Header{
			Typeflag: tar.TypeReg,
			Name:     name,
			Mode:     0o644,
			Size:     int64(len(body)),
			ModTime:  time.Unix(0, 0), // fixed, so the archive depends only on content
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := tw.Write(body); err != nil {
			return err
		}
	}
	return tw.Close()
}

func tarEntry(tw *tar.Writer, e entry) error {
	link := ""
	if e.info.Mode()&fs.ModeSymlink != 0 {
		target, err := os.Readlink(e.abs)
		if err != nil {
			return fmt.Errorf("build context: %w", err)
		}
		link = target
	}
	hdr, err := tar.FileInfoHeader(e.info, link)
	if err != nil {
		return fmt.Errorf("build context: %s: %w", e.rel, err)
	}
	hdr.Name = e.rel
	if e.info.IsDir() {
		hdr.Name += "/"
	}
	hdr.Uid, hdr.Gid, hdr.Uname, hdr.Gname = 0, 0, "", ""
	hdr.Format = tar.FormatPAX // long names and large files
	if err := tw.WriteHeader(hdr); err != nil {
		return fmt.Errorf("build context: %s: %w", e.rel, err)
	}
	if !e.info.Mode().IsRegular() {
		return nil
	}
	f, err := os.Open(e.abs)
	if err != nil {
		return fmt.Errorf("build context: %w", err)
	}
	// Opened read-only: a close error cannot lose data.
	defer func() { _ = f.Close() }()
	// Copy exactly the size the header announced; a file that shrank or
	// grew meanwhile would otherwise corrupt the archive.
	if _, err := io.CopyN(tw, f, hdr.Size); err != nil {
		return fmt.Errorf("build context: %s changed while it was read: %w", e.rel, err)
	}
	return nil
}
