package flyfake

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"time"
)

// Volume rules (Fly docs volumes-resource and platform-apis.md §3.5): name
// of letters, digits and underscores, at most 30 (the rule the project
// documents for Fly, issue 23); size_gb default
// 3, at most 500, grows only; snapshot_retention default 5, 1-60 days;
// auto_backup_enabled and encrypted default true; fstype ext4.
const (
	defaultVolumeSizeGB    = 3
	maxVolumeSizeGB        = 500
	defaultRetentionDays   = 5
	minRetention           = 1
	maxRetention           = 60
	snapshotSizeBytesPerGB = 1 << 28 // the fake's used bytes per GB of volume
)

var volumeNameRE = regexp.MustCompile(`^[A-Za-z0-9_]{1,30}$`)

// volumeBody is fly-go's CreateVolumeRequest (volume_types.go), a superset
// of the spec's: auto_backup_enabled is fly-go's.
type volumeBody struct {
	Name              string  `json:"name"`
	Region            string  `json:"region"`
	SizeGB            *int    `json:"size_gb"`
	Encrypted         *bool   `json:"encrypted"`
	SnapshotRetention *int    `json:"snapshot_retention"`
	AutoBackupEnabled *bool   `json:"auto_backup_enabled"`
	FSType            *string `json:"fstype"`
	SnapshotID        *string `json:"snapshot_id"`
	SourceVolumeID    *string `json:"source_volume_id"`
}

func (s *Server) volumeFor(c *call) (*volume, reply, bool) {
	if _, rep, found := s.appFor(c); !found {
		return nil, rep, false
	}
	v, found := s.volumes[c.params["volume_id"]]
	if !found || v.app != c.params["app_name"] || (v.state == VolumeDestroyed && !c.now.Before(v.deletedAt.Add(deletedVolumeVisibleFor))) {
		return nil, errorReply(http.StatusNotFound, "volume not found"), false
	}
	return v, reply{}, true
}

func checkRetention(days int) (reply, bool) {
	if days < minRetention || days > maxRetention {
		return errorReply(http.StatusBadRequest, "snapshot_retention must be between %d and %d days, got %d", minRetention, maxRetention, days), false
	}
	return reply{}, true
}

func (s *Server) createVolume(c *call) reply {
	a, rep, found := s.appFor(c)
	if !found {
		return rep
	}
	var body volumeBody
	if err := json.Unmarshal(c.body, &body); err != nil {
		return errorReply(http.StatusBadRequest, "invalid request body: %v", err)
	}
	if !volumeNameRE.MatchString(body.Name) {
		return errorReply(http.StatusBadRequest, "invalid volume name %q: letters, digits and underscores, at most 30", body.Name)
	}
	region := body.Region
	if region == "" {
		region = s.opts.DefaultRegion
	}
	if !s.knownRegion(region) {
		return errorReply(http.StatusBadRequest, "region %q not found", region)
	}
	if body.SourceVolumeID != nil {
		return errorReply(http.StatusNotImplemented, "flyfake: forking a volume (source_volume_id) is not modelled")
	}
	size := defaultVolumeSizeGB
	var from *snapshot
	if body.SnapshotID != nil {
		sn, found := s.snaps[*body.SnapshotID]
		if !found || s.volumes[sn.volumeID].app != a.name || !c.now.Before(sn.expiresAt()) {
			return errorReply(http.StatusNotFound, "snapshot %s not found", *body.SnapshotID)
		}
		if sn.status != SnapshotCreated {
			return errorReply(http.StatusBadRequest, "snapshot %s is not ready (%s)", sn.id, sn.status)
		}
		from, size = sn, sn.volumeSizeGB
	}
	if body.SizeGB != nil {
		size = *body.SizeGB
	}
	if size < 1 || size > maxVolumeSizeGB {
		return errorReply(http.StatusBadRequest, "size_gb must be between 1 and %d, got %d", maxVolumeSizeGB, size)
	}
	if from != nil && size < from.volumeSizeGB {
		return errorReply(http.StatusBadRequest, "size_gb %d is smaller than the snapshot's volume size %d GB", size, from.volumeSizeGB)
	}
	retention := defaultRetentionDays
	if body.SnapshotRetention != nil {
		retention = *body.SnapshotRetention
	}
	if rep, valid := checkRetention(retention); !valid {
		return rep
	}
	v := &volume{
		seq: s.nextSeq(), id: newVolumeID(), app: a.name, name: body.Name, region: region,
		zone: randHex(4), state: VolumeCreated, sizeGB: size, encrypted: true, fstype: "ext4",
		snapshotRetention: retention, autoBackup: true, createdAt: c.now, nextAuto: c.now.Add(24 * time.Hour),
	}
	if body.Encrypted != nil {
		v.encrypted = *body.Encrypted
	}
	if body.AutoBackupEnabled != nil {
		v.autoBackup = *body.AutoBackupEnabled
	}
	if body.FSType != nil {
		if *body.FSType != "ext4" && *body.FSType != "raw" {
			return errorReply(http.StatusBadRequest, "fstype must be ext4 or raw")
		}
		v.fstype = *body.FSType
	}
	if from != nil {
		v.restoredFrom = from.id
	}
	s.volumes[v.id] = v
	return reply{status: http.StatusOK, body: volumeJSON(v)}
}

