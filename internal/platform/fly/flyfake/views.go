package flyfake

import "time"

// MachineView is a machine as tests see it.
type MachineView struct {
	ID, App, Name, Region, State string
	// InstanceID is the current version; Versions every version, oldest
	// first (an update adds one, the id stays).
	InstanceID string
	Versions   []string
	Image      string
	CPUKind    string
	CPUs       int
	MemoryMB   int
	Env        map[string]string
	Metadata   map[string]string
	// VolumeID and MountPath are the machine's one mount, if any.
	VolumeID, MountPath string
	// SuspendSnapshot says whether a suspended machine still has its memory
	// snapshot.
	SuspendSnapshot bool
	// ColdBoots counts starts of a suspended machine whose snapshot was
	// lost; Resumes those that resumed from the snapshot.
	ColdBoots, Resumes int
	// Events oldest first.
	Events    []EventView
	Destroyed bool
	CreatedAt time.Time
}

// EventView is one machine event.
type EventView struct {
	Type, Status, Source string
	Time                 time.Time
}

// VolumeView is a volume as tests see it.
type VolumeView struct {
	ID, App, Name, Region, State string
	SizeGB                       int
	SnapshotRetention            int
	AutoBackupEnabled, Encrypted bool
	AttachedMachineID            string
	// RestoredFrom is the snapshot the volume was created from.
	RestoredFrom string
	CreatedAt    time.Time
}

// SnapshotView is a volume snapshot as tests see it.
type SnapshotView struct {
	ID, VolumeID, Status string
	SizeBytes            int
	VolumeSizeGB         int
	RetentionDays        int
	Automatic            bool
	CreatedAt, ExpiresAt time.Time
}

// Machines lists every machine ever created, in creation order (destroyed
// ones included, with Destroyed set).
func (s *Server) Machines() []MachineView {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.advanceClock(s.clock.Now())
	out := []MachineView{}
	for _, m := range s.sortedMachines() {
		v := MachineView{
			ID: m.id, App: m.app, Name: m.name, Region: m.region, State: m.state,
			InstanceID: m.instanceID, Versions: append([]string(nil), m.versions...),
			Image: m.parsed.Image, Env: copyMap(m.parsed.Env), Metadata: copyMap(m.parsed.Metadata),
			SuspendSnapshot: m.suspendSnapshot, ColdBoots: m.coldBoots, Resumes: m.resumes,
			Destroyed: m.gone || m.state == StateDestroyed, CreatedAt: m.createdAt,
		}
		if g := m.parsed.Guest; g != nil {
			v.CPUKind, v.CPUs, v.MemoryMB = g.CPUKind, g.CPUs, g.MemoryMB
		}
		v.VolumeID, v.MountPath = m.mount()
		for _, e := range m.events {
			v.Events = append(v.Events, EventView{Type: e.Type, Status: e.Status, Source: e.Source, Time: time.UnixMilli(e.Timestamp)})
		}
		out = append(out, v)
	}
	return out
}

// Machine is one machine by id.
func (s *Server) Machine(id string) (MachineView, bool) {
	for _, m := range s.Machines() {
		if m.ID == id {
			return m, true
		}
	}
	return MachineView{}, false
}

// Volumes lists every volume ever created, in creation order.
func (s *Server) Volumes() []VolumeView {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.advanceClock(s.clock.Now())
	out := []VolumeView{}
	for _, v := range s.sortedVolumes() {
		out = append(out, VolumeView{
			ID: v.id, App: v.app, Name: v.name, Region: v.region, State: v.state, SizeGB: v.sizeGB,
			SnapshotRetention: v.snapshotRetention, AutoBackupEnabled: v.autoBackup, Encrypted: v.encrypted,
			AttachedMachineID: v.attachedMachine, RestoredFrom: v.restoredFrom, CreatedAt: v.createdAt,
		})
	}
	return out
}

// Volume is one volume by id.
func (s *Server) Volume(id string) (VolumeView, bool) {
	for _, v := range s.Volumes() {
		if v.ID == id {
			return v, true
		}
	}
	return VolumeView{}, false
}

// Snapshots lists a volume's unexpired snapshots, newest first, as the API
// does, automatic ones included.
func (s *Server) Snapshots(volumeID string) []SnapshotView {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.advanceClock(s.clock.Now())
	out := []SnapshotView{}
	for _, sn := range s.volumeSnapshots(volumeID) {
		out = append(out, SnapshotView{
			ID: sn.id, VolumeID: sn.volumeID, Status: sn.status, SizeBytes: sn.sizeBytes,
			VolumeSizeGB: sn.volumeSizeGB, RetentionDays: sn.retentionDays, Automatic: sn.automatic,
			CreatedAt: sn.createdAt, ExpiresAt: sn.expiresAt(),
		})
	}
	return out
}

// Apps lists the apps' names.
func (s *Server) Apps() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.appNames()
}

// MachineCreates counts the machines POST .../machines created (a create
// answered by a fault after handling counts: the machine exists).
func (s *Server) MachineCreates() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.creates
}

func copyMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
