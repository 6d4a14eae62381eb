package modal

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	modal "github.com/modal-labs/modal-client/go"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Template statuses: Modal reports no build state for an image it holds,
// so an image found is ready; failed is only what a failed create returns.
const (
	templateReady  = "ready"
	templateFailed = "failed"
)

// templates are Modal Images. An image is content-addressed: its id is its
// build, a change is a new image (no rebuild in place), and Modal lists no
// images, so a template is found only by its id.
type templates struct{ p *Platform }

// Create implements platform.TemplateService: it builds spec.Image, the
// Dockerfile (its FROM line the base), or the Dockerfile's steps on the
// template spec.FromTemplate, and waits for the build. A build that fails
// after Modal made the image returns the image (Status failed) with the
// error, so the provider keeps it, tainted, and deletes it.
func (t *templates) Create(ctx context.Context, spec platform.TemplateSpec) (*platform.Template, error) {
	image, err := t.image(ctx, spec)
	if err != nil {
		return nil, err
	}
	app, err := t.p.appFor(ctx, true)
	if err != nil {
		return nil, err
	}
	rec := &imageRecorder{}
	built, err := image.Build(withImageRecorder(ctx, rec), app, nil)
	if err != nil {
		if id := rec.lastID(); id != "" {
			return &platform.Template{ID: id, Name: spec.Name, Image: spec.Image, FromTemplate: spec.FromTemplate,
				Status: templateFailed, Labels: map[string]string{}}, fmt.Errorf("building the Modal image: %w", translate(err))
		}
		return nil, fmt.Errorf("building the Modal image: %w", translate(err))
	}
	return &platform.Template{ID: built.ImageID, Name: spec.Name, Image: spec.Image, FromTemplate: spec.FromTemplate,
		BuildID: built.ImageID, Status: templateReady, CreatedAt: t.p.now().UTC(), Labels: map[string]string{}}, nil
}

// image is the SDK's (unbuilt) image of a spec. Its last layer labels the
// image with the create's marks: Modal images are content-addressed, so
// without them two templates of the same content (in two states, or one
// made by hand) would be one image, and destroying either would delete
// the other's. With them every create builds an image of its own (only
// that small layer; Modal caches the rest), and the image says which
// create made it.
func (t *templates) image(ctx context.Context, spec platform.TemplateSpec) (*modal.Image, error) {
	images := t.p.client.Images
	marks := markCommand(spec.Marks.Ensure())
	switch {
	case spec.FromTemplate != "":
		steps, err := planBuild(spec.Dockerfile, true)
		if err != nil {
			return nil, err
		}
		base, err := images.FromID(ctx, spec.FromTemplate, nil)
		if err != nil {
			return nil, fmt.Errorf("from_template: %w", notFoundOr(err, "template", spec.FromTemplate))
		}
		return base.DockerfileCommands(append(steps.Commands, marks), nil), nil
	case spec.Dockerfile != "":
		steps, err := planBuild(spec.Dockerfile, false)
		if err != nil {
			return nil, err
		}
		return images.FromRegistry(steps.Base, nil).DockerfileCommands(append(steps.Commands, marks), nil), nil
	case spec.Image != "":
		return images.FromRegistry(spec.Image, nil).DockerfileCommands([]string{marks}, nil), nil
	}
	return nil, fmt.Errorf("modal template: give image, dockerfile, or from_template with a dockerfile")
}

// markCommand is the Dockerfile LABEL instruction carrying marks, keys
// sorted so the same marks always make the same layer.
func markCommand(marks platform.Marks) string {
	labels := marks.Labels()
	labels[platform.LabelManaged] = "true"
	keys := slices.Sorted(maps.Keys(labels))
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%s", k, strconv.Quote(labels[k])))
	}
	return "LABEL " + strings.Join(parts, " ")
}

// Rebuild implements platform.TemplateService; never called: images are
// content-addressed, so every change replaces the template.
func (t *templates) Rebuild(context.Context, string, platform.TemplateSpec) (*platform.Template, error) {
	return nil, &platform.UnsupportedError{Platform: platformName, Capability: "rebuilding a template in place (a Modal image is content-addressed)"}
}

// Get implements platform.TemplateService: the image, if Modal holds it.
// Modal keeps no name, labels or source of an image: those stay empty.
func (t *templates) Get(ctx context.Context, id string) (*platform.Template, error) {
	img, err := t.p.client.Images.FromID(ctx, id, nil)
	if err != nil {
		return nil, notFoundOr(err, "template", id)
	}
	return &platform.Template{ID: img.ImageID, BuildID: img.ImageID, Status: templateReady, Labels: map[string]string{}}, nil
}

// List implements platform.TemplateService: Modal lists no images (only
// published tags, which the provider does not make), so there is nothing
// to list; the capabilities say so (TemplatesListed false).
func (t *templates) List(context.Context, platform.TemplateFilter) ([]platform.Template, error) {
	return nil, nil
}

// Delete implements platform.TemplateService: the image, not its parent
// layers (Modal deletes only the image named); one already gone is fine.
func (t *templates) Delete(ctx context.Context, id string) error {
	err := t.p.client.Images.Delete(ctx, id, nil)
	if err != nil && !isNotFound(err) {
		return translate(err)
	}
	return nil
}