func (s *Server) getVolume(c *call) reply {
	v, rep, found := s.volumeFor(c)
	if !found {
		return rep
	}
	s.pollVolume(v)
	return reply{status: http.StatusOK, body: volumeJSON(v)}
}

// pollVolume counts a read of a deleted volume: the Polls-th finds it
// destroyed.
func (s *Server) pollVolume(v *volume) {
	if v.state != VolumeScheduledDestroy {
		return
	}
	v.deletePolls++
	if v.deletePolls >= s.opts.Polls {
		v.state = VolumeDestroyed
	}
}

// listVolumes lists the app's volumes, scheduling_destroy ones included (the
// API does; fly-go's GetVolumes filters them out client-side), destroyed
// ones not.
func (s *Server) listVolumes(c *call) reply {
	a, rep, found := s.appFor(c)
	if !found {
		return rep
	}
	out := []map[string]any{}
	for _, v := range s.sortedVolumes() {
		if v.app == a.name && v.state != VolumeDestroyed {
			out = append(out, volumeJSON(v))
		}
	}
	return reply{status: http.StatusOK, body: out}
}

// updateVolume serves PUT (fly-go UpdateVolume, Fly docs) and the spec's
// POST Volumes_update alike.
func (s *Server) updateVolume(c *call) reply {
	v, rep, found := s.volumeFor(c)
	if !found {
		return rep
	}
	if v.state != VolumeCreated {
		return errorReply(http.StatusNotFound, "volume not found")
	}
	var body struct {
		SnapshotRetention *int  `json:"snapshot_retention"`
		AutoBackupEnabled *bool `json:"auto_backup_enabled"`
	}
	if err := json.Unmarshal(c.body, &body); err != nil {
		return errorReply(http.StatusBadRequest, "invalid request body: %v", err)
	}
	if body.SnapshotRetention != nil {
		if rep, valid := checkRetention(*body.SnapshotRetention); !valid {
			return rep
		}
		// Only new snapshots get the new retention (Fly docs volumes/snapshots).
		v.snapshotRetention = *body.SnapshotRetention
	}
	if body.AutoBackupEnabled != nil {
		if *body.AutoBackupEnabled && !v.autoBackup {
			v.nextAuto = nextDaily(v.createdAt, c.now)
		}
		v.autoBackup = *body.AutoBackupEnabled
	}
	return reply{status: http.StatusOK, body: volumeJSON(v)}
}

