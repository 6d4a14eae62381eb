package e2bfake

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// filesHashPattern is what E2B accepts as a files hash (a hex sha256); any
// other hash is a 400 "Invalid files hash".
var filesHashPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// runStep plays one build step as E2B's builder does, far enough to fail
// where it would: a COPY step's layer is fetched by its files hash and
// unpacked with `tar -xz` (so it must be a gzipped tar), and the step's
// source must be in it; a RUN step whose command is `false` or `exit N`
// (N ≠ 0) fails as a failing command does. It returns the failure reason
// and the log lines the step printed, or "" when the step succeeds.
//
// The fake is stricter than E2B in one way: a layer holding files its
// step does not copy fails too (E2B's SDKs upload only the step's files;
// a client sending the whole context to every step would upload it again
// for every change).
func (s *Server) runStep(t *template, st step) (string, []string) {
	switch st.Type {
	case "COPY":
		return s.copyStep(t, st)
	case "RUN":
		if len(st.Args) == 0 {
			return "", nil
		}
		cmd := strings.TrimSpace(st.Args[0])
		code := 0
		switch {
		case cmd == "false":
			code = 1
		case strings.HasPrefix(cmd, "exit "):
			code, _ = strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(cmd, "exit ")))
		}
		if code != 0 {
			return fmt.Sprintf("failed to run command '%s': exit status %d", cmd, code), nil
		}
	}
	return "", nil
}

func (s *Server) copyStep(t *template, st step) (string, []string) {
	if st.FilesHash == "" {
		return "COPY requires files hash to be set", nil
	}
	data, present := t.layers[st.FilesHash]
	if !present {
		return fmt.Sprintf("failed to open files object from storage: files with hash %s were never uploaded", st.FilesHash), nil
	}
	if len(st.Args) < 2 {
		return "COPY requires a source and a target path", nil
	}
	entries, err := unpackLayer(data)
	if err != nil {
		return "failed to extract files: " + err.Error(), []string{"tar: " + err.Error()}
	}
	names := entryNames(entries)
	src := path.Clean(strings.TrimPrefix(st.Args[0], "./"))
	// E2B's builder copies the part of the source before its first glob
	// (the SDK matched the pattern when it chose the files).
	base := src
	if i := strings.IndexAny(src, "*?["); i >= 0 {
		base = path.Dir(src[:i] + "x")
	}
	if base != "." && !layerHas(names, base) {
		return "failed to copy files: Error: source path does not exist: " + st.Args[0], []string{"Error: source path does not exist: " + st.Args[0]}
	}
	for _, n := range names {
		if !underSource(n, src) && !parentOf(n, src) {
			return fmt.Sprintf("the layer uploaded for COPY %s (files hash %s) holds %s, which the step does not copy", st.Args[0], st.FilesHash, n), nil
		}
	}
	if sum, ok := sdkFilesHash(st.Args[0], st.Args[1], entries); ok && sum != st.FilesHash {
		return fmt.Sprintf("the layer uploaded under files hash %s holds files whose hash for COPY %s %s is %s: "+
			"the step's hash must be the SDKs' hash of the files it copies", st.FilesHash, st.Args[0], st.Args[1], sum), nil
	}
	return "", nil
}

// sdkFilesHash is the files hash E2B's SDKs give a COPY step of these
// files: sha256 over "COPY <src> <dest>", then per file in path order its
// relative path, st_mode and size in decimal, and its content (a symlink's
// target). A directory's size is what stat reports on the client's disk,
// which no archive records, so a layer holding directories is not checked
// (ok is false).
func sdkFilesHash(src, dest string, entries []layerEntry) (string, bool) {
	sorted := append([]layerEntry(nil), entries...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].name < sorted[j].name })
	h := sha256.New()
	_, _ = io.WriteString(h, "COPY "+src+" "+dest)
	for _, e := range sorted {
		mode := e.mode & 0o7777
		switch e.typeflag {
		case tar.TypeReg:
			mode |= 0o100000
		case tar.TypeSymlink:
			mode |= 0o120000
		default:
			return "", false
		}
		_, _ = io.WriteString(h, e.name)
		_, _ = io.WriteString(h, strconv.FormatInt(mode, 10))
		_, _ = io.WriteString(h, strconv.FormatInt(e.size, 10))
		_, _ = h.Write(e.content)
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// layerEntry is one entry of an uploaded layer.
type layerEntry struct {
	name     string
	typeflag byte
	mode     int64
	size     int64  // a symlink's: the length of its target, as lstat says
	content  []byte // a symlink's: its target
}

func entryNames(entries []layerEntry) []string {
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.name)
	}
	return names
}

// unpackLayer reads the entries of a gzipped tar, as `tar -xzvf` would
// extract them, or says why it cannot.
func unpackLayer(data []byte) ([]layerEntry, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("the layer is not gzip-compressed: %w", err)
	}
	tr := tar.NewReader(zr)
	var entries []layerEntry
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("the layer is not a tar archive: %w", err)
		}
		name := path.Clean(strings.TrimPrefix(hdr.Name, "./"))
		if path.IsAbs(hdr.Name) || name == ".." || strings.HasPrefix(name, "../") {
			return nil, fmt.Errorf("entry %s is outside the archive", hdr.Name)
		}
		content, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("the layer is truncated: %w", err)
		}
		e := layerEntry{name: name, typeflag: hdr.Typeflag, mode: hdr.Mode, size: hdr.Size, content: content}
		if hdr.Typeflag == tar.TypeSymlink {
			e.content, e.size = []byte(hdr.Linkname), int64(len(hdr.Linkname))
		}
		entries = append(entries, e)
	}
	if err := zr.Close(); err != nil {
		return nil, err
	}
	return entries, nil
}

func layerHas(names []string, p string) bool {
	for _, n := range names {
		if n == p || strings.HasPrefix(n, p+"/") {
			return true
		}
	}
	return false
}

// underSource reports whether the entry n is one the COPY source src
// takes: src itself, anything below it, or (for a pattern) what matches.
func underSource(n, src string) bool {
	if src == "." {
		return true
	}
	for p := n; ; {
		if p == src {
			return true
		}
		if ok, _ := path.Match(src, p); ok {
			return true
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return false
		}
		p = p[:i]
	}
}

// parentOf reports whether n is a directory above src (an archive may
// carry the parents of the files it holds).
func parentOf(n, src string) bool {
	return strings.HasPrefix(src, n+"/")
}
