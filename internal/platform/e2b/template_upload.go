package e2b

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"strconv"

	"github.com/sbxhq/terraform-provider-sbx/internal/buildctx"
)

// copyLayer is the files one COPY step takes from the build context: E2B
// keeps each step's files as a layer of their own, keyed by the step's
// files hash, so a changed file uploads only the layers that hold it.
type copyLayer struct {
	step  int // index into the build's steps
	src   string
	hash  string
	files []buildctx.File
}

// copyLayers selects, for every COPY step of steps, the files it copies
// from contextDir (honouring .dockerignore) and sets the step's FilesHash.
func copyLayers(contextDir string, steps []templateStep) ([]copyLayer, error) {
	var layers []copyLayer
	for i := range steps {
		st := &steps[i]
		if st.Type != stepCopy {
			continue
		}
		if contextDir == "" {
			return nil, fmt.Errorf("the Dockerfile copies files (step %d: COPY %s) but context_dir is not set", i+1, st.Args[0])
		}
		src, dest := st.Args[0], st.Args[1]
		files, err := buildctx.Select(contextDir, src)
		if err != nil {
			return nil, fmt.Errorf("step %d (COPY %s %s): %w", i+1, src, dest, err)
		}
		hash, err := copyFilesHash(src, dest, files)
		if err != nil {
			return nil, fmt.Errorf("step %d (COPY %s %s): %w", i+1, src, dest, err)
		}
		st.FilesHash = hash
		layers = append(layers, copyLayer{step: i, src: src, hash: hash, files: files})
	}
	return layers, nil
}

// copyFilesHash is the files hash of a COPY step as E2B's SDKs compute it:
// sha256 over the text "COPY <src> <dest>", then, for every file in path
// order, its relative path, its mode and size (decimal, as stat reports
// them) and its content (a symlink's target text; nothing for a
// directory). Owners and times are left out, so the hash is stable across
// machines for the same files.
func copyFilesHash(src, dest string, files []buildctx.File) (string, error) {
	h := sha256.New()
	_, _ = io.WriteString(h, "COPY "+src+" "+dest)
	for _, f := range files {
		_, _ = io.WriteString(h, f.Rel)
		_, _ = io.WriteString(h, strconv.FormatUint(uint64(unixMode(f.Info.Mode())), 10))
		_, _ = io.WriteString(h, strconv.FormatInt(f.Info.Size(), 10))
		if err := f.WriteContent(h); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// unixMode is st_mode for m: the file type bits and the permissions, as
// stat(2) (and so Node's fs.Stats.mode) reports them.
func unixMode(m fs.FileMode) uint32 {
	const (
		sIFREG = 0o100000
		sIFDIR = 0o040000
		sIFLNK = 0o120000
	)
	out := uint32(m.Perm())
	switch {
	case m&fs.ModeSymlink != 0:
		out |= sIFLNK
	case m.IsDir():
		out |= sIFDIR
	case m.IsRegular():
		out |= sIFREG
	}
	if m&fs.ModeSetuid != 0 {
		out |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		out |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		out |= 0o1000
	}
	return out
}

// uploadLayers asks E2B, for every distinct files hash of the build, where
// to upload its layer, and uploads the layers E2B does not hold yet.
func (t *templates) uploadLayers(ctx context.Context, templateID string, layers []copyLayer) error {
	done := map[string]bool{}
	for _, l := range layers {
		if done[l.hash] {
			continue
		}
		done[l.hash] = true
		var up templateFileUpload
		if _, err := t.p.do(ctx, "GET", "/templates/"+pathID(templateID)+"/files/"+pathID(l.hash), nil, nil, &up); err != nil {
			return fmt.Errorf("asking where to upload the files of step %d (COPY %s): %w", l.step+1, l.src, err)
		}
		if up.Present {
			continue
		}
		if up.URL == "" {
			return fmt.Errorf("E2B gave no upload URL for the files of step %d (COPY %s)", l.step+1, l.src)
		}
		if err := t.p.uploadLayer(ctx, up.URL, l.files); err != nil {
			return fmt.Errorf("uploading the files of step %d (COPY %s): %w", l.step+1, l.src, err)
		}
	}
	return nil
}

// uploadLayer PUTs files as a gzipped tar to a signed upload URL. The
// archive is spooled to a temporary file first: signed storage URLs refuse
// chunked uploads, so the request carries its exact length. The API key is
// not sent: the URL carries its own authorization.
func (p *Platform) uploadLayer(ctx context.Context, url string, files []buildctx.File) error {
	spool, err := os.CreateTemp("", "sbx-e2b-layer-*.tar.gz")
	if err != nil {
		return err
	}
	defer func() {
		_ = spool.Close()
		_ = os.Remove(spool.Name())
	}()
	if err := buildctx.WriteTarGz(spool, files); err != nil {
		return err
	}
	size, err := spool.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	if _, err := spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, io.NopCloser(spool))
	if err != nil {
		return err
	}
	req.ContentLength = size
	if p.userAgent != "" {
		req.Header.Set("User-Agent", p.userAgent)
	}
	resp, err := p.upload.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("%s: %s", resp.Status, msg)
	}
	return nil
}
