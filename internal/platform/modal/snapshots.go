package modal

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	modal "github.com/modal-labs/modal-client/go"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// snapshots are filesystem snapshots (Modal images, im-…) and memory
// snapshots of running boxes. Modal lists neither, and keeps no source or
// date for them, so each snapshot made is recorded in its box's tags; Get
// and List read those records.
type snapshots struct{ p *Platform }

// Create implements platform.SnapshotService: a filesystem snapshot with
// the ttl asked (30 days when none), or a memory snapshot, which Modal
// takes only of a box made with memory snapshots on and which ends the
// box (Modal's TaskSnapshotMemory "terminates the container").
func (s *snapshots) Create(ctx context.Context, spec platform.SnapshotSpec) (*platform.Snapshot, error) {
	if spec.VolumeID != "" || spec.SandboxID == "" {
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "snapshots of volumes"}
	}
	sb, err := s.p.client.Sandboxes.FromID(ctx, spec.SandboxID, nil)
	if err != nil {
		return nil, notFoundOr(err, "sandbox", spec.SandboxID)
	}
	defer release(sb)
	boxTags, err := (&sandboxes{p: s.p}).liveTags(ctx, sb)
	if err != nil {
		return nil, err
	}
	created := s.p.now().UTC().Truncate(time.Second)
	var rec snapshotRecord
	if spec.IncludeMemory {
		var snap *modal.SandboxSnapshot
		err := retryThrottled(ctx, s.p.throttleSleep, s.p.maxThrottleWait, func() (err error) {
			snap, err = sb.ExperimentalSnapshot(ctx, nil)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("taking a memory snapshot of sandbox %s: %w", spec.SandboxID, notFoundOr(err, "sandbox", spec.SandboxID))
		}
		rec = snapshotRecord{ID: snap.SnapshotID, Kind: platform.SnapshotMemory, CreatedAt: created, TTL: memorySnapshotLifetime}
	} else {
		// The ttl is always sent (the SDK's own default would follow the
		// SDK; "never expires" is not offered).
		ttl := spec.TTL
		if ttl <= 0 {
			ttl = defaultSnapshotTTL
		}
		var img *modal.Image
		err := retryThrottled(ctx, s.p.throttleSleep, s.p.maxThrottleWait, func() (err error) {
			img, err = sb.SnapshotFilesystem(ctx, &modal.SandboxSnapshotFilesystemParams{TTL: ttl})
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("taking a filesystem snapshot of sandbox %s: %w", spec.SandboxID, notFoundOr(err, "sandbox", spec.SandboxID))
		}
		rec = snapshotRecord{ID: img.ImageID, Kind: platform.SnapshotFilesystem, CreatedAt: created, TTL: ttl}
	}
	s.record(ctx, spec.SandboxID, rec)
	out := rec.snapshot(spec.SandboxID, boxTags)
	return &out, nil
}

// record writes a snapshot's record into its box's tags. The snapshot is
// made whatever happens here, so a failure is logged, not returned: the
// snapshot then reads without its date and is not listed by its source.
func (s *snapshots) record(ctx context.Context, sandboxID string, rec snapshotRecord) {
	err := s.p.editTags(ctx, sandboxID, func(tags map[string]string) map[string]string {
		k, v := rec.tag()
		tags[k] = v
		return tags
	})
	if err != nil {
		tflog.Warn(ctx, "could not record the snapshot in its sandbox's tags", map[string]any{
			"snapshot": rec.ID, "sandbox": sandboxID, "error": err.Error()})
	}
}

// Get implements platform.SandboxService: a filesystem snapshot is its
// image, if Modal holds it; a memory snapshot is known only by its record
// (the SDK cannot look one up), or by its id alone when unrecorded. A
// recorded snapshot past its expiry is gone. An image without a record
// reads with Unrecorded saying what it is (snapshot_provenance.go).
func (s *snapshots) Get(ctx context.Context, id string) (*platform.Snapshot, error) {
	kind := platform.SnapshotMemory
	if !isImageID(id) && !isMemorySnapshotID(id) {
		return nil, &platform.NotFoundError{Kind: "snapshot", ID: id,
			Reason: "a Modal snapshot id is an Image id (im-…, a filesystem snapshot) or a memory snapshot id (sn-…)"}
	}
	if isImageID(id) {
		kind = platform.SnapshotFilesystem
		if _, err := s.p.client.Images.FromID(ctx, id, nil); err != nil {
			return nil, notFoundOr(err, "snapshot", id)
		}
	}
	boxes, err := (&sandboxes{p: s.p}).List(ctx, platform.SandboxFilter{})
	if err != nil {
		return nil, err
	}
	found := recordIn(boxes, id)
	if found == nil {
		snap := &platform.Snapshot{ID: id, Kind: kind, Labels: map[string]string{}}
		if kind == platform.SnapshotFilesystem {
			snap.Unrecorded = unrecordedImage(id, boxes)
		}
		return snap, nil
	}
	if !found.ExpiresAt.IsZero() && !s.p.now().Before(found.ExpiresAt) {
		return nil, &platform.NotFoundError{Kind: "snapshot", ID: id, Reason: "expired " + found.ExpiresAt.Format(time.RFC3339)}
	}
	return found, nil
}

// find is the record of snapshot id among the app's running boxes, nil
// when none holds it.
func (s *snapshots) find(ctx context.Context, id string) (*platform.Snapshot, error) {
	boxes, err := (&sandboxes{p: s.p}).List(ctx, platform.SandboxFilter{})
	if err != nil {
		return nil, err
	}
	return recordIn(boxes, id), nil
}

// recordIn is the record of snapshot id in the tags of boxes, nil when none holds it.
func recordIn(boxes []platform.Sandbox, id string) *platform.Snapshot {
	for _, sb := range boxes {
		for _, r := range records(sb.Labels) {
			if r.ID == id {
				out := r.snapshot(sb.ID, sb.Labels)
				return &out
			}
		}
	}
	return nil
}

// List implements platform.SnapshotService: the records of one box
// (filter.SandboxID), or of every running box of the app, newest first,
// without the expired. Modal snapshots have no names or labels, so a
// filter by either matches none; no volume has snapshots.
func (s *snapshots) List(ctx context.Context, filter platform.SnapshotFilter) ([]platform.Snapshot, error) {
	if filter.Name != "" || len(filter.Labels) > 0 || filter.VolumeID != "" {
		return nil, nil
	}
	var out []platform.Snapshot
	if filter.SandboxID != "" {
		tags, err := s.tagsOf(ctx, filter.SandboxID)
		if err != nil || tags == nil {
			return nil, err
		}
		out = s.unexpired(filter.SandboxID, tags)
	} else {
		boxes, err := (&sandboxes{p: s.p}).List(ctx, platform.SandboxFilter{})
		if err != nil {
			return nil, err
		}
		for _, sb := range boxes {
			out = append(out, s.unexpired(sb.ID, sb.Labels)...)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].CreatedAt.After(out[j].CreatedAt) })
	return out, nil
}

