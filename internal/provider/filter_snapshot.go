package provider

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// snapshotQuery is what the sbx_snapshot and sbx_snapshots data sources
// filter by. Zero fields match everything.
type snapshotQuery struct {
	Name      string
	NameRegex *regexp.Regexp
	Labels    map[string]string
	SandboxID string
	VolumeID  string
	// IncludeExpired keeps snapshots whose expires_at is already past.
	IncludeExpired bool
}

// platformFilter is the part of the query a platform can apply server-side;
// the rest (regex, expiry) is applied here. The result is re-filtered
// locally either way, so a platform that ignores a filter field is still
// answered correctly.
func (q snapshotQuery) platformFilter() platform.SnapshotFilter {
	return platform.SnapshotFilter{
		Name:      q.Name,
		Labels:    maps.Clone(q.Labels),
		SandboxID: q.SandboxID,
		VolumeID:  q.VolumeID,
	}
}

// matches reports whether one snapshot satisfies every filter at time at.
func (q snapshotQuery) matches(s platform.Snapshot, at time.Time) bool {
	switch {
	case q.Name != "" && s.Name != q.Name:
		return false
	case q.NameRegex != nil && !q.NameRegex.MatchString(s.Name):
		return false
	case q.SandboxID != "" && s.SandboxID != q.SandboxID:
		return false
	case q.VolumeID != "" && s.VolumeID != q.VolumeID:
		return false
	case !platform.MatchLabels(s.Labels, q.Labels):
		return false
	case !q.IncludeExpired && snapshotExpired(s, at):
		return false
	}
	return true
}

// describe lists the filters in HCL-like form for error messages, so the
// user sees exactly what was searched for.
func (q snapshotQuery) describe() string {
	var parts []string
	if q.Name != "" {
		parts = append(parts, fmt.Sprintf("name = %q", q.Name))
	}
	if q.NameRegex != nil {
		parts = append(parts, fmt.Sprintf("name_regex = %q", q.NameRegex.String()))
	}
	if len(q.Labels) > 0 {
		keys := slices.Sorted(maps.Keys(q.Labels))
		kv := make([]string, 0, len(keys))
		for _, k := range keys {
			kv = append(kv, fmt.Sprintf("%q = %q", k, q.Labels[k]))
		}
		parts = append(parts, "labels = { "+strings.Join(kv, ", ")+" }")
	}
	if q.SandboxID != "" {
		parts = append(parts, fmt.Sprintf("sandbox_id = %q", q.SandboxID))
	}
	if q.VolumeID != "" {
		parts = append(parts, fmt.Sprintf("volume_id = %q", q.VolumeID))
	}
	parts = append(parts, fmt.Sprintf("include_expired = %t", q.IncludeExpired))
	return strings.Join(parts, ", ")
}

// snapshotExpired reports whether the platform's deadline for s has passed.
// A zero ExpiresAt means the snapshot never expires.
func snapshotExpired(s platform.Snapshot, at time.Time) bool {
	return !s.ExpiresAt.IsZero() && !s.ExpiresAt.After(at)
}

// selectSnapshots returns the snapshots matching q at time at, newest first.
// The input is not modified.
func selectSnapshots(all []platform.Snapshot, q snapshotQuery, at time.Time) []platform.Snapshot {
	out := make([]platform.Snapshot, 0, len(all))
	for _, s := range all {
		if q.matches(s, at) {
			out = append(out, s)
		}
	}
	sortSnapshotsNewestFirst(out)
	return out
}

// sortSnapshotsNewestFirst orders by created_at descending. Equal times
// (coarse platform clocks) fall back to the id, so the order, and with it
// most_recent, never depends on the order the platform listed them in.
func sortSnapshotsNewestFirst(s []platform.Snapshot) {
	slices.SortStableFunc(s, func(a, b platform.Snapshot) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}

// pickSnapshot chooses the one snapshot the sbx_snapshot data source
// returns from matches (already newest first), or explains why it cannot.
func pickSnapshot(matches []platform.Snapshot, mostRecent bool, q snapshotQuery) (platform.Snapshot, error) {
	switch {
	case len(matches) == 0:
		return platform.Snapshot{}, fmt.Errorf("no snapshot matched the filters: %s", q.describe())
	case len(matches) == 1 || mostRecent:
		return matches[0], nil
	}
	ids := make([]string, 0, 5)
	for i, s := range matches {
		if i == 5 {
			ids = append(ids, fmt.Sprintf("and %d more", len(matches)-5))
			break
		}
		ids = append(ids, s.ID)
	}
	return platform.Snapshot{}, fmt.Errorf("%d snapshots matched the filters (%s): %s. "+
		"Set most_recent = true to take the newest, or narrow the filters so only one matches",
		len(matches), q.describe(), strings.Join(ids, ", "))
}
