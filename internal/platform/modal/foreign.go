package modal

import "github.com/sbxhq/terraform-provider-sbx/internal/platform"

// foreignUnreported is what a read cannot report of a box made outside the
// provider (by Modal's own SDKs, CLI or dashboard). Modal keeps a box's
// name, image and timeout (SandboxInfo's name, image_id and timeout_secs,
// modal-api.proto), but the Go SDK reports none of them: SandboxList
// yields a handle holding the id alone and no call reads one box's
// definition. So the provider records them in the tags of each box it
// makes (tags.go), and a box without those tags has only its status and
// tags known. Its name, template and memory snapshot setting read as
// empty, which here means "not known": the import takes them from the
// configuration. (Its source snapshot, mounts, size, env and deadlines are
// Unreported rows of the table for every box already.)
var foreignUnreported = []string{
	platform.AttrSandboxName,
	platform.AttrSandboxTemplateID,
	platform.AttrSandboxMemorySnapshots,
}

// unreportedOf is what a read of a box with tags cannot report: nothing
// for a box the provider made (it carries the managed tag with its
// records), foreignUnreported for any other.
func unreportedOf(tags map[string]string) []string {
	if tags[platform.LabelManaged] == "true" {
		return nil
	}
	return append([]string(nil), foreignUnreported...)
}
