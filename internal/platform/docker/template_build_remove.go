package docker

import (
	"context"
	"fmt"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/image"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

var _ platform.TemplateBuildRemover = (*templates)(nil)

// RemoveBuild removes the image buildID, a build the provider made of the
// template id that a hand retag left untagged, with its own intermediate
// images. An image that is not such a build (the user's, another
// template's) is never removed: that is an error saying what it is. The
// engine refuses while a container runs from the image; the error says so.
func (s *templates) RemoveBuild(ctx context.Context, id, buildID string) error {
	name, ok := templateNameFromID(id)
	if !ok {
		return fmt.Errorf("%q is not the id of a template the provider builds", id)
	}
	img, err := s.api.ImageInspect(ctx, buildID)
	if cerrdefs.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return wrapErr(kindTemplate, buildID, err)
	}
	labels := imageLabels(img)
	if !isTemplateBuild(labels, name) {
		return fmt.Errorf("image %s is not a build the provider made of template %q; it was left in place", buildID, name)
	}
	if hasTag(img.RepoTags, id) {
		return nil // it holds the id again: it is the template, not a leftover
	}
	_, err = s.api.ImageRemove(ctx, img.ID, image.RemoveOptions{PruneChildren: pruneBuildParents(labels)})
	if err != nil && !cerrdefs.IsNotFound(err) {
		return fmt.Errorf("removing the build %s of template %q: %w", buildID, name, err)
	}
	return nil
}
