package e2b

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"

	"github.com/sbxhq/terraform-provider-sbx/internal/buildctx"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// uploadContext gives every COPY step the content hash of the build
// context and uploads the context as a tar when E2B does not have it yet.
// The whole context is one upload: COPY steps name their sources inside it.
func (t *templates) uploadContext(ctx context.Context, templateID string, spec platform.TemplateSpec, start templateBuildStart) error {
	hasCopy := false
	for _, s := range start.Steps {
		if s.Type == stepCopy {
			hasCopy = true
		}
	}
	if !hasCopy {
		return nil
	}
	if spec.ContextDir == "" {
		return fmt.Errorf("template %q: the Dockerfile copies files but context_dir is not set", spec.Name)
	}
	hash, err := filesHash(spec.ContextDir)
	if err != nil {
		return fmt.Errorf("template %q: hashing context_dir: %w", spec.Name, err)
	}
	for i := range start.Steps {
		if start.Steps[i].Type == stepCopy {
			start.Steps[i].FilesHash = hash
		}
	}
	var up templateFileUpload
	if _, err := t.p.do(ctx, "GET", "/templates/"+pathID(templateID)+"/files/"+pathID(hash), nil, nil, &up); err != nil {
		return fmt.Errorf("template %q: asking where to upload the build context: %w", spec.Name, err)
	}
	if up.Present {
		return nil
	}
	if up.URL == "" {
		return fmt.Errorf("template %q: E2B gave no upload URL for the build context", spec.Name)
	}
	return t.p.uploadTar(ctx, up.URL, spec.ContextDir)
}

// filesHash is the content hash E2B caches the context under.
func filesHash(dir string) (string, error) {
	sum, err := buildctx.Hash(dir, "")
	if err != nil {
		return "", err
	}
	h := sha256.Sum256([]byte("sbx-e2b-context\x00" + sum))
	return hex.EncodeToString(h[:]), nil
}

// uploadTar streams the context as a tar to a signed upload URL. The API
// key is not sent: the URL carries its own authorization.
func (p *Platform) uploadTar(ctx context.Context, url, dir string) error {
	body, err := buildctx.Tar(dir, nil)
	if err != nil {
		return err
	}
	defer func() { _ = body.Close() }() // a read error already surfaced through Do
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, body)
	if err != nil {
		return fmt.Errorf("build context upload: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-tar")
	resp, err := p.upload.Do(req)
	if err != nil {
		return fmt.Errorf("build context upload: %w", err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("build context upload: %s: %s", resp.Status, msg)
	}
	return nil
}
