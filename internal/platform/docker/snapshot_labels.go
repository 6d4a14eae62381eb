package docker

import (
	"encoding/json"
	"maps"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// labelUserLabels holds a snapshot's user labels as JSON. A committed image
// inherits every label of its container (Docker merges them and cannot drop
// one), so the image's own labels cannot tell the snapshot's user labels from
// the sandbox's; this label can. It also carries values an image import
// cannot set as labels (line breaks).
const labelUserLabels = platform.LabelPrefix + "user_labels"

// kindSnapshotCommit is the kind of the intermediate image a sandbox
// snapshot is committed to before the snapshot image is written from it
// (see commitSandbox); it is never a snapshot.
const kindSnapshotCommit = "snapshot-commit"

// Snapshot id prefixes: every snapshot image is tagged, so it is never
// dangling and "docker image prune" leaves it alone.
const (
	snapshotRepo       = "sbx/snapshot"
	volumeSnapshotRepo = "sbx/volume-snapshot"
)

// snapshotLabels are the labels a snapshot image carries: the managed
// labels, the source, and the user labels both as labels and as JSON.
// Every reserved key is set, even to "", so a value inherited from the
// committed container never shows through.
func snapshotLabels(kind, name, sandboxID, volumeID, parentID string, marks platform.Marks, user map[string]string) map[string]string {
	out := managedLabels(kind, name, marks, user)
	out[platform.LabelName] = name
	out[labelSandboxID] = sandboxID
	out[labelVolumeID] = volumeID
	out[labelParentSnapshotID] = parentID
	b, _ := json.Marshal(userOrEmpty(user))
	out[labelUserLabels] = string(b)
	return out
}

func userOrEmpty(user map[string]string) map[string]string {
	if user == nil {
		return map[string]string{}
	}
	return user
}

// snapshotUserLabels reads a snapshot's user labels back.
func snapshotUserLabels(all map[string]string) map[string]string {
	if raw, ok := all[labelUserLabels]; ok {
		var user map[string]string
		if json.Unmarshal([]byte(raw), &user) == nil {
			return userOrEmpty(user)
		}
	}
	return maps.Clone(platform.UserLabels(all))
}

// snapshotKindOf maps an image's kind label to the snapshot kind; ok is false
// for images that are not snapshots.
func snapshotKindOf(labels map[string]string) (platform.SnapshotKind, bool) {
	if labels[platform.LabelManaged] != "true" {
		return "", false
	}
	switch labels[platform.LabelKind] {
	case kindSnapshot:
		return platform.SnapshotFilesystem, true
	case kindVolumeSnapshot:
		return platform.SnapshotVolume, true
	}
	return "", false
}
