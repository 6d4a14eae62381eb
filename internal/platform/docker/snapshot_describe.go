package docker

import (
	"context"
	"fmt"
	"strings"

	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// notSnapshotError is what Get answers for an id that names something other
// than one of the provider's snapshots: not found (the snapshot is not
// there), saying what the id names instead and what to do with it, so an
// import of the wrong id says what it is.
type notSnapshotError struct {
	id   string
	what string // "image sha256:… (tagged …) of template \"x\""
	hint string // "; import it as sbx_template …", or ""
}

func (e *notSnapshotError) Error() string {
	return fmt.Sprintf("%q is not a snapshot made by this provider: it is %s%s", e.id, e.what, e.hint)
}

// Is makes errors.Is(err, platform.ErrNotFound) true.
func (e *notSnapshotError) Is(target error) bool { return target == platform.ErrNotFound }

// describeImage says what an image that is not a snapshot is.
func describeImage(img image.InspectResponse) *notSnapshotError {
	labels := imageLabels(img)
	tags := "untagged"
	if len(img.RepoTags) > 0 {
		tags = "tagged " + strings.Join(img.RepoTags, ", ")
	}
	e := &notSnapshotError{id: img.ID}
	if labels[platform.LabelManaged] != "true" {
		e.what = fmt.Sprintf("image %s (%s), which the provider did not make", img.ID, tags)
		return e
	}
	switch kind := labels[platform.LabelKind]; kind {
	case kindTemplate:
		name := labels[platform.LabelName]
		e.what = fmt.Sprintf("image %s (%s) of template %q", img.ID, tags, name)
		e.hint = fmt.Sprintf("; import a template as sbx_template, with id %q", TemplateID(name))
	case kindSnapshotCommit:
		e.what = fmt.Sprintf("image %s, the intermediate commit of a snapshot being taken (or of one whose create was killed)", img.ID)
	case kindSandbox:
		// docker commit copies a container's labels into its image: an
		// image labelled a sandbox is a box committed by hand.
		e.what = fmt.Sprintf("image %s (%s), a commit of one of its sandboxes made outside the provider (`docker commit` copies the sandbox's labels)", img.ID, tags)
		e.hint = "; take a snapshot of a sandbox with sbx_snapshot.sandbox_id"
	case kindHelper:
		e.what = fmt.Sprintf("image %s, the provider's helper image for copying volume files", img.ID)
	default:
		e.what = fmt.Sprintf("image %s (%s) of kind %q", img.ID, tags, kind)
	}
	return e
}

// describeMissingImage says what id names when no image has it: a
// sandbox, a volume, or nothing at all.
func describeMissingImage(ctx context.Context, api *client.Client, id string) error {
	if c, err := api.ContainerInspect(ctx, id); err == nil {
		e := &notSnapshotError{id: id, what: "container " + c.ID + ", which the provider did not make"}
		if c.Config != nil && c.Config.Labels[platform.LabelManaged] == "true" && c.Config.Labels[platform.LabelKind] == kindSandbox {
			e.what, e.hint = "sandbox "+c.ID, "; snapshot it with sbx_snapshot.sandbox_id"
		}
		return e
	}
	if v, err := api.VolumeInspect(ctx, id); err == nil {
		return &notSnapshotError{id: id, what: "volume " + v.Name, hint: "; snapshot it with sbx_snapshot.volume_id"}
	}
	return &platform.NotFoundError{Kind: "snapshot", ID: id}
}
