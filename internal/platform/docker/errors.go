package docker

import (
	"errors"
	"fmt"

	cerrdefs "github.com/containerd/errdefs"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// wrapErr turns an engine error into the platform's typed errors, so
// resources can tell "gone" and "busy" apart from real failures.
func wrapErr(kind, id string, err error) error {
	switch {
	case err == nil:
		return nil
	case cerrdefs.IsNotFound(err):
		return &platform.NotFoundError{Kind: kind, ID: id}
	case cerrdefs.IsConflict(err):
		return &platform.ConflictError{Kind: kind, ID: id, Reason: err.Error()}
	case errors.As(err, new(*startError)):
		return err // names no box, and the caller names it
	default:
		return fmt.Errorf("%s %q: %w", kind, id, err)
	}
}
