package modal

import (
	"fmt"
	"maps"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// A Modal sandbox's tags are the only record Modal keeps for the provider:
// the user's labels, the provider's marks, and, under reserved keys (the
// provider's label prefix, so they never read as user labels), what Modal
// does not report back (the volume mounts: mounts.go).
const (
	// tagMemorySnapshots records whether the box was made with memory
	// snapshots enabled (Modal's enable_snapshot), which Modal does not report.
	tagMemorySnapshots = platform.LabelPrefix + "memory-snapshots"
	// tagCreated is when the box was made (Unix seconds, the provider's
	// clock): the SDK reports no creation or start time.
	tagCreated = platform.LabelPrefix + "created"
	// tagTimeout is the box's timeout in seconds as sent (the SDK's 300 s
	// when none was set), so a read can say when Modal ends the box.
	tagTimeout = platform.LabelPrefix + "timeout"
	// tagTemplate and tagFromSnapshot are what the box was made from: the
	// SDK reports neither.
	tagTemplate     = platform.LabelPrefix + "template"
	tagFromSnapshot = platform.LabelPrefix + "from-snapshot"
	// tagSnapshotPrefix starts the key of each snapshot taken of the box:
	// Modal lists no snapshots, so these records are what the snapshot
	// service reads and lists.
	tagSnapshotPrefix = platform.LabelPrefix + "snapshot."
)

// Snapshot kinds as a record writes them.
const (
	recordFilesystem = "fs"
	recordMemory     = "mem"
)

// sandboxTags are the tags a box is made with at created: the user's
// labels, the create's marks, the managed and kind labels the inventory
// reads, and what Modal does not report: name, source, creation time,
// timeout, memory snapshot setting. A box restored from a memory snapshot
// keeps the snapshot's timeout, which nothing here knows: none is recorded.
func sandboxTags(spec platform.SandboxSpec, marks platform.Marks, created time.Time) map[string]string {
	tags := make(map[string]string, len(spec.Labels)+10)
	maps.Copy(tags, spec.Labels)
	maps.Copy(tags, marks.Labels())
	tags[platform.LabelManaged] = "true"
	tags[platform.LabelKind] = platform.KindSandbox
	if spec.Name != "" {
		tags[platform.LabelName] = spec.Name
	}
	tags[tagMemorySnapshots] = strconv.FormatBool(spec.MemorySnapshots)
	addMountTags(tags, spec.VolumeMounts)
	tags[tagCreated] = strconv.FormatInt(created.Unix(), 10)
	switch {
	case spec.FromSnapshotID == "":
		tags[tagTemplate] = spec.TemplateID
	case isImageID(spec.FromSnapshotID):
		tags[tagFromSnapshot] = spec.FromSnapshotID
	default:
		tags[tagFromSnapshot] = spec.FromSnapshotID
		return tags
	}
	timeout := spec.Lifecycle.Timeout
	if timeout <= 0 {
		timeout = defaultSandboxTimeout
	}
	tags[tagTimeout] = strconv.FormatInt(int64(timeout/time.Second), 10)
	return tags
}

// sentTimeout is the timeout a box's record says its create sent (the
// SDK's default when none was configured); zero when there is no record:
// a restored box keeps its snapshot's, and a box made outside the provider
// has no record.
func sentTimeout(tags map[string]string) time.Duration {
	secs, err := strconv.ParseInt(tags[tagTimeout], 10, 64)
	if err != nil || secs <= 0 {
		return 0
	}
	return time.Duration(secs) * time.Second
}

// configuredTimeout is the timeout attribute a sent timeout reads as (an
// import reads it; other reads leave the configured value in state). Modal
// reports no timeout through the SDK (SandboxInfo.timeout_secs comes only
// in a list's answers, which the SDK reduces to ids), so the record is the
// box's own. The default reads as none: the record does not tell a
// configured 300 s from none, and a configuration without a timeout, the
// usual way to ask for the default, then plans nothing after an import.
func configuredTimeout(sent time.Duration) time.Duration {
	if sent == defaultSandboxTimeout {
		return 0
	}
	return sent
}

// unixTag is a tag holding Unix seconds as a time; zero when absent or not one.
func unixTag(tags map[string]string, key string) time.Time {
	secs, err := strconv.ParseInt(tags[key], 10, 64)
	if err != nil || secs <= 0 {
		return time.Time{}
	}
	return time.Unix(secs, 0).UTC()
}

// relabelled returns tags with the user labels replaced by labels and
// every reserved tag kept (SetTags replaces the whole set).
func relabelled(tags, labels map[string]string) map[string]string {
	out := make(map[string]string, len(tags)+len(labels))
	for k, v := range tags {
		if platform.IsReservedLabel(k) {
			out[k] = v
		}
	}
	for k, v := range labels {
		if !platform.IsReservedLabel(k) {
			out[k] = v
		}
	}
	return out
}

// snapshotRecord is what a box's tags say of one snapshot taken of it.
type snapshotRecord struct {
	ID        string
	Kind      platform.SnapshotKind
	CreatedAt time.Time
	TTL       time.Duration
}

// tag is the record as a tag: key and value ("fs:<unix seconds>:<ttl seconds>").
func (r snapshotRecord) tag() (string, string) {
	kind := recordFilesystem
	if r.Kind == platform.SnapshotMemory {
		kind = recordMemory
	}
	return tagSnapshotPrefix + r.ID, fmt.Sprintf("%s:%d:%d", kind, r.CreatedAt.Unix(), int64(r.TTL/time.Second))
}

// snapshot is the record as the provider's snapshot of sandboxID, whose
// tags are boxTags (the snapshot's parent is what the box was restored from).
func (r snapshotRecord) snapshot(sandboxID string, boxTags map[string]string) platform.Snapshot {
	s := platform.Snapshot{ID: r.ID, Kind: r.Kind, SandboxID: sandboxID, ParentSnapshotID: boxTags[tagFromSnapshot],
		CreatedAt: r.CreatedAt, Labels: map[string]string{}}
	if r.TTL > 0 {
		s.ExpiresAt = r.CreatedAt.Add(r.TTL)
	}
	return s
}

// parseRecord reads the record of a tag; false when the tag is not one.
func parseRecord(key, value string) (snapshotRecord, bool) {
	id, ok := strings.CutPrefix(key, tagSnapshotPrefix)
	parts := strings.Split(value, ":")
	if !ok || id == "" || len(parts) != 3 {
		return snapshotRecord{}, false
	}
	created, err1 := strconv.ParseInt(parts[1], 10, 64)
	ttl, err2 := strconv.ParseInt(parts[2], 10, 64)
	if err1 != nil || err2 != nil {
		return snapshotRecord{}, false
	}
	r := snapshotRecord{ID: id, CreatedAt: time.Unix(created, 0).UTC(), TTL: time.Duration(ttl) * time.Second}
	switch parts[0] {
	case recordFilesystem:
		r.Kind = platform.SnapshotFilesystem
	case recordMemory:
		r.Kind = platform.SnapshotMemory
	default:
		return snapshotRecord{}, false
	}
	return r, true
}

// records are the snapshot records of a box's tags, newest first.
func records(tags map[string]string) []snapshotRecord {
	var out []snapshotRecord
	for k, v := range tags {
		if r, ok := parseRecord(k, v); ok {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.After(out[j].CreatedAt)
		}
		return out[i].ID < out[j].ID
	})
	return out
}
