package docker

import (
	"errors"
	"fmt"

	"github.com/docker/docker/api/types/image"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// checkSource refuses the image a box would start from when the provider
// made it as another kind of object than the attribute that names it: a
// template_id naming a snapshot (or the helper image), a from_snapshot_id
// naming a template or an image the provider did not take as a snapshot.
// Docker's image ids and tags name every kind alike, so the engine would
// start the box from either without a word.
//
// A template's own id (sbx/<name>:latest) must also name a build the
// provider made of that template: an image tagged there by hand would
// otherwise become the box's image, while the template's state still
// records the provider's build (Template.ForeignBuild). The next plan
// rebuilds the template; the box is made after it.
func checkSource(ref string, img image.InspectResponse, fromSnapshot bool) error {
	labels := imageLabels(img)
	if !fromSnapshot {
		var nt *notTemplateError
		if err := checkTemplateKind(labels); errors.As(err, &nt) {
			hint := ""
			if nt.importAs == "sbx_snapshot" && nt.kind == kindSnapshot {
				hint = "; to start a box from it, set from_snapshot_id instead"
			}
			return fmt.Errorf("template_id names image %s, %s made by this provider, not a template%s", img.ID, nt.what, hint)
		}
		if name, ok := templateNameFromID(ref); ok && !isTemplateBuild(labels, name) {
			return fmt.Errorf("template_id %q names image %s, which the provider did not build for template %q "+
				"(tagged there by hand or by another tool); no box is started from it. Run terraform apply again: "+
				"its plan rebuilds the template, moving the tag back to a build of the provider, and then makes the box",
				ref, img.ID, name)
		}
		return nil
	}
	if labels[platform.LabelManaged] == "true" && labels[platform.LabelKind] == kindSnapshot {
		return nil
	}
	e := describeImage(img)
	if labels[platform.LabelManaged] == "true" {
		switch labels[platform.LabelKind] {
		case kindTemplate:
			e.hint = "; to start a box from it, set template_id instead"
		case kindVolumeSnapshot:
			e.what = fmt.Sprintf("image %s, a snapshot of a volume", img.ID)
			e.hint = "; it restores a volume (sbx_volume.from_snapshot_id), not a box"
		}
	}
	// Not the notSnapshotError itself: that one reads as "not found",
	// and the id names an object that exists.
	return fmt.Errorf("from_snapshot_id: %s", e.Error())
}