// nextDaily is the first daily anniversary of created after now.
func nextDaily(created, now time.Time) time.Time {
	days := int(now.Sub(created)/(24*time.Hour)) + 1
	return created.Add(time.Duration(days) * 24 * time.Hour)
}

// extendVolume grows a volume (spec Volumes_extend; needs_restart is in the
// spec's ExtendVolumeResponse and fly-go's): it is true when the volume is
// mounted by a started machine.
func (s *Server) extendVolume(c *call) reply {
	v, rep, found := s.volumeFor(c)
	if !found {
		return rep
	}
	if v.state != VolumeCreated {
		return errorReply(http.StatusNotFound, "volume not found")
	}
	var body struct {
		SizeGB *int `json:"size_gb"`
	}
	if err := json.Unmarshal(c.body, &body); err != nil || body.SizeGB == nil {
		return errorReply(http.StatusBadRequest, "size_gb is required")
	}
	if *body.SizeGB <= v.sizeGB {
		return errorReply(http.StatusBadRequest, "size_gb must be greater than the volume's current size (%d GB): volumes can only grow", v.sizeGB)
	}
	if *body.SizeGB > maxVolumeSizeGB {
		return errorReply(http.StatusBadRequest, "size_gb must be at most %d", maxVolumeSizeGB)
	}
	v.sizeGB = *body.SizeGB
	needsRestart := false
	if m := s.machines[v.attachedMachine]; m != nil && m.state == StateStarted {
		needsRestart = true
	}
	return reply{status: http.StatusOK, body: map[string]any{"volume": volumeJSON(v), "needs_restart": needsRestart}}
}

func (s *Server) deleteVolume(c *call) reply {
	v, rep, found := s.volumeFor(c)
	if !found {
		return rep
	}
	if v.state != VolumeCreated {
		return errorReply(http.StatusNotFound, "volume not found")
	}
	if v.attachedMachine != "" {
		return errorReply(http.StatusPreconditionFailed, "failed_precondition: volume %s is attached to machine %s: destroy the machine first", v.id, v.attachedMachine)
	}
	s.destroyVolume(v, c.now)
	return reply{status: http.StatusOK, body: volumeJSON(v)}
}

func (s *Server) destroyVolume(v *volume, now time.Time) {
	v.state, v.deletedAt, v.attachedMachine = VolumeScheduledDestroy, now, ""
}

// listSnapshots is Volumes_list_snapshots, newest first (fly-go's
// GetVolumeSnapshots keeps the API's order). Each list advances on-demand
// snapshots one step: the first list shows waiting, the next ones running,
// the (Polls+1)-th created.
func (s *Server) listSnapshots(c *call) reply {
	v, rep, found := s.volumeFor(c)
	if !found {
		return rep
	}
	out := []map[string]any{}
	for _, sn := range s.volumeSnapshots(v.id) {
		if sn.status != SnapshotCreated {
			sn.polls++
			switch {
			case sn.polls > s.opts.Polls:
				sn.status = SnapshotCreated
			case sn.polls > 1:
				sn.status = SnapshotRunning
			}
		}
		out = append(out, snapshotJSON(sn))
	}
	return reply{status: http.StatusOK, body: out}
}

// createSnapshot is createVolumeSnapshot: 200 with no body (fly-go
// CreateVolumeSnapshot reads none); the snapshot starts waiting.
func (s *Server) createSnapshot(c *call) reply {
	v, rep, found := s.volumeFor(c)
	if !found {
		return rep
	}
	if v.state != VolumeCreated {
		return errorReply(http.StatusNotFound, "volume not found")
	}
	s.addSnapshot(v, c.now, false)
	return reply{status: http.StatusOK}
}

func (s *Server) addSnapshot(v *volume, at time.Time, automatic bool) *snapshot {
	sn := &snapshot{
		seq: s.nextSeq(), id: newSnapshotID(), volumeID: v.id, status: SnapshotWaiting,
		sizeBytes: v.sizeGB * snapshotSizeBytesPerGB, volumeSizeGB: v.sizeGB, digest: randHex(64),
		retentionDays: v.snapshotRetention, createdAt: at, automatic: automatic,
	}
	if automatic || s.opts.Instant {
		sn.status = SnapshotCreated
	}
	s.snaps[sn.id] = sn
	return sn
}

