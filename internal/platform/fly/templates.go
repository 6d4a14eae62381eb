package fly

import (
	"context"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// templateStatus is the Status of every Fly template: Fly has no template
// or build API, so a template is a record in state of an image reference
// that machines are made from; nothing is made on Fly.
const templateStatus = "recorded"

// templates records image references; it makes no request. A template's
// build is its image: BuildID is the image reference, so a new image is a
// new build, as a rebuild is on the platforms that build.
type templates struct{}

// Create implements platform.TemplateService: it records spec.Image.
func (templates) Create(_ context.Context, spec platform.TemplateSpec) (*platform.Template, error) {
	if spec.Image == "" || spec.Dockerfile != "" || spec.FromTemplate != "" {
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "building templates (give a prebuilt image with image)"}
	}
	return &platform.Template{ID: templateID(spec.Name, spec.Image), Name: spec.Name, Image: spec.Image,
		BuildID: spec.Image, Status: templateStatus, CreatedAt: time.Now().UTC(), Labels: map[string]string{}}, nil
}

// Rebuild implements platform.TemplateService; never called (image is Replace).
func (templates) Rebuild(context.Context, string, platform.TemplateSpec) (*platform.Template, error) {
	return nil, &platform.UnsupportedError{Platform: platformName, Capability: "rebuilding templates"}
}

// Get implements platform.TemplateService: the record its id holds.
func (templates) Get(_ context.Context, id string) (*platform.Template, error) {
	name, image := parseTemplateID(id)
	if image == "" {
		return nil, &platform.NotFoundError{Kind: "template", ID: id}
	}
	return &platform.Template{ID: id, Name: name, Image: image, BuildID: image, Status: templateStatus, Labels: map[string]string{}}, nil
}

// List implements platform.TemplateService: Fly holds no templates.
func (templates) List(context.Context, platform.TemplateFilter) ([]platform.Template, error) {
	return nil, nil
}

// Delete implements platform.TemplateService: forgetting a record removes
// nothing on Fly (the image is not Fly's to remove).
func (templates) Delete(context.Context, string) error { return nil }
