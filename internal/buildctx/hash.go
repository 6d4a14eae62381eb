package buildctx

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"io/fs"
	"os"
)

// modeBits are the parts of a file mode that change what a build produces.
// Modification times, owners and the like are left out on purpose: touching
// a file must not look like a change.
const modeBits = fs.ModeType | fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// Hash returns a hex sha256 over the Dockerfile's content and every file of
// dir that the build would see: each entry's relative path, mode bits, and
// content (a symlink contributes its target text, not what it points to).
// The same inputs always give the same hash; a change in any file's content,
// mode or name, or an added or removed file, gives a different one.
//
// An empty dir means "no context": only the Dockerfile is hashed. A dir that
// is missing or not a directory is an error.
func Hash(dir string, dockerfile string) (string, error) {
	h := sha256.New()
	writeField(h, []byte("dockerfile"))
	writeField(h, []byte(dockerfile))
	if dir != "" {
		if err := checkDir(dir); err != nil {
			return "", err
		}
		if err := walk(dir, func(e entry) error { return hashEntry(h, e) }); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func hashEntry(h hash.Hash, e entry) error {
	writeField(h, []byte(e.rel))
	var mode [4]byte
	binary.BigEndian.PutUint32(mode[:], uint32(e.info.Mode()&modeBits))
	writeField(h, mode[:])
	switch {
	case e.info.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(e.abs)
		if err != nil {
			return fmt.Errorf("build context: %w", err)
		}
		writeField(h, []byte(target))
	case e.info.Mode().IsRegular():
		// Length-prefix the content, as writeField does, without holding
		// the file in memory.
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(e.info.Size()))
		h.Write(n[:])
		if err := (File{Rel: e.rel, Abs: e.abs, Info: e.info}).WriteContent(h); err != nil {
			return fmt.Errorf("build context: %w", err)
		}
	}
	return nil
}

// writeField writes b with its length first, so no two different sequences
// of fields hash the same (e.g. a name ending where content begins).
func writeField(h hash.Hash, b []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(b)))
	h.Write(n[:])
	h.Write(b)
}
