package modal

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// tagMountPrefix starts the key of each volume mount a box was made with
// (sbx.terraform.mount.0, .1, ...): the SDK reports no mounts, so these
// records are how a read, and an import, finds a box's volume_mount blocks.
// A box made outside the provider has none; its mounts stay unreported.
const tagMountPrefix = platform.LabelPrefix + "mount."

// mountRecord is one mount as a tag value holds it.
type mountRecord struct {
	Volume   string `json:"v"`
	Path     string `json:"p"`
	ReadOnly bool   `json:"ro,omitempty"`
	Subpath  string `json:"s,omitempty"`
}

// addMountTags records mounts, in order, into tags.
func addMountTags(tags map[string]string, mounts []platform.VolumeMount) {
	for i, m := range mounts {
		b, err := json.Marshal(mountRecord{Volume: m.VolumeID, Path: m.Path, ReadOnly: m.ReadOnly, Subpath: m.Subpath})
		if err != nil {
			continue // strings and a bool always marshal
		}
		tags[tagMountPrefix+strconv.Itoa(i)] = string(b)
	}
}

// mountsOf are the mounts tags record, in the order they were given; nil
// when none are recorded (or a record is unreadable: then nothing is
// claimed rather than a part).
func mountsOf(tags map[string]string) []platform.VolumeMount {
	type indexed struct {
		i int
		m platform.VolumeMount
	}
	var found []indexed
	for k, v := range tags {
		n, ok := strings.CutPrefix(k, tagMountPrefix)
		if !ok {
			continue
		}
		i, err := strconv.Atoi(n)
		var rec mountRecord
		if err != nil || json.Unmarshal([]byte(v), &rec) != nil || rec.Volume == "" || rec.Path == "" {
			return nil
		}
		found = append(found, indexed{i, platform.VolumeMount{VolumeID: rec.Volume, Path: rec.Path, ReadOnly: rec.ReadOnly, Subpath: rec.Subpath}})
	}
	sort.Slice(found, func(a, b int) bool { return found[a].i < found[b].i })
	out := make([]platform.VolumeMount, 0, len(found))
	for _, f := range found {
		out = append(out, f.m)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
