package modal

import (
	"fmt"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// A filesystem snapshot is an Image, as a template is, and the SDK cannot
// tell one from the other (Modal keeps no kind, name or labels the SDK
// reads back on an Image). Only the provider's records say an Image is a
// snapshot: the record in the tags of the box it was taken of (tags.go),
// or the snapshot resource's own record of creating it. An Image with
// neither may be another configuration's template: importing it as a
// snapshot is refused, and it is never deleted as one.

// unrecordedImage says what the Image id is, found in no box's record of
// a snapshot, and what a snapshot import accepts (platform.Snapshot.Unrecorded).
func unrecordedImage(id string, boxes []platform.Sandbox) string {
	what := "an Image made outside the provider, a template's, or a snapshot whose sandbox has ended"
	for _, sb := range boxes {
		if sb.TemplateID == id {
			what = fmt.Sprintf("the template Image sandbox %s was made from", sb.ID)
			break
		}
	}
	return fmt.Sprintf("%s is a Modal Image the provider has no record of taking as a snapshot (%s). "+
		"Modal cannot tell a snapshot's Image from any other, so only a filesystem snapshot the provider took, "+
		"recorded in the tags of its running sandbox, is a snapshot here; a template's Image is imported as sbx_template", id, what)
}
