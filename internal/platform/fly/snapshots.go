package fly

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/lostcreate"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/restplatform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// snapshotCreated is the status of a finished volume snapshot (the fake
// and Fly list waiting, running, then created).
const snapshotCreated = "created"

// clockSkew is how much earlier than the request, by Fly's clock, a
// snapshot of this create may say it was made.
const clockSkew = 5 * time.Second

type snapshots struct{ p *Platform }

// snapshotID is the id the provider gives a volume snapshot:
// "<volume id>:<snapshot id>", as Fly reads a snapshot only through its
// volume. parseSnapshotID also takes a bare Fly snapshot id.
func snapshotID(volumeID, id string) string { return volumeID + ":" + id }

func parseSnapshotID(id string) (volumeID, snapID string) {
	if v, s, ok := strings.Cut(id, ":"); ok {
		return v, s
	}
	return "", id
}

func (s *snapshots) list(ctx context.Context, volumeID string) ([]volumeSnapshot, error) {
	var out []volumeSnapshot
	if _, err := s.p.do(ctx, http.MethodGet, s.p.itemPath("volumes", volumeID, "snapshots"), nil, nil, &out); err != nil {
		return nil, restplatform.NotFound(err, "volume", volumeID)
	}
	return out, nil
}

// Create implements platform.SnapshotService: POST
// /apps/{app}/volumes/{id}/snapshots answers nothing, so the snapshot is
// found in the volume's list: the one that was not listed before the
// request and was made after it. Fly also makes a daily automatic snapshot;
// if one appears at the same moment, the two cannot be told apart, and the
// create fails rather than adopt the wrong one.
func (s *snapshots) Create(ctx context.Context, spec platform.SnapshotSpec) (*platform.Snapshot, error) {
	if spec.SandboxID != "" || spec.VolumeID == "" {
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "snapshots of sandboxes (snapshot a volume with volume_id)"}
	}
	if spec.IncludeMemory {
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "memory snapshots"}
	}
	vol, err := (&volumes{p: s.p}).get(ctx, spec.VolumeID)
	if err != nil {
		return nil, err
	}
	before, err := s.list(ctx, spec.VolumeID)
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, sn := range before {
		known[sn.ID] = true
	}
	start := s.p.now()
	_, err = s.p.do(ctx, http.MethodPost, s.p.itemPath("volumes", spec.VolumeID, "snapshots"), nil, nil, nil)
	lost := errors.Is(err, rest.ErrMaybeApplied) || rest.IsStatus(err, http.StatusRequestTimeout)
	if err != nil && !lost {
		return nil, fmt.Errorf("snapshotting volume %s: %s", spec.VolumeID, flyError(err))
	}
	fresh := func(ctx context.Context) (*volumeSnapshot, error) {
		all, err := s.list(ctx, spec.VolumeID)
		if err != nil {
			return nil, err
		}
		var fresh []volumeSnapshot
		for _, sn := range all {
			if !known[sn.ID] && !sn.CreatedAt.Before(start.Add(-clockSkew)) {
				fresh = append(fresh, sn)
			}
		}
		switch len(fresh) {
		case 0:
			return nil, nil
		case 1:
			return &fresh[0], nil
		}
		return nil, &platform.ConflictError{Kind: "volume", ID: spec.VolumeID, Reason: fmt.Sprintf(
			"%d snapshots appeared after the snapshot request (Fly's daily snapshot among them), and Fly does not say which is this one; "+
				"none was adopted: read them with the sbx_snapshots data source, or apply again", len(fresh))}
	}
	if lost {
		// The answer was lost: the snapshot may have been requested.
		// Look for it as for any lost create; not found, it is not sent
		// again.
		createErr := err
		found, waited, ferr := lostcreate.Find(ctx, s.p.lookupSleep, func(ctx context.Context) (bool, error) {
			sn, err := fresh(ctx)
			return sn != nil, err
		})
		if !found {
			return nil, &lostcreate.Error{What: "snapshot of volume " + spec.VolumeID, Err: createErr, Waited: waited, Lookup: ferr,
				NotListed: fmt.Sprintf("After looking for it for %s, Fly lists no new snapshot of the volume.", waited),
				Find:      "If it was made, the sbx_snapshots data source lists it (volume_id = \"" + spec.VolumeID + "\"); apply again to take another."}
		}
	}
	found, err := waitFor(ctx, s.p, fresh,
		func(sn *volumeSnapshot) (bool, error) { return sn != nil && sn.Status == snapshotCreated, nil })
	if err != nil {
		return nil, err
	}
	return toSnapshot(spec.VolumeID, vol.SnapshotRetention, found), nil
}

