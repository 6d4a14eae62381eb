package fly

import "time"

// The JSON shapes: the spec's Machine, MachineConfig, Volume and
// VolumeSnapshot (fly-openapi.yaml), with fly-go's newer members where
// noted.

type guest struct {
	CPUKind  string `json:"cpu_kind,omitempty"`
	CPUs     int64  `json:"cpus,omitempty"`
	MemoryMB int64  `json:"memory_mb,omitempty"`
}

type mount struct {
	Volume string `json:"volume"`
	Path   string `json:"path"`
}

// machineConfig holds the members the provider sets; the rest of a read
// config is kept as read in extra and sent back on update.
type machineConfig struct {
	Image    string            `json:"image"`
	Guest    *guest            `json:"guest,omitempty"`
	Env      map[string]string `json:"env,omitempty"`
	Metadata map[string]string `json:"metadata,omitempty"`
	Mounts   []mount           `json:"mounts,omitempty"`
}

type machineEvent struct {
	Type      string `json:"type"`
	Status    string `json:"status"`
	Source    string `json:"source"`
	Timestamp int64  `json:"timestamp"`
}

type machine struct {
	ID         string         `json:"id"`
	Name       string         `json:"name"`
	State      string         `json:"state"`
	Region     string         `json:"region"`
	InstanceID string         `json:"instance_id"`
	Config     machineConfig  `json:"config"`
	CreatedAt  time.Time      `json:"created_at"`
	UpdatedAt  time.Time      `json:"updated_at"`
	Events     []machineEvent `json:"events"`
}

type createMachine struct {
	Name   string        `json:"name,omitempty"`
	Region string        `json:"region,omitempty"`
	Config machineConfig `json:"config"`
	// SkipLaunch (update): keep a machine that is not started from starting.
	SkipLaunch bool `json:"skip_launch,omitempty"`
}

type volume struct {
	ID                string    `json:"id"`
	Name              string    `json:"name"`
	State             string    `json:"state"`
	SizeGB            int64     `json:"size_gb"`
	Region            string    `json:"region"`
	CreatedAt         time.Time `json:"created_at"`
	AttachedMachineID string    `json:"attached_machine_id"`
	SnapshotRetention int64     `json:"snapshot_retention"`
}

type createVolume struct {
	Name              string `json:"name"`
	Region            string `json:"region,omitempty"`
	SizeGB            int64  `json:"size_gb,omitempty"`
	SnapshotID        string `json:"snapshot_id,omitempty"`
	SnapshotRetention int64  `json:"snapshot_retention,omitempty"`
}

// volumeSnapshot: the spec's VolumeSnapshot; volume_size and
// retention_days from fly-go volume_types.go. Size and VolumeSize are in
// bytes (flyctl's snapshots list prints both as bytes).
type volumeSnapshot struct {
	ID            string    `json:"id"`
	Size          int64     `json:"size"`
	VolumeSize    int64     `json:"volume_size"`
	CreatedAt     time.Time `json:"created_at"`
	Status        string    `json:"status"`
	RetentionDays int64     `json:"retention_days"`
}