// tagsOf reads a box's tags, running or not (a memory snapshot ends its
// box, whose records still say what was taken); nil when Modal has no such box.
func (s *snapshots) tagsOf(ctx context.Context, id string) (map[string]string, error) {
	sb, err := s.p.client.Sandboxes.FromID(ctx, id, nil)
	if err != nil {
		return nil, notFoundOr(err, "sandbox", id)
	}
	defer release(sb)
	tags, err := sb.GetTags(ctx, nil)
	if isNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the tags of sandbox %s: %w", id, translate(err))
	}
	return tags, nil
}

// unexpired are the snapshots a box's tags record that have not expired.
func (s *snapshots) unexpired(sandboxID string, tags map[string]string) []platform.Snapshot {
	now := s.p.now()
	var out []platform.Snapshot
	for _, r := range records(tags) {
		snap := r.snapshot(sandboxID, tags)
		if snap.ExpiresAt.IsZero() || now.Before(snap.ExpiresAt) {
			out = append(out, snap)
		}
	}
	return out
}

// Delete implements platform.SnapshotService: a filesystem snapshot's
// image is deleted (one already gone is fine) and its record dropped. The
// provider asks only for a snapshot it took: one its resource created, or
// one whose read found a record (never an Unrecorded image). A
// memory snapshot cannot be deleted (Modal has no call for it; it expires
// after 7 days): the capabilities list the kind as undeletable, so the
// provider never asks.
func (s *snapshots) Delete(ctx context.Context, id string) error {
	if !isImageID(id) {
		return &platform.UnsupportedError{Platform: platformName, Capability: "deleting a memory snapshot (it expires 7 days after it was taken)"}
	}
	if err := s.p.client.Images.Delete(ctx, id, nil); err != nil && !isNotFound(err) {
		return fmt.Errorf("deleting snapshot %s: %w", id, translate(err))
	}
	s.forget(ctx, id)
	return nil
}

// forget drops the record of a deleted snapshot from its box's tags, so
// the box no longer lists it; best effort (the image is gone either way).
func (s *snapshots) forget(ctx context.Context, id string) {
	found, err := s.find(ctx, id)
	if err != nil || found == nil {
		return
	}
	err = s.p.editTags(ctx, found.SandboxID, func(tags map[string]string) map[string]string {
		delete(tags, tagSnapshotPrefix+id)
		return tags
	})
	if err != nil {
		tflog.Warn(ctx, "could not drop the deleted snapshot's record from its sandbox's tags", map[string]any{
			"snapshot": id, "sandbox": found.SandboxID, "error": err.Error()})
	}
}