// volumeSnapshots are a volume's unexpired snapshots, newest first.
func (s *Server) volumeSnapshots(volumeID string) []*snapshot {
	var out []*snapshot
	for _, sn := range s.snaps {
		if sn.volumeID == volumeID {
			out = append(out, sn)
		}
	}
	sortBySeq(out, func(sn *snapshot) int64 { return sn.seq })
	slices.SortStableFunc(out, func(a, b *snapshot) int { return b.createdAt.Compare(a.createdAt) })
	return out
}

// advanceClock does what Fly's daily backups and retention would have done
// by now on the fake's clock: one automatic snapshot per day after a live
// volume's creation while auto_backup_enabled, each kept its
// retention_days (Fly docs volumes/snapshots).
func (s *Server) advanceClock(now time.Time) {
	for _, v := range s.sortedVolumes() {
		for v.autoBackup && !v.nextAuto.After(now) {
			if v.state != VolumeCreated && !v.nextAuto.Before(v.deletedAt) {
				break
			}
			s.addSnapshot(v, v.nextAuto, true)
			v.nextAuto = v.nextAuto.Add(24 * time.Hour)
		}
	}
	for id, sn := range s.snaps {
		if !now.Before(sn.expiresAt()) {
			delete(s.snaps, id)
		}
	}
}

func (s *Server) sortedVolumes() []*volume {
	out := make([]*volume, 0, len(s.volumes))
	for _, v := range s.volumes {
		out = append(out, v)
	}
	sortBySeq(out, func(v *volume) int64 { return v.seq })
	return out
}

func sortBySeq[T any](items []T, seq func(T) int64) {
	slices.SortFunc(items, func(a, b T) int {
		switch x, y := seq(a), seq(b); {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
}

// volumeJSON is the spec's Volume plus fly-go's newer fields
// (auto_backup_enabled, host_dedication_id; volume_types.go).
// attached_machine_id is left out when unset (fly-go reads it as *string).
func volumeJSON(v *volume) map[string]any {
	out := map[string]any{
		"id":                  v.id,
		"name":                v.name,
		"state":               v.state,
		"size_gb":             v.sizeGB,
		"region":              v.region,
		"zone":                v.zone,
		"encrypted":           v.encrypted,
		"created_at":          v.createdAt.UTC().Format(time.RFC3339),
		"fstype":              v.fstype,
		"snapshot_retention":  v.snapshotRetention,
		"auto_backup_enabled": v.autoBackup,
		"block_size":          4096,
		"blocks":              v.sizeGB * (1 << 30) / 4096,
		"blocks_free":         v.sizeGB * (1 << 30) / 4096,
		"blocks_avail":        v.sizeGB * (1 << 30) / 4096,
		"host_dedication_id":  "",
	}
	if v.attachedMachine != "" {
		out["attached_machine_id"] = v.attachedMachine
	}
	return out
}

// snapshotJSON is the spec's VolumeSnapshot plus fly-go's volume_size and
// retention_days (volume_types.go). Both sizes are in bytes: size is the
// data stored, volume_size the size of the volume it was taken of (flyctl
// prints both with humanize.IBytes: internal/command/volumes/snapshots/
// list.go), though a restore's size_gb is in GB.
func snapshotJSON(sn *snapshot) map[string]any {
	return map[string]any{
		"id":             sn.id,
		"size":           sn.sizeBytes,
		"volume_size":    sn.volumeSizeGB << 30,
		"digest":         sn.digest,
		"created_at":     sn.createdAt.UTC().Format(time.RFC3339),
		"status":         sn.status,
		"retention_days": sn.retentionDays,
	}
}
