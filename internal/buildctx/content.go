package buildctx

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// WriteContent writes f's content to w as the platforms' SDKs read it for
// a context hash or an archive: a symlink's target text (the link is not
// followed), a regular file's bytes, nothing for a directory. A file whose
// size is no longer the one Info recorded changed while it was read, and
// is an error: the hash or archive would not match what was listed.
func (f File) WriteContent(w io.Writer) error {
	switch {
	case f.Info.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(f.Abs)
		if err != nil {
			return err
		}
		_, err = io.WriteString(w, target)
		return err
	case f.Info.Mode().IsRegular():
		r, err := os.Open(f.Abs)
		if err != nil {
			return err
		}
		// Opened read-only: a close error cannot lose data.
		defer func() { _ = r.Close() }()
		n, err := io.Copy(w, r)
		if err != nil {
			return fmt.Errorf("reading %s: %w", f.Rel, err)
		}
		if n != f.Info.Size() {
			return fmt.Errorf("%s changed while it was read", f.Rel)
		}
	}
	return nil
}