// Get implements platform.SnapshotService.
func (s *snapshots) Get(ctx context.Context, id string) (*platform.Snapshot, error) {
	volID, snapID := parseSnapshotID(id)
	var vols []string
	if volID != "" {
		vols = []string{volID}
	} else {
		all, err := (&volumes{p: s.p}).List(ctx, platform.VolumeFilter{})
		if err != nil {
			return nil, err
		}
		for _, v := range all {
			vols = append(vols, v.ID)
		}
	}
	for _, v := range vols {
		got, err := s.ofVolume(ctx, v)
		if platform.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for i := range got {
			if _, sid := parseSnapshotID(got[i].ID); sid == snapID {
				return &got[i], nil
			}
		}
	}
	return nil, &platform.NotFoundError{Kind: "snapshot", ID: id}
}

// ofVolume lists a volume's snapshots, automatic ones included, newest first.
func (s *snapshots) ofVolume(ctx context.Context, volumeID string) ([]platform.Snapshot, error) {
	vol, err := (&volumes{p: s.p}).get(ctx, volumeID)
	if err != nil {
		return nil, err
	}
	raw, err := s.list(ctx, volumeID)
	if err != nil {
		return nil, err
	}
	out := make([]platform.Snapshot, 0, len(raw))
	for i := range raw {
		if raw[i].Status == "failed" {
			continue
		}
		out = append(out, *toSnapshot(volumeID, vol.SnapshotRetention, &raw[i]))
	}
	slices.SortStableFunc(out, func(a, b platform.Snapshot) int { return b.CreatedAt.Compare(a.CreatedAt) })
	return out, nil
}

// List implements platform.SnapshotService: one volume's snapshots, or
// every volume's, newest first. Fly snapshots have no name or labels.
func (s *snapshots) List(ctx context.Context, filter platform.SnapshotFilter) ([]platform.Snapshot, error) {
	if filter.SandboxID != "" || filter.Name != "" || len(filter.Labels) > 0 {
		return nil, nil
	}
	var vols []string
	if filter.VolumeID != "" {
		vols = []string{filter.VolumeID}
	} else {
		all, err := (&volumes{p: s.p}).List(ctx, platform.VolumeFilter{})
		if err != nil {
			return nil, err
		}
		for _, v := range all {
			vols = append(vols, v.ID)
		}
	}
	var out []platform.Snapshot
	for _, v := range vols {
		got, err := s.ofVolume(ctx, v)
		if platform.IsNotFound(err) && filter.VolumeID == "" {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	slices.SortStableFunc(out, func(a, b platform.Snapshot) int { return b.CreatedAt.Compare(a.CreatedAt) })
	return out, nil
}

// Delete implements platform.SnapshotService: Fly has no way to delete a
// volume snapshot (Capabilities.SnapshotDelete is false); it expires.
func (s *snapshots) Delete(context.Context, string) error {
	return &platform.UnsupportedError{Platform: platformName, Capability: "deleting volume snapshots (they expire after the volume's snapshot_retention days)"}
}

// toSnapshot converts a Fly volume snapshot; it expires its
// retention_days (else the volume's snapshot_retention, else 5) after it
// was made.
func toSnapshot(volumeID string, volRetention int64, sn *volumeSnapshot) *platform.Snapshot {
	days := sn.RetentionDays
	if days == 0 {
		days = volRetention
	}
	if days == 0 {
		days = defaultRetentionDays
	}
	return &platform.Snapshot{ID: snapshotID(volumeID, sn.ID), Kind: platform.SnapshotVolume, VolumeID: volumeID,
		SizeBytes: sn.Size, CreatedAt: sn.CreatedAt, ExpiresAt: sn.CreatedAt.Add(time.Duration(days) * 24 * time.Hour),
		Labels: map[string]string{}}
}
