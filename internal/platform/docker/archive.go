package docker

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"
)

// helperImageTar is the helper image's only layer: one empty file.
func helperImageTar() (*bytes.Buffer, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	if err := tw.WriteHeader(&tar.Header{
		Name:     helperMarkerFile,
		Mode:     0o755,
		Typeflag: tar.TypeReg,
		ModTime:  time.Unix(0, 0),
	}); err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return &buf, nil
}

// labelChange is a Dockerfile LABEL instruction for the Changes of an image
// import. Key and value are double-quoted; the Dockerfile word parser would
// otherwise split on spaces and expand "$", so backslash, quote and dollar
// are escaped.
func labelChange(key, value string) string {
	return "LABEL " + dockerfileQuote(key) + "=" + dockerfileQuote(value)
}

var dockerfileEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`)

func dockerfileQuote(s string) string { return `"` + dockerfileEscaper.Replace(s) + `"` }

// checkLabelForChange rejects what a one-line Dockerfile instruction cannot
// carry: a line break would end the instruction early.
func checkLabelForChange(key, value string) error {
	if strings.ContainsAny(key, "\r\n") || strings.ContainsAny(value, "\r\n") {
		return fmt.Errorf("label %q: Docker image labels made by import cannot contain line breaks", key)
	}
	return nil
}

// importImage imports a filesystem tar as an image tagged ref and returns
// the new image's id. The engine reports failures inside the response
// stream, so the stream is read to its end.
func importImage(ctx context.Context, api *client.Client, layer io.Reader, ref string, changes []string) (string, error) {
	rc, err := api.ImageImport(ctx, image.ImportSource{Source: layer, SourceName: "-"}, ref, image.ImportOptions{Changes: changes})
	if err != nil {
		return "", err
	}
	// All that matters is read from the stream below; closing it
	// only frees the connection, so its error changes nothing.
	defer func() { _ = rc.Close() }()
	return readImportStream(rc)
}

// importMessage is one line of the engine's import progress stream.
type importMessage struct {
	Status      string `json:"status"`
	Error       string `json:"error"`
	ErrorDetail *struct {
		Message string `json:"message"`
	} `json:"errorDetail"`
}

// readImportStream returns the image id the engine reports last ("sha256:…"),
// or the error it reports.
func readImportStream(r io.Reader) (string, error) {
	dec := json.NewDecoder(r)
	id := ""
	for {
		var m importMessage
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			return id, nil
		} else if err != nil {
			return "", fmt.Errorf("reading the image import response: %w", err)
		}
		if m.ErrorDetail != nil && m.ErrorDetail.Message != "" {
			return "", errors.New(m.ErrorDetail.Message)
		}
		if m.Error != "" {
			return "", errors.New(m.Error)
		}
		if s := strings.TrimSpace(m.Status); strings.HasPrefix(s, "sha256:") {
			id = s
		}
	}
}
