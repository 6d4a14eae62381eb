package docker

import (
	"maps"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Object kinds, stored under platform.LabelKind.
const (
	kindTemplate        = "template"
	kindSandbox         = "sandbox"
	kindVolume          = "volume"
	kindSnapshot        = "snapshot"        // docker commit of a sandbox
	kindVolumeSnapshot  = "volume-snapshot" // archive of a volume, imported as an image
	kindHelper          = "helper"          // the empty image helper containers are made from
	kindHelperContainer = "helper-container"
)

// Docker-specific label keys; all under the provider's reserved prefix.
const (
	labelTemplateID       = platform.LabelPrefix + "template_id"
	labelFromSnapshotID   = platform.LabelPrefix + "from_snapshot_id"
	labelSandboxID        = platform.LabelPrefix + "sandbox_id"
	labelVolumeID         = platform.LabelPrefix + "volume_id"
	labelParentSnapshotID = platform.LabelPrefix + "parent_snapshot_id"
	labelStartCmd         = platform.LabelPrefix + "start_cmd"
	labelReadyCmd         = platform.LabelPrefix + "ready_cmd"
	labelCPUCount         = platform.LabelPrefix + "cpu_count"
	labelMemoryMB         = platform.LabelPrefix + "memory_mb"
)

// managedLabels is the user's labels plus the labels that mark an object as
// made by the provider, of a kind, under a name, by the create holding marks
// (owner and create token; see platform.Marks). The marks are always set,
// even to "", so an image or container never keeps the marks of the object
// it was derived from.
func managedLabels(kind, name string, marks platform.Marks, user map[string]string) map[string]string {
	out := make(map[string]string, len(user)+5)
	maps.Copy(out, user)
	maps.Copy(out, marks.Labels())
	out[platform.LabelManaged] = "true"
	out[platform.LabelKind] = kind
	if name != "" {
		out[platform.LabelName] = name
	}
	return out
}

// Label keys for templates and sandboxes (see templates.go, sandboxes.go).
const (
	// labelSourceImage is the image reference an adopted template was made from.
	labelSourceImage = platform.LabelPrefix + "source_image"
	// labelFromTemplate is the template (its id) a template was built on.
	labelFromTemplate = platform.LabelPrefix + "from_template"
	// labelContextHash is the context_hash of the Dockerfile and context
	// the template was built from: the image keeps neither.
	labelContextHash = platform.LabelPrefix + "context_hash"
	// labelUserLabelKeys is a JSON list of the keys the user set. Images
	// inherit their base image's labels and containers their image's, so
	// this is how the user's own labels are told apart from inherited ones.
	labelUserLabelKeys = platform.LabelPrefix + "user_label_keys"
)

// labelCreatedAt keeps a volume's first creation time across the re-creation
// that relabelling a Docker volume needs.
const labelCreatedAt = platform.LabelPrefix + "created_at"

// provenance says, for a NotOwnedError, who made an object found under a
// name a create of kind wanted. Labels of another kind were inherited (a
// container from its image, an image from its container) and prove nothing.
func provenance(labels map[string]string, kind string) string {
	switch {
	case labels[platform.LabelManaged] != "true" || labels[platform.LabelKind] != kind:
		return "not made by this provider"
	case labels[platform.LabelOwner] != "":
		return "made by this provider for another state or an earlier apply, owner " + labels[platform.LabelOwner]
	default:
		return "made by this provider for another state or an earlier apply"
	}
}
