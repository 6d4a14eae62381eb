package daytonafake

import (
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

// SandboxView is a copy of one sandbox's state, for assertions. Views apply
// what the clock has made due (auto-stop, archive, delete) but do not count
// as polls.
type SandboxView struct {
	ID, Name string
	// Snapshot is the name of the snapshot it was created from;
	// SnapshotRef is what the create request sent ("" for the default).
	Snapshot, SnapshotRef string
	Class                 string
	// Region is the target the box was created in.
	Region              string
	State, DesiredState string
	// Pending says a state change is in progress (the entity's flag).
	Pending             bool
	ErrorReason         string
	Recoverable         bool
	CPU, GPU            int
	MemoryGB, DiskGB    int
	User                string
	Labels, Env         map[string]string
	Public              bool
	NetworkBlockAll     bool
	NetworkAllowList    string
	Volumes             []VolumeMountView
	AutoStopInterval    int
	AutoArchiveInterval int
	AutoDeleteInterval  int
	CreatedAt           time.Time
	UpdatedAt           time.Time
	LastActivityAt      time.Time
	// Destroyed says the box is gone (lookups answer 404).
	Destroyed bool
}

// VolumeMountView is one volume mounted into a sandbox, by resolved id.
type VolumeMountView struct{ VolumeID, MountPath, Subpath string }

// SnapshotView is a copy of one snapshot.
type SnapshotView struct {
	ID, Name, ImageName string
	State               string
	ErrorReason         string
	General             bool
	Class               string
	CPU, GPU            int
	MemoryGB, DiskGB    int
	Entrypoint          []string
	// Dockerfile and ContextHashes are the buildInfo ("" and nil for image
	// snapshots).
	Dockerfile    string
	ContextHashes []string
	// FromSandbox is the sandbox a snapshot was taken of.
	FromSandbox string
	Logs        []string
	CreatedAt   time.Time
	UpdatedAt   time.Time
	LastUsedAt  *time.Time
	Removed     bool
}

// VolumeView is a copy of one volume.
type VolumeView struct {
	ID, Name, State string
	CreatedAt       time.Time
	LastUsedAt      *time.Time
}

// Sandboxes lists every sandbox, destroyed ones included, oldest first.
func (s *Server) Sandboxes() []SandboxView {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.advanceClock(s.clock.Now())
	all := fakeapi.Oldest(s.sandboxes, func(sb *sandbox) int64 { return sb.seq })
	out := make([]SandboxView, 0, len(all))
	for _, sb := range all {
		v := SandboxView{Region: sb.region, ID: sb.id, Name: sb.name, Snapshot: sb.snapshot, SnapshotRef: sb.snapshotRef, Class: sb.class,
			State: sb.state, DesiredState: sb.desired, Pending: sb.pending(), ErrorReason: sb.errorReason, Recoverable: sb.recoverable,
			CPU: sb.cpu, GPU: sb.gpu, MemoryGB: sb.mem, DiskGB: sb.disk, User: sb.user, Labels: copyMap(sb.labels), Env: copyMap(sb.env),
			Public: sb.public, NetworkBlockAll: sb.networkBlockAll, AutoStopInterval: sb.autoStop, AutoArchiveInterval: sb.autoArchive,
			AutoDeleteInterval: sb.autoDelete, CreatedAt: sb.createdAt, UpdatedAt: sb.updatedAt, LastActivityAt: sb.lastActivityAt,
			Destroyed: !sb.live()}
		if sb.networkAllowList != nil {
			v.NetworkAllowList = *sb.networkAllowList
		}
		for _, m := range sb.volumes {
			v.Volumes = append(v.Volumes, VolumeMountView(m))
		}
		out = append(out, v)
	}
	return out
}

// Sandbox returns one sandbox by id and whether it exists (destroyed ones
// are returned with Destroyed set).
func (s *Server) Sandbox(id string) (SandboxView, bool) {
	return fakeapi.First(s.Sandboxes(), func(v SandboxView) bool { return v.ID == id })
}

// Snapshots lists every snapshot, removed ones included, oldest first.
func (s *Server) Snapshots() []SnapshotView {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.advanceClock(s.clock.Now())
	all := fakeapi.Oldest(s.snapshots, func(sn *snapshot) int64 { return sn.seq })
	out := make([]SnapshotView, 0, len(all))
	for _, sn := range all {
		v := SnapshotView{ID: sn.id, Name: sn.name, ImageName: sn.imageName, State: sn.state, General: sn.general, Class: sn.class,
			CPU: sn.cpu, GPU: sn.gpu, MemoryGB: sn.mem, DiskGB: sn.disk, Entrypoint: append([]string(nil), sn.entrypoint...),
			FromSandbox: sn.fromSandbox, Logs: append([]string(nil), sn.logs...), CreatedAt: sn.createdAt, UpdatedAt: sn.updatedAt,
			Removed: sn.removed}
		if sn.errorReason != nil {
			v.ErrorReason = *sn.errorReason
		}
		if sn.lastUsedAt != nil {
			v.LastUsedAt = timePtr(*sn.lastUsedAt)
		}
		if sn.build != nil {
			v.Dockerfile, v.ContextHashes = sn.build.dockerfile, append([]string(nil), sn.build.hashes...)
		}
		out = append(out, v)
	}
	return out
}

// Snapshot returns one snapshot by id or name and whether it exists.
func (s *Server) Snapshot(idOrName string) (SnapshotView, bool) {
	return fakeapi.First(s.Snapshots(), func(v SnapshotView) bool { return !v.Removed && (v.ID == idOrName || v.Name == idOrName) })
}

// Volumes lists every volume, deleted ones included, oldest first.
func (s *Server) Volumes() []VolumeView {
	s.mu.Lock()
	defer s.mu.Unlock()
	all := fakeapi.Oldest(s.volumes, func(v *volume) int64 { return v.seq })
	out := make([]VolumeView, 0, len(all))
	for _, v := range all {
		vv := VolumeView{ID: v.id, Name: v.name, State: v.state, CreatedAt: v.createdAt}
		if v.lastUsedAt != nil {
			vv.LastUsedAt = timePtr(*v.lastUsedAt)
		}
		out = append(out, vv)
	}
	return out
}

// Volume returns one volume by id and whether it exists.
func (s *Server) Volume(id string) (VolumeView, bool) {
	return fakeapi.First(s.Volumes(), func(v VolumeView) bool { return v.ID == id })
}
